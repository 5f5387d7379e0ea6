import 'server-only';
import { toEventSelector, toFunctionSelector, type Abi, type AbiEvent, type AbiFunction } from 'viem';
import { config } from '@/lib/config';
import { db } from '@/lib/db';
import { log } from '@/lib/log';
import { HostGate } from '@/lib/security/host-gate';
import { OutboundRefused, fetchPublicJson, type RefusalReason } from '@/lib/security/outbound';
import { onChainChange } from './chain';

/**
 * The two optional online sources of names, both off by default and both asked in the background only
 * (a request reads what is kept and, for what is not, starts a fetch and says `pending`):
 *
 * - verified ABIs from a Sourcify-compatible server (`SOURCIFY_URL`): `GET {url}/v2/contract/{chainId}/
 *   {address}?fields=abi`, kept per chain and address in evm_verified_abi;
 * - text signatures from an OpenChain-compatible signature database (`SIGNATURE_LOOKUP_URL`):
 *   `GET {url}/signature-database/v1/lookup?function=...&event=...`, kept per selector or topic in
 *   evm_signature_lookup.
 *
 * Under the outbound rules of the NFT metadata fetcher (lib/security/outbound.ts): http(s) only, public
 * addresses only (checked per connection and per redirect), 3 redirects, 5 s, a size limit, per-host
 * limits. The configured server's own host is allowed whatever its address (the operator chose it, as
 * NFT_METADATA_ALLOW_HOSTS entries are); where it redirects is not.
 */

const TIMEOUT_MS = 5_000;
const MAX_REDIRECTS = 3;
const ABI_MAX_BYTES = 2 * 1024 * 1024;
const LOOKUP_MAX_BYTES = 512 * 1024;
const CLAIM_SECONDS = 120;
/** Hashes asked in one lookup request. */
const LOOKUP_BATCH = 20;
const gate = new HostGate({ concurrency: 2, intervalMs: 200 });

function allowHosts(serverUrl: string): string[] {
  const u = new URL(serverUrl);
  return [...config().nftMetadataAllowHosts, `${u.hostname.replace(/^\[|\]$/g, '')}:${u.port || (u.protocol === 'https:' ? '443' : '80')}`];
}

/** Not found: asked again after a day. Refusals and bad answers: a day. Network trouble: 10 minutes, doubling. */
function retrySeconds(reason: RefusalReason | 'not_found' | 'bad_answer', attempts: number): number {
  const day = 86_400;
  if (reason === 'timeout' || reason === 'network_error' || reason === 'dns_failed' || reason === 'http_status') return Math.min(day, 600 * 2 ** Math.min(attempts, 8));
  return day;
}

// --- verified ABIs ------------------------------------------------------------------------------

export interface VerifiedAbi {
  abi: Abi | null;
  /** A fetch is due or running: a later answer may name more. */
  pending: boolean;
}

const verifiedMemory = new Map<string, { abi: Abi | null; until: number }>();
const verifying = new Set<string>();
onChainChange((chainId) => {
  for (const k of verifiedMemory.keys()) if (k.startsWith(`${chainId}:`)) verifiedMemory.delete(k);
});

const INT = new Set(Array.from({ length: 32 }, (_, i) => String((i + 1) * 8)));
/** An ABI parameter whose type is an ABI type (`uint999` and the like are not), tuples checked inside. */
function validParam(p: unknown): boolean {
  if (!p || typeof p !== 'object') return false;
  const { type, components } = p as { type?: unknown; components?: unknown };
  if (typeof type !== 'string') return false;
  const m = /^([a-z]+)(\d*)((\[\d*\])*)$/.exec(type);
  if (!m) return false;
  const [, base, size] = m;
  if (base === 'tuple') return size === '' && Array.isArray(components) && components.every(validParam);
  if (base === 'uint' || base === 'int') return size === '' || INT.has(size);
  if (base === 'bytes') return size === '' || (Number(size) >= 1 && Number(size) <= 32);
  return size === '' && (base === 'address' || base === 'bool' || base === 'string' || base === 'function');
}

