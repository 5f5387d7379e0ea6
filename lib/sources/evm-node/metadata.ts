import 'server-only';
import { decodeAbiParameters, encodeFunctionData, parseAbi, type Hex } from 'viem';
import { db } from '@/lib/db';
import type { NftMedia, NormalizedMetadata } from '@/lib/interface/nfts';
import { rpc } from './rpc';

/**
 * NFT token URIs and metadata. `tokenURI(id)` (ERC-721) or `uri(id)` (ERC-1155, with `{id}` replaced
 * by the 64-hex-digit id) is read once with eth_call and kept in evm_nft_token.
 * On-chain metadata (`data:application/json` base64, percent-encoded or plain) is decoded here.
 * http(s), ipfs:// and ar:// metadata is fetched by the background NFT job only
 * (./metadata-fetch.ts, under lib/security/outbound's rules), never while answering a listing.
 */

const abi = parseAbi(['function tokenURI(uint256) view returns (string)', 'function uri(uint256) view returns (string)']);

export interface TokenMeta {
  tokenUri: string | null;
  metadata: string | null;
  /** When the token URI was read from the chain (ISO). */
  uriSyncedAt: string | null;
  /** When the metadata was decoded (on chain) or fetched (off chain); null while it is not known. */
  metadataSyncedAt: string | null;
  /** Off-chain fetch state: pending (never tried or being fetched), ok, or failed with its reason. */
  fetch: { status: 'pending' | 'ok' | 'failed'; reason: string | null } | null;
}

const MAX_METADATA_CHARS = 256 * 1024;

export async function readUri(chainId: number, contract: string, tokenId: string, standard: 'erc721' | 'erc1155'): Promise<string | null> {
  const id = BigInt(tokenId);
  const data = encodeFunctionData({ abi, functionName: standard === 'erc721' ? 'tokenURI' : 'uri', args: [id] });
  try {
    const out = await rpc<Hex>(chainId, 'eth_call', [{ to: contract, data }, 'latest']);
    const [s] = decodeAbiParameters([{ type: 'string' }], out);
    const uri = s.trim();
    if (!uri) return null;
    return standard === 'erc1155' ? uri.replaceAll('{id}', erc1155IdHex(tokenId)) : uri;
  } catch {
    return null; // burned token, or a contract without the view
  }
}

/** On-chain JSON metadata of a data: URI as a JSON string; null for anything else or invalid JSON. */
export function decodeDataUri(uri: string | null): string | null {
  if (!uri || !uri.startsWith('data:')) return null;
  const comma = uri.indexOf(',');
  if (comma < 0) return null;
  const head = uri.slice(5, comma).toLowerCase();
  if (!head.startsWith('application/json') && !head.startsWith('text/plain')) return null;
  const body = uri.slice(comma + 1);
  if (body.length > MAX_METADATA_CHARS * 2) return null;
  try {
    const text = head.includes(';base64') ? Buffer.from(body, 'base64').toString('utf8') : decodeURIComponent(body);
    const parsed = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
    return JSON.stringify(parsed);
  } catch {
    return null;
  }
}

/** Token URI and metadata of many tokens: database first, the node for the rest (kept for next time). */
export async function tokenMetaMany(
  chainId: number,
  tokens: { contract: string; tokenId: string; standard: 'erc721' | 'erc1155' }[],
): Promise<Map<string, TokenMeta>> {
  const out = new Map<string, TokenMeta>();
  if (tokens.length === 0) return out;
  const key = (c: string, id: string) => `${c}:${id}`;
  const d = await db();
  const { rows } = await d.query<{
    token_address: string;
    token_id: string;
    token_uri: string | null;
    metadata: string | null;
    synced_at: string | Date;
    f_status: string | null;
    f_reason: string | null;
    ok_at: string | Date | null;
  }>(
    `SELECT t.token_address, t.token_id::text AS token_id, t.token_uri, t.metadata, t.synced_at,
            f.status AS f_status, f.reason AS f_reason, f.ok_at
     FROM evm_nft_token t
     LEFT JOIN evm_nft_metadata_fetch f ON f.chain_id = t.chain_id AND f.token_address = t.token_address AND f.token_id = t.token_id
     WHERE t.chain_id = $1 AND (t.token_address, t.token_id) IN (SELECT * FROM unnest($2::text[], $3::numeric[]))`,
    [chainId, tokens.map((t) => t.contract), tokens.map((t) => t.tokenId)],
  );
  for (const r of rows) {
    const onChain = !!r.token_uri && /^data:/i.test(r.token_uri);
    const fetched = r.f_status === 'ok' && r.metadata !== null;
    out.set(key(r.token_address, r.token_id), {
      tokenUri: r.token_uri,
      metadata: r.metadata,
      uriSyncedAt: iso(r.synced_at),
      // Off chain: when the metadata shown was fetched, even if a later attempt (a resync) failed and kept it.
      metadataSyncedAt: r.metadata === null ? null : onChain ? iso(r.synced_at) : iso(r.ok_at),
      fetch:
        !r.token_uri || onChain ? null : { status: fetched ? 'ok' : r.f_status === 'failed' ? 'failed' : 'pending', reason: r.f_status === 'failed' ? r.f_reason : null },
    });
  }
  const missing = tokens.filter((t) => !out.has(key(t.contract, t.tokenId)));
  const read = await Promise.all(
    missing.map(async (t) => {
      const tokenUri = await readUri(chainId, t.contract, t.tokenId, t.standard);
      const metadata = decodeDataUri(tokenUri);
      const now = new Date().toISOString();
      const meta: TokenMeta = {
        tokenUri,
        metadata,
        uriSyncedAt: now,
        metadataSyncedAt: metadata === null ? null : now,
        fetch: tokenUri && !/^data:/i.test(tokenUri) ? { status: 'pending', reason: null } : null,
      };
      return { t, meta };
    }),
  );
  for (const { t, meta } of read) {
    out.set(key(t.contract, t.tokenId), meta);
    await d.query(
      `INSERT INTO evm_nft_token (chain_id, token_address, token_id, token_uri, metadata) VALUES ($1,$2,$3,$4,$5) ON CONFLICT DO NOTHING`,
      [chainId, t.contract, t.tokenId, meta.tokenUri, meta.metadata],
    );
  }
  return out;
}

