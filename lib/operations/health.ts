import 'server-only';
import { redis } from '@/lib/cache/redis';
import { config } from '@/lib/config';
import { db } from '@/lib/db';
import { sources } from '@/lib/sources';
import { asBreakerOpen, errorOutcome, responseOutcome, type CircuitBreaker } from '@/lib/sources/breaker';
import { breakerSnapshots } from '@/lib/sources/breakers';

/**
 * What an operator needs: is the database up (the instance is useless without it: `ok`; the answer
 * is 200 whatever it says, since it is the liveness check: restarting the process mends neither a
 * database nor a source that is down), and can each source be reached right now: each EVM node by its chain (`sources.evm_nodes`), the
 * hosted services, the local ledger; which chains are served and by whom (`chains`). Each source's check goes through its breaker, so it
 * is also the breaker's probe: while a breaker is open the upstream is left alone and the check says so;
 * once its cool-down is over, health's check may be the one probe. Checks wait at most 1.5 s (less when
 * UPSTREAM_TIMEOUT_MS is shorter) and are kept a few seconds, so a burst of health checks never becomes
 * a burst upstream. `breakers` lists every upstream's breaker (closed / open / half-open, since when).
 * Probes name hosts only: URLs may carry keys.
 */
type Probe = { ok: boolean; ms?: number; error?: string };

const CHECK_MS = 1500;
let last: { at: number; value: Promise<Awaited<ReturnType<typeof probeSources>>> } | undefined;

export async function health() {
  const c = config();
  const database = await timed(databaseAnswers);
  const cache = c.redisUrl
    ? await timed(async () => {
        const r = await redis();
        if (!r) throw new Error('not configured');
        await r.ping();
      })
    : undefined;
  // Which transactions wallet histories can hold on each node-read chain, in words (evm-node/capabilities.ts);
  // asked beside the source checks, so health waits for the slower of the two, not their sum.
  const coverage = sources().coverage(Math.min(CHECK_MS, c.upstreamTimeoutMs));
  // Shared while in flight, so concurrent health checks make one round of checks.
  if (!last || Date.now() - last.at > 5000) last = { at: Date.now(), value: probeSources() };
  const probed = await last.value;
  const covered = await coverage;
  const history = Object.keys(covered).length > 0 ? { evm_history: covered } : {};
  const { chains } = await sources().chains();
  const served = chains.map((s) => ({ chain: s.chain.name, chain_id: s.chain.hex, source: s.source, operations: s.operations }));
  return { ok: database.ok, mode: sources().kind, database, ...(cache ? { redis: cache } : {}), sources: probed, chains: served, ...history, breakers: breakerSnapshots() };
}

/**
 * `GET /api/health?ready` once warm (scripts/server.mjs answers while warming up): ready while the
 * database answers, within CHECK_MS, so an orchestrator sends traffic elsewhere while it is down or
 * still opening (every page and API request needs it) and back once it answers.
 */
export async function readiness(): Promise<{ ready: true } | { ready: false; reason: 'database_unavailable'; database: Probe }> {
  const database = await timed(() => within(CHECK_MS, databaseAnswers()));
  return database.ok ? { ready: true } : { ready: false, reason: 'database_unavailable', database };
}

async function databaseAnswers() {
  const d = await db();
  await d.query('SELECT 1');
  return d.kind;
}

/** `p`, or a TimeoutError after `ms` (`p` goes on; its result is dropped). */
function within<T>(ms: number, p: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`no answer within ${ms} ms`), { name: 'TimeoutError' })), ms);
  });
  p.catch(() => undefined); // a late failure is not an unhandled rejection
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

async function probeSources() {
  const s = sources();
  const probes = await s.probes();
  const results = await Promise.all(
    probes.map(async (p) => {
      const result: Probe = p.pending || !p.breaker ? { ok: false, error: p.pending ?? 'not checked' } : await check(p.breaker, (signal) => (p.check === 'rpc' ? rpc(p.url, signal) : reach(p.url, signal)));
      return { p, result: p.about ? { ...result, ...p.about } : result };
    }),
  );
  const evmNodes = Object.fromEntries(results.filter((r) => r.p.group === 'evm_nodes').map((r) => [r.p.name, r.result]));
  const others = Object.fromEntries(results.filter((r) => r.p.group !== 'evm_nodes').map((r) => [r.p.name, r.result]));
  return { ...(Object.keys(evmNodes).length > 0 ? { evm_nodes: evmNodes } : {}), ...others, describe: await s.describe() };
}

/**
 * One source's check, through its breaker, as an ordinary call to the upstream: it may take
 * UPSTREAM_TIMEOUT_MS, and its failure counts towards opening the breaker like any request's (each check
 * a request of its own, so checks of a stalled source open it). Health waits for it at most
 * 1.5 s: a slower check is reported as not answering yet, and goes on and is counted by itself.
 */
async function check(breaker: CircuitBreaker, fn: (signal: AbortSignal) => Promise<Response>): Promise<Probe> {
  const c = config();
  const t = performance.now();
  const call = breaker.run(() => fn(AbortSignal.timeout(c.upstreamTimeoutMs)), { result: responseOutcome, error: errorOutcome }).then(
    (res): Probe => (res.status >= 500 ? { ok: false, error: `HTTP ${res.status}` } : { ok: true, ms: Math.round(performance.now() - t) }),
    (e): Probe => {
      if (asBreakerOpen(e)) return { ok: false, error: 'not answering: breaker open' };
      return { ok: false, error: errorOutcome(e) === 'timeout' ? 'timed out' : 'unreachable' };
    },
  );
  if (c.upstreamTimeoutMs <= CHECK_MS) return call; // over by its own timeout
  let timer: ReturnType<typeof setTimeout> | undefined;
  const slow = new Promise<Probe>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, error: `no answer within ${CHECK_MS / 1000} s` }), CHECK_MS);
  });
  try {
    return await Promise.race([call, slow]);
  } finally {
    clearTimeout(timer);
  }
}

async function timed(fn: () => Promise<unknown>): Promise<Probe & { kind?: string }> {
  const t = performance.now();
  try {
    const out = await fn();
    return { ok: true, ms: Math.round(performance.now() - t), ...(typeof out === 'string' ? { kind: out } : {}) };
  } catch (e) {
    return { ok: false, error: (e as Error).name === 'TimeoutError' ? 'timed out' : 'unreachable' };
  }
}

/** Any HTTP answer below 500 means reachable: health does not spend the hosted API's quota or need its key. */
async function reach(url: string, signal: AbortSignal): Promise<Response> {
  const res = await fetch(url, { method: 'GET', signal, cache: 'no-store' });
  await res.body?.cancel();
  return res;
}

/** The node answers eth_chainId: a JSON-RPC error or a body without a result is a failure (a 502 answer). */
async function rpc(url: string, signal: AbortSignal): Promise<Response> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}',
    signal,
    cache: 'no-store',
  });
  // A body cut off by the timeout is the timeout; any other unreadable body, no chain id.
  const body = (await res.json().catch((e: unknown) => {
    if (errorOutcome(e) === 'timeout') throw e;
    return {};
  })) as { result?: string };
  if (!body.result) throw new Error('no chain id');
  return res;
}
