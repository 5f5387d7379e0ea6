import 'server-only';
import { decodeAbiParameters, encodeFunctionData, parseAbi, type Hex } from 'viem';
import { db } from '@/lib/db';
import type { NftMedia, NormalizedMetadata } from '@/lib/interface/nfts';
import { rpc } from './rpc';

/**
 * NFT token URIs and metadata. `tokenURI(id)` (ERC-721) or `uri(id)` (ERC-1155, with `{id}` replaced
 * by the 64-hex-digit id) is read once with eth_call and kept in evm_nft_token.
 * Metadata is decoded only when it is on chain (`data:application/json` base64, percent-encoded or
 * plain). http(s), ipfs:// and ar:// metadata is NOT fetched, neither in the request path nor in the
 * background: a node-mode Lantern makes no outbound request a wallet's contents can steer; `metadata`
 * stays null and `token_uri` says where it lives (docs/evm-node.md).
 */

const abi = parseAbi(['function tokenURI(uint256) view returns (string)', 'function uri(uint256) view returns (string)']);

export interface TokenMeta {
  tokenUri: string | null;
  metadata: string | null;
}

const MAX_METADATA_CHARS = 256 * 1024;

async function readUri(contract: string, tokenId: string, standard: 'erc721' | 'erc1155'): Promise<string | null> {
  const id = BigInt(tokenId);
  const data = encodeFunctionData({ abi, functionName: standard === 'erc721' ? 'tokenURI' : 'uri', args: [id] });
  try {
    const out = await rpc<Hex>('eth_call', [{ to: contract, data }, 'latest']);
    const [s] = decodeAbiParameters([{ type: 'string' }], out);
    const uri = s.trim();
    if (!uri) return null;
    return standard === 'erc1155' ? uri.replaceAll('{id}', id.toString(16).padStart(64, '0')) : uri;
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
  const { rows } = await d.query<{ token_address: string; token_id: string; token_uri: string | null; metadata: string | null }>(
    `SELECT token_address, token_id::text AS token_id, token_uri, metadata FROM evm_nft_token
     WHERE chain_id = $1 AND (token_address, token_id) IN (SELECT * FROM unnest($2::text[], $3::numeric[]))`,
    [chainId, tokens.map((t) => t.contract), tokens.map((t) => t.tokenId)],
  );
  for (const r of rows) out.set(key(r.token_address, r.token_id), { tokenUri: r.token_uri, metadata: r.metadata });
  const missing = tokens.filter((t) => !out.has(key(t.contract, t.tokenId)));
  const read = await Promise.all(
    missing.map(async (t) => {
      const tokenUri = await readUri(t.contract, t.tokenId, t.standard);
      return { t, meta: { tokenUri, metadata: decodeDataUri(tokenUri) } };
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

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : typeof v === 'number' ? String(v) : null);

/** The hosted API's normalised metadata: name, description, image, external_link, animation_url, attributes. */
export function normaliseMetadata(metadata: string | null): NormalizedMetadata {
  let m: Record<string, unknown> = {};
  try {
    if (metadata) m = JSON.parse(metadata);
  } catch {
    m = {};
  }
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

/**
 * Media without a preview service: the original URL and its category. `status` is `success` for
 * on-chain (data:) images, which need no fetch, and `unsupported_media` when there is no image; remote
 * images are `host_unavailable` (Lantern does not proxy or resize them; pages load them through the
 * configured gateway).
 */
export function mediaFor(image: string | null): NftMedia {
  const mimetype = image?.startsWith('data:') ? image.slice(5, image.search(/[;,]/)) || null : null;
  return {
    status: !image ? 'unsupported_media' : image.startsWith('data:image/') ? 'success' : 'host_unavailable',
    mimetype,
    category: image ? 'image' : null,
    original_media_url: image,
    updatedAt: null,
    parent_hash: null,
    media_collection: null,
  };
}
