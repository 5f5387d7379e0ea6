import 'server-only';
import { config } from '@/lib/config';
import { db } from '@/lib/db';
import { log } from '@/lib/log';
import { HostGate } from '@/lib/security/host-gate';
import { OutboundRefused, fetchPublicJson, type RefusalReason } from '@/lib/security/outbound';
import { resolveMediaUrl } from '@/lib/view/nft-media';

/**
 * Off-chain NFT metadata, fetched by the background NFT job and never in the request path (except
 * an explicit, bounded, rate-limited resync). `ipfs://` and `ar://` go through the configured
 * gateways; every URL goes through lib/security/outbound (public addresses only, checked per
 * connection and redirect). Results and failures (reason, detail, retry time) are kept in
 * evm_nft_metadata_fetch (migration 300); successful JSON lands in evm_nft_token.metadata.
 */

export const METADATA_MAX_BYTES = 256 * 1024;
export const METADATA_TIMEOUT_MS = 5_000;
export const METADATA_MAX_REDIRECTS = 3;
/** Per host (every hop's, redirects included): at most this many requests at once, and one start per interval (5 a second). */
const PER_HOST_CONCURRENCY = 2;
const PER_HOST_INTERVAL_MS = 200;
/** Tokens one pass fetches at once (over all hosts). */
const PASS_CONCURRENCY = 4;
const PASS_BATCH = 200;
/** A claim ('fetching') is taken over after this long: its instance died mid-fetch. */
const CLAIM_SECONDS = 120;

/** The URL a token URI's metadata is fetched from, or null when it is on chain (data:) or absent. */
export function metadataUrl(tokenUri: string | null): { url: string } | { refused: RefusalReason } | null {
  if (!tokenUri) return null;
  const uri = tokenUri.trim();
  if (/^data:/i.test(uri)) return null;
  const url = resolveMediaUrl(uri, { ipfs: config().ipfsGateway, arweave: config().arweaveGateway });
  if (!url || url.startsWith('data:')) return { refused: /^[a-z][a-z0-9+.-]*:/i.test(uri) && !/^https?:/i.test(uri) ? 'scheme_not_allowed' : 'invalid_url' };
  return { url };
}

// --- per-host gate -------------------------------------------------------------------------------

/** Every hop of every fetch (a redirect's target too) under its own host's limit. */
const gate = new HostGate({ concurrency: PER_HOST_CONCURRENCY, intervalMs: PER_HOST_INTERVAL_MS });

// --- one token -------------------------------------------------------------------------------------

/** When a failed fetch is tried again: policy refusals rarely change, network trouble often does. */
function retryDelaySeconds(reason: RefusalReason, attempts: number, httpStatus?: number): number {
  const day = 86_400;
  switch (reason) {
    case 'address_not_public':
    case 'scheme_not_allowed':
    case 'credentials_in_url':
    case 'invalid_url':
    case 'too_large':
    case 'not_json':
    case 'too_many_redirects':
    case 'bad_redirect':
      return day;
    case 'http_status':
      if (httpStatus === 404 || httpStatus === 410) return 6 * 3600;
      break;
    default:
      break;
  }
  return Math.min(day, 600 * 2 ** Math.min(attempts, 8)); // 10 min, 20 min, ... a day
}

export interface FetchOutcome {
  status: 'ok' | 'failed' | 'onchain' | 'claimed_elsewhere';
  reason?: RefusalReason;
  detail?: string;
}

/**
 * Fetches one token's metadata now and keeps the outcome. Claims the token first (an atomic upsert
 * that only one caller wins while a claim is fresh); `force` takes it regardless (resync).
 */