function iso(v: string | Date | null): string | null {
  if (v === null) return null;
  const d = v instanceof Date ? v : new Date(v);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : typeof v === 'number' ? String(v) : null);

/** An ERC-1155 id as EIP-1155 spells it for `{id}`: lowercase hex, zero-padded to 64 digits, no 0x. */
export function erc1155IdHex(tokenId: string): string {
  return BigInt(tokenId).toString(16).padStart(64, '0');
}

/** Every string in a JSON value with `{id}` replaced (EIP-1155: "in any JSON value ... by all client software"). */
function substituteId(v: unknown, hexId: string, depth = 0): unknown {
  if (typeof v === 'string') return v.replaceAll('{id}', hexId);
  if (depth > 32 || v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map((x) => substituteId(x, hexId, depth + 1));
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, substituteId(x, hexId, depth + 1)]));
}

/**
 * The hosted API's normalised metadata: name, description, image, external_link, animation_url,
 * attributes. For an ERC-1155 token (`erc1155TokenId` given) `{id}` in any value is its id, per EIP-1155;
 * the raw `metadata` stays as the URI served it.
 */
export function normaliseMetadata(metadata: string | null, erc1155TokenId?: string): NormalizedMetadata {
  let m: Record<string, unknown> = {};
  try {
    if (metadata) m = JSON.parse(metadata);
  } catch {
    m = {};
  }
  if (typeof m !== 'object' || m === null || Array.isArray(m)) m = {};
  if (erc1155TokenId !== undefined && /^\d+$/.test(erc1155TokenId)) m = substituteId(m, erc1155IdHex(erc1155TokenId)) as Record<string, unknown>;
  const attrs = Array.isArray(m.attributes) ? m.attributes : [];
  return {
    name: str(m.name),
    description: str(m.description),
    image: str(m.image) ?? str(m.image_url) ?? str(m.image_data ? `data:image/svg+xml;utf8,${String(m.image_data)}` : null),
    external_link: str(m.external_url) ?? str(m.external_link),
    animation_url: str(m.animation_url),
    attributes: attrs
      .filter((a): a is Record<string, unknown> => typeof a === 'object' && a !== null)
      .map((a) => ({
        trait_type: str(a.trait_type),
        value: a.value ?? null,
        display_type: str(a.display_type),
        max_value: typeof a.max_value === 'number' ? a.max_value : null,
        trait_count: null,
        order: null,
      })),
  };
}

const IMAGE_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', svg: 'image/svg+xml', avif: 'image/avif' };

/**
 * Media without a preview service (no thumbnails: `media_collection` is null). `status`:
 * - `success`: the metadata names an image the page can load (data:image, http(s), ipfs://, ar://);
 *   `original_media_url` is it, `mimetype` comes from a data: URI or the file extension;
 * - `invalid_url`: the image is something else (`javascript:`, `file:`, ...);
 * - `unsupported_media`: the metadata has no image;
 * - `processing`: the metadata is off chain and not fetched yet;
 * - `host_unavailable`: fetching the metadata failed (the reason is kept per token; docs/evm-node.md).
 */
export function mediaFor(image: string | null, fetch: TokenMeta['fetch'] = null): NftMedia {
  let status: string;
  let mimetype: string | null = null;
  if (!image) {
    status = fetch?.status === 'pending' ? 'processing' : fetch?.status === 'failed' ? 'host_unavailable' : 'unsupported_media';
  } else if (/^data:/i.test(image)) {
    mimetype = image.slice(5, image.search(/[;,]/)).toLowerCase() || null;
    status = mimetype?.startsWith('image/') ? 'success' : 'invalid_url';
  } else if (/^(https?|ipfs|ar):\/\//i.test(image)) {
    status = 'success';
    const ext = /\.([a-z0-9]{3,4})(?:[?#]|$)/i.exec(image)?.[1]?.toLowerCase();
    mimetype = (ext && IMAGE_TYPES[ext]) || null;
  } else {
    status = 'invalid_url';
  }
  return {
    status,
    mimetype,
    category: image ? 'image' : null,
    original_media_url: image,
    updatedAt: null,
    parent_hash: null,
    media_collection: null,
  };
}
