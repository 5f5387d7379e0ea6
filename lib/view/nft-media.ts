/**
 * NFT media and metadata are untrusted input written by whoever deployed the contract. This module
 * turns them into values that are safe to put in an <img src> or an <a href>, and nothing else:
 * - http(s) URLs pass; `ipfs://` and `ar://` go through the operator's gateways;
 * - `data:` URIs pass only for raster images and SVG, and only into <img> (an <img> never runs the
 *   SVG's scripts nor loads its external resources); never into innerHTML, <object> or <iframe>;
 * - everything else (`javascript:`, `data:text/html`, `file:`, `blob:`, relative paths) is dropped.
 * The page then loads an image straight from an origin the CSP admits, or else through Lantern's
 * raster-only media proxy (lib/server/nft-image.ts; docs/evm-node.md, NFT images), lazily, with no referrer.
 */

import { truncateMiddle } from '@/lib/format';

/** One NFT as its card shows it (components/wallet/nft-card.tsx), made on the server from a vetted item. */
export interface NftCardView {
  key: string;
  contract: string;
  collection: string;
  tokenId: string;
  name: string;
  /** Already vetted by lib/view/nft-media and lib/server/nft-image (data:image, a CSP-admitted origin, or Lantern's media proxy). */
  image: string | null;
  description: string | null;
  externalLink: string | null;
  amount: string | null;
  standard: string | null;
  spam: boolean;
  filterHref: string;
}

export interface Gateways {
  ipfs: string;
  arweave: string;
}

/** Images larger than this as data: URIs are not worth a card (and bloat the HTML). */
export const MAX_DATA_URI_CHARS = 256 * 1024;
/** Raw metadata longer than this is not parsed. */
export const MAX_METADATA_CHARS = 128 * 1024;
const MAX_URL_CHARS = 4096;

const DATA_IMAGE = /^data:image\/(png|jpeg|jpg|gif|webp|avif|svg\+xml)(;[a-z0-9=.+-]+)*(;base64)?,/i;

function stripBase(base: string): string {
  return base.replace(/\/+$/, '');
}

/** A URL from metadata to something an <img> may load, or null when it is not one. */
export function resolveMediaUrl(raw: unknown, gateways: Gateways): string | null {
  if (typeof raw !== 'string') return null;
  const value = raw.trim();
  if (!value) return null;
  if (/^data:/i.test(value)) {
    if (!DATA_IMAGE.test(value) || value.length > MAX_DATA_URI_CHARS) return null;
    return value;
  }
  if (value.length > MAX_URL_CHARS) return null;
  // Control characters and whitespace inside a scheme are how `java\nscript:` slips past naive checks.
  if (/[\u0000-\u001f\u007f]/.test(value)) return null;
  const ipfs = /^ipfs:\/\/(?:ipfs\/)?(.+)$/i.exec(value);
  if (ipfs) return `${stripBase(gateways.ipfs)}/${encodePath(ipfs[1])}`;
  const ar = /^ar:\/\/(.+)$/i.exec(value);
  if (ar) return `${stripBase(gateways.arweave)}/${encodePath(ar[1])}`;
  // A bare CID (`Qm...` / `bafy...`) is an IPFS path too.
  if (/^(Qm[1-9A-HJ-NP-Za-km-z]{44}|bafy[a-z2-7]{50,})(\/.*)?$/.test(value)) return `${stripBase(gateways.ipfs)}/${encodePath(value)}`;
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return null;
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return null;
  if (u.username || u.password) return null;
  return u.toString();
}

function encodePath(p: string): string {
  return p
    .split('/')
    .map((seg) => encodeURIComponent(decodeSafe(seg)))
    .join('/')
    .replace(/%3F/g, '?')
    .replace(/%3D/g, '=')
    .replace(/%26/g, '&');
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** A link from metadata (`external_url`): http(s) only, so `javascript:` is never followed. */
export function safeExternalLink(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const value = raw.trim();
  if (!value || value.length > MAX_URL_CHARS || /[\u0000-\u001f\u007f]/.test(value)) return null;
  try {
    const u = new URL(value);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.toString() : null;
  } catch {
    return null;
  }
}

/** Metadata text (names, descriptions) shown as text only, cut to a length a card can hold. */
export function safeText(raw: unknown, max: number): string | null {
  if (typeof raw !== 'string' && typeof raw !== 'number') return null;
  const s = String(raw)
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, '')
    .trim();
  if (!s) return null;
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** Raw metadata JSON, parsed defensively: too long, invalid or not an object -> null. */
export function parseMetadata(raw: unknown): Record<string, unknown> | null {
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) return raw as Record<string, unknown>;
  if (typeof raw !== 'string' || raw.length > MAX_METADATA_CHARS) return null;
  try {
    const v: unknown = JSON.parse(raw);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** `image_data` holds raw SVG markup: it may only ever be shown as an image, never inlined. */
function svgMarkupToDataUri(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const s = raw.trim();
  if (!/^<svg[\s>]/i.test(s) && !/^<\?xml/i.test(s)) return null;
  const uri = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(s)}`;
  return uri.length > MAX_DATA_URI_CHARS ? null : uri;
}

export interface NftSource {
  token_address: string;
  token_id: string;
  name?: string | null;
  symbol?: string | null;
  metadata?: string | null;
  normalized_metadata?: { name?: string | null; description?: string | null; image?: string | null; external_link?: string | null } | null;
  media?: {
    status?: string | null;
    mimetype?: string | null;
    original_media_url?: string | null;
    media_collection?: { low?: { url?: string | null } | null; medium?: { url?: string | null } | null; high?: { url?: string | null } | null } | null;
  } | null;
}

export interface NftMediaView {
  /** Safe for <img src>, or null: the card shows the name instead. */
  image: string | null;
  name: string;
  description: string | null;
  externalLink: string | null;
}

/**
 * Picks the image and texts of an NFT card: the provider's resized previews first (small, already
 * vetted as images), then normalised metadata, then the raw metadata's image / image_url / image_data.
 */
export function resolveNftMedia(item: NftSource, gateways: Gateways): NftMediaView {
  const raw = parseMetadata(item.metadata);
  const norm = item.normalized_metadata ?? null;
  const previews = item.media?.media_collection;
  const previewOk = !item.media?.status || item.media.status === 'success';
  const candidates: unknown[] = [
    previewOk ? previews?.medium?.url : null,
    previewOk ? previews?.low?.url : null,
    previewOk ? previews?.high?.url : null,
    norm?.image,
    raw?.image,
    raw?.image_url,
    item.media?.mimetype?.startsWith('image/') ? item.media.original_media_url : null,
  ];
  let image: string | null = null;
  for (const c of candidates) {
    image = resolveMediaUrl(c, gateways);
    if (image) break;
  }
  image ??= svgMarkupToDataUri(raw?.image_data);

  const fallbackName = `${safeText(item.name, 60) ?? 'Token'} #${shortId(item.token_id)}`;
  return {
    image,
    name: safeText(norm?.name, 80) ?? safeText(raw?.name, 80) ?? fallbackName,
    description: safeText(norm?.description, 280) ?? safeText(raw?.description, 280),
    externalLink: safeExternalLink(norm?.external_link) ?? safeExternalLink(raw?.external_url) ?? safeExternalLink(raw?.external_link),
  };
}

function shortId(id: string): string {
  return truncateMiddle(id);
}