export async function fetchTokenMetadata(chainId: number, contract: string, tokenId: string, tokenUri: string | null, force = false): Promise<FetchOutcome> {
  const target = metadataUrl(tokenUri);
  if (target === null) return { status: 'onchain' };
  const d = await db();
  const url = 'url' in target ? target.url : (tokenUri ?? '').slice(0, 2048);
  const claimed = await d.query<{ attempts: number }>(
    `INSERT INTO evm_nft_metadata_fetch (chain_id, token_address, token_id, url, status, retry_at)
     VALUES ($1, $2, $3::numeric, $4, 'fetching', now() + interval '${CLAIM_SECONDS} seconds')
     ON CONFLICT (chain_id, token_address, token_id) DO UPDATE SET status = 'fetching', url = EXCLUDED.url, retry_at = EXCLUDED.retry_at
     WHERE evm_nft_metadata_fetch.retry_at <= now() OR $5::boolean
     RETURNING attempts`,
    [chainId, contract, tokenId, url, force],
  );
  if (claimed.rows.length === 0) return { status: 'claimed_elsewhere' };
  const attempts = claimed.rows[0].attempts;
  let outcome: FetchOutcome;
  if ('refused' in target) {
    outcome = { status: 'failed', reason: target.refused, detail: 'the token URI is not an http(s), ipfs:// or ar:// URL' };
    await fail(chainId, contract, tokenId, outcome, retryDelaySeconds(target.refused, attempts));
    return outcome;
  }
  const c = config();
  try {
    const { json } = await fetchPublicJson(target.url, {
      allowHosts: c.nftMetadataAllowHosts,
      maxBytes: METADATA_MAX_BYTES,
      timeoutMs: METADATA_TIMEOUT_MS,
      maxRedirects: METADATA_MAX_REDIRECTS,
      gate,
    });
    await d.transaction(async (tx) => {
      await tx.query(`UPDATE evm_nft_token SET metadata = $4 WHERE chain_id = $1 AND token_address = $2 AND token_id = $3::numeric`, [
        chainId,
        contract,
        tokenId,
        JSON.stringify(json),
      ]);
      await tx.query(
        `UPDATE evm_nft_metadata_fetch SET status = 'ok', reason = NULL, detail = NULL, attempts = 0, fetched_at = now(), ok_at = now(), retry_at = now()
         WHERE chain_id = $1 AND token_address = $2 AND token_id = $3::numeric`,
        [chainId, contract, tokenId],
      );
    });
    return { status: 'ok' };
  } catch (e) {
    const r = e instanceof OutboundRefused ? e : new OutboundRefused('network_error', 'fetch failed');
    if (!(e instanceof OutboundRefused)) log().warn({ err: e }, 'NFT metadata fetch failed unexpectedly');
    outcome = { status: 'failed', reason: r.reason, detail: r.message.slice(0, 300) };
    await fail(chainId, contract, tokenId, outcome, retryDelaySeconds(r.reason, attempts, r.httpStatus));
    return outcome;
  }
}

async function fail(chainId: number, contract: string, tokenId: string, o: FetchOutcome, delay: number) {
  const d = await db();
  await d.query(
    `UPDATE evm_nft_metadata_fetch SET status = 'failed', reason = $4, detail = $5, attempts = attempts + 1, fetched_at = now(),
       retry_at = now() + make_interval(secs => $6)
     WHERE chain_id = $1 AND token_address = $2 AND token_id = $3::numeric`,
    [chainId, contract, tokenId, o.reason, o.detail ?? null, delay],
  );
}

// --- background passes -------------------------------------------------------------------------

const passes = new Map<string, Promise<void>>();
const lastPass = new Map<string, number>();
const PASS_EVERY_MS = 15_000;

/**
 * Starts (in the background, never awaited by a request) a pass over the owner's held tokens whose
 * metadata is off chain and due: never fetched, or failed with its retry time passed.
 * `soon` skips the throttle (right after the indexing job read new token URIs).
 */
export function scheduleMetadataFetch(chainId: number, owner: string, soon = false): void {
  const key = `${chainId}:${owner}`;
  if (passes.has(key)) return;
  if (!soon && Date.now() - (lastPass.get(key) ?? 0) < PASS_EVERY_MS) return;
  lastPass.set(key, Date.now());
  if (lastPass.size > 10_000) lastPass.clear();
  const pass = runPass(chainId, owner)
    .catch((e) => log().warn({ err: e }, 'NFT metadata pass failed'))
    .finally(() => passes.delete(key));
  passes.set(key, pass);
}

/** Tests and resync: the pass running for an owner, if any. */
export function metadataPass(chainId: number, owner: string): Promise<void> | undefined {
  return passes.get(`${chainId}:${owner}`);
}

async function runPass(chainId: number, owner: string): Promise<void> {
  const d = await db();
  for (;;) {
    const { rows } = await d.query<{ token_address: string; token_id: string; token_uri: string }>(
      `SELECT t.token_address, t.token_id::text AS token_id, t.token_uri
       FROM evm_nft_balance b
       JOIN evm_nft_token t ON t.chain_id = b.chain_id AND t.token_address = b.token_address AND t.token_id = b.token_id
       LEFT JOIN evm_nft_metadata_fetch f ON f.chain_id = t.chain_id AND f.token_address = t.token_address AND f.token_id = t.token_id
       WHERE b.chain_id = $1 AND b.owner = $2 AND b.amount > 0 AND t.token_uri IS NOT NULL AND lower(t.token_uri) NOT LIKE 'data:%'
         AND t.metadata IS NULL AND (f.chain_id IS NULL OR (f.status <> 'ok' AND f.retry_at <= now()))
       ORDER BY t.token_address, t.token_id LIMIT ${PASS_BATCH}`,
      [chainId, owner],
    );
    if (rows.length === 0) return;
    let i = 0;
    const worker = async () => {
      while (i < rows.length) {
        const r = rows[i++];
        await fetchTokenMetadata(chainId, r.token_address, r.token_id, r.token_uri);
      }
    };
    await Promise.all(Array.from({ length: PASS_CONCURRENCY }, worker));
    if (rows.length < PASS_BATCH) return;
  }
}