/** Keeps only what names things (functions and events) from an ABI someone else wrote; null when none is readable. */
export function readableAbi(raw: unknown): Abi | null {
  if (!Array.isArray(raw)) return null;
  const items = raw.filter(
    (i): i is { type: string; name: string } => !!i && typeof i === 'object' && (i.type === 'function' || i.type === 'event') && typeof i.name === 'string',
  );
  const out: (AbiFunction | AbiEvent)[] = [];
  for (const item of items) {
    try {
      // Each item checked on its own (its selector can be computed): one malformed item costs only itself.
      const abiItem = item as unknown as AbiFunction | AbiEvent;
      if (!Array.isArray(abiItem.inputs) || !abiItem.inputs.every(validParam)) continue;
      if (abiItem.type === 'function') toFunctionSelector(abiItem);
      else toEventSelector(abiItem);
      out.push(abiItem);
    } catch {
      // skipped
    }
  }
  return out.length > 0 ? out : null;
}

/** Verified ABIs of these addresses on this chain, as far as they are known now; starts fetches for the rest. */
export async function verifiedAbis(chainId: number, addresses: string[]): Promise<Map<string, VerifiedAbi>> {
  const out = new Map<string, VerifiedAbi>();
  const url = config().sourcifyUrl;
  if (!url || addresses.length === 0) return out;
  const now = Date.now();
  const misses: string[] = [];
  for (const a of new Set(addresses)) {
    const m = verifiedMemory.get(`${chainId}:${a}`);
    if (m && m.until > now) out.set(a, { abi: m.abi, pending: false });
    else misses.push(a);
  }
  if (misses.length === 0) return out;
  const d = await db();
  const { rows } = await d.query<{ address: string; status: string; abi: string | null; retry_at: Date }>(
    'SELECT address, status, abi, retry_at FROM evm_verified_abi WHERE chain_id = $1 AND address = ANY($2)',
    [chainId, misses],
  );
  const byAddress = new Map(rows.map((r) => [r.address, r]));
  for (const a of misses) {
    const r = byAddress.get(a);
    if (r?.status === 'ok') {
      const abi = readableAbi(JSON.parse(r.abi ?? '[]'));
      verifiedMemory.set(`${chainId}:${a}`, { abi, until: Infinity });
      out.set(a, { abi, pending: false });
      continue;
    }
    const due = !r || new Date(r.retry_at).getTime() <= now;
    if (r && !due && r.status !== 'fetching') verifiedMemory.set(`${chainId}:${a}`, { abi: null, until: new Date(r.retry_at).getTime() });
    out.set(a, { abi: null, pending: due || r?.status === 'fetching' });
    if (due) scheduleVerified(chainId, a);
  }
  return out;
}

function scheduleVerified(chainId: number, address: string): void {
  const key = `${chainId}:${address}`;
  if (verifying.has(key)) return;
  verifying.add(key);
  fetchVerified(chainId, address)
    .catch((e) => log().warn({ err: e }, 'verified ABI fetch failed'))
    .finally(() => verifying.delete(key));
}

/** Fetches one contract's verified ABI now and keeps the outcome (claimed first, as NFT metadata is). */
export async function fetchVerified(chainId: number, address: string): Promise<'ok' | 'none' | 'failed' | 'claimed_elsewhere'> {
  const url = config().sourcifyUrl;
  if (!url) return 'none';
  const d = await db();
  const claimed = await d.query<{ attempts: number }>(
    `INSERT INTO evm_verified_abi (chain_id, address, status, retry_at) VALUES ($1, $2, 'fetching', now() + interval '${CLAIM_SECONDS} seconds')
     ON CONFLICT (chain_id, address) DO UPDATE SET status = 'fetching', retry_at = EXCLUDED.retry_at
     WHERE evm_verified_abi.status <> 'ok' AND evm_verified_abi.retry_at <= now()
     RETURNING attempts`,
    [chainId, address],
  );
  if (claimed.rows.length === 0) return 'claimed_elsewhere';
  const attempts = claimed.rows[0].attempts;
  const settle = async (status: 'ok' | 'none' | 'failed', fields: { abi?: string; match?: string | null; reason?: string; detail?: string }, retry: number) => {
    await d.query(
      `UPDATE evm_verified_abi SET status = $3, abi = $4, match = $5, reason = $6, detail = $7, fetched_at = now(),
         attempts = CASE WHEN $3 = 'failed' THEN attempts + 1 ELSE 0 END, retry_at = now() + make_interval(secs => $8)
       WHERE chain_id = $1 AND address = $2`,
      [chainId, address, status, fields.abi ?? null, fields.match ?? null, fields.reason ?? null, fields.detail?.slice(0, 300) ?? null, retry],
    );
    verifiedMemory.delete(`${chainId}:${address}`);
    return status;
  };
  try {
    const { json } = await fetchPublicJson(`${url}/v2/contract/${chainId}/${address}?fields=abi`, {
      allowHosts: allowHosts(url),
      maxBytes: ABI_MAX_BYTES,
      timeoutMs: TIMEOUT_MS,
      maxRedirects: MAX_REDIRECTS,
      gate,
    });
    const abi = readableAbi(json.abi);
    if (!abi) return await settle('failed', { reason: 'bad_answer', detail: 'the answer holds no ABI' }, retrySeconds('bad_answer', attempts));
    return await settle('ok', { abi: JSON.stringify(abi), match: typeof json.match === 'string' ? json.match : null }, 0);
  } catch (e) {
    const r = e instanceof OutboundRefused ? e : new OutboundRefused('network_error', 'fetch failed');
    if (r.reason === 'http_status' && r.httpStatus === 404) return settle('none', {}, retrySeconds('not_found', attempts));
    return settle('failed', { reason: r.reason, detail: r.message }, retrySeconds(r.reason, attempts));
  }
}

/** Tests: wait for every verified-ABI fetch this process started. */
export function verifiedFetchesRunning(): number {
  return verifying.size;
}

// --- signature lookups -------------------------------------------------------------------------

export type SignatureKind = 'function' | 'event';

export interface LookedUp {
  signatures: string[];
  pending: boolean;
}

const lookupMemory = new Map<string, { signatures: string[]; until: number }>();
const lookupQueue = new Map<string, { kind: SignatureKind; hash: string }>();
let lookupRun: Promise<void> | null = null;

/** What the signature database said for these selectors or topics, as far as it is known; starts lookups for the rest. */
export async function lookedUpSignatures(kind: SignatureKind, hashes: string[]): Promise<Map<string, LookedUp>> {
  const out = new Map<string, LookedUp>();
  if (!config().signatureLookupUrl || hashes.length === 0) return out;
  const now = Date.now();
  const misses: string[] = [];
  for (const h of new Set(hashes.map((x) => x.toLowerCase()))) {
    const m = lookupMemory.get(`${kind}:${h}`);
    if (m && m.until > now) out.set(h, { signatures: m.signatures, pending: false });
    else misses.push(h);
  }
  if (misses.length === 0) return out;
  const d = await db();
  const { rows } = await d.query<{ hash: string; status: string; signatures: string | null; retry_at: Date }>(
    'SELECT hash, status, signatures, retry_at FROM evm_signature_lookup WHERE kind = $1 AND hash = ANY($2)',
    [kind, misses],
  );
  const byHash = new Map(rows.map((r) => [r.hash, r]));
  for (const h of misses) {
    const r = byHash.get(h);
    const due = !r || new Date(r.retry_at).getTime() <= now;
    const signatures = r?.status === 'ok' ? (JSON.parse(r.signatures ?? '[]') as string[]) : [];
    // What was found is kept until its retry time (a day): the database may learn more signatures.
    if (r && !due && r.status !== 'fetching') lookupMemory.set(`${kind}:${h}`, { signatures, until: new Date(r.retry_at).getTime() });
    out.set(h, { signatures, pending: due || r?.status === 'fetching' });
    if (due) lookupQueue.set(`${kind}:${h}`, { kind, hash: h });
  }
  if (lookupQueue.size > 0 && !lookupRun) {
    lookupRun = drainLookups()
      .catch((e) => log().warn({ err: e }, 'signature lookup failed'))
      .finally(() => {
        lookupRun = null;
      });
  }
  return out;
}

async function drainLookups(): Promise<void> {
  while (lookupQueue.size > 0) {
    const batch = [...lookupQueue.values()].slice(0, LOOKUP_BATCH);
    for (const b of batch) lookupQueue.delete(`${b.kind}:${b.hash}`);
    await lookupBatch(batch);
  }
}

async function lookupBatch(batch: { kind: SignatureKind; hash: string }[]): Promise<void> {
  const url = config().signatureLookupUrl;
  if (!url) return;
  const d = await db();
  const claimed: { kind: SignatureKind; hash: string; attempts: number }[] = [];
  for (const b of batch) {
    const r = await d.query<{ attempts: number }>(
      `INSERT INTO evm_signature_lookup (kind, hash, status, retry_at) VALUES ($1, $2, 'fetching', now() + interval '${CLAIM_SECONDS} seconds')
       ON CONFLICT (kind, hash) DO UPDATE SET status = 'fetching', retry_at = EXCLUDED.retry_at WHERE evm_signature_lookup.retry_at <= now()
       RETURNING attempts`,
      [b.kind, b.hash],
    );
    if (r.rows[0]) claimed.push({ ...b, attempts: r.rows[0].attempts });
  }
  if (claimed.length === 0) return;
  const settle = async (b: { kind: SignatureKind; hash: string }, status: 'ok' | 'none' | 'failed', signatures: string[], retry: number, reason?: string, detail?: string) => {
    await d.query(
      `UPDATE evm_signature_lookup SET status = $3, signatures = $4, reason = $5, detail = $6, fetched_at = now(),
         attempts = CASE WHEN $3 = 'failed' THEN attempts + 1 ELSE 0 END, retry_at = now() + make_interval(secs => $7)
       WHERE kind = $1 AND hash = $2`,
      [b.kind, b.hash, status, JSON.stringify(signatures), reason ?? null, detail?.slice(0, 300) ?? null, retry],
    );
    lookupMemory.delete(`${b.kind}:${b.hash}`);
  };
  const q = new URLSearchParams();
  const fns = claimed.filter((b) => b.kind === 'function').map((b) => b.hash);
  const evs = claimed.filter((b) => b.kind === 'event').map((b) => b.hash);
  if (fns.length) q.set('function', fns.join(','));
  if (evs.length) q.set('event', evs.join(','));
  q.set('filter', 'true');
  try {
    const { json } = await fetchPublicJson(`${url}/signature-database/v1/lookup?${q.toString().replace(/%2C/g, ',')}`, {
      allowHosts: allowHosts(url),
      maxBytes: LOOKUP_MAX_BYTES,
      timeoutMs: TIMEOUT_MS,
      maxRedirects: MAX_REDIRECTS,
      gate,
    });
    const result = (json.result ?? {}) as Record<string, Record<string, { name?: unknown }[] | null> | undefined>;
    for (const b of claimed) {
      const list = result[b.kind]?.[b.hash] ?? result[b.kind]?.[b.hash.toLowerCase()] ?? null;
      const signatures = (Array.isArray(list) ? list : [])
        .map((x) => x?.name)
        .filter((n): n is string => typeof n === 'string' && n.length < 1024)
        .slice(0, 20);
      // Found: asked again after a day (the database grows); not found: likewise.
      await settle(b, signatures.length ? 'ok' : 'none', signatures, retrySeconds('not_found', 0));
    }
  } catch (e) {
    const r = e instanceof OutboundRefused ? e : new OutboundRefused('network_error', 'fetch failed');
    for (const b of claimed) await settle(b, 'failed', [], retrySeconds(r.reason, b.attempts), r.reason, r.message);
  }
}

/** Tests: whether lookups are queued or running in this process. */
export function lookupsRunning(): boolean {
  return lookupRun !== null || lookupQueue.size > 0;
}
