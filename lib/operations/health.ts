import 'server-only';
import { redis } from '@/lib/cache/redis';
import { config } from '@/lib/config';
import { db } from '@/lib/db';
import { describeSources } from './sources';

/**
 * What a load balancer and an operator need: is the database up (the instance is useless without it:
 * `ok`), and can each source be reached right now. Sources are probed with short timeouts and the
 * answer is kept a few seconds, so a burst of health checks never becomes a burst upstream.
 * Probes name hosts only: URLs may carry keys.
 */
type Probe = { ok: boolean; ms?: number; error?: string };

let last: { at: number; value: Awaited<ReturnType<typeof probeSources>> } | undefined;

export async function health() {
  const c = config();
  const database = await timed(async () => {
    const d = await db();
    await d.query('SELECT 1');
    return d.kind;
  });
  const cache = c.redisUrl
    ? await timed(async () => {
        const r = await redis();
        if (!r) throw new Error('not configured');
        await r.ping();
      })
    : undefined;
  if (!last || Date.now() - last.at > 5000) last = { at: Date.now(), value: await probeSources() };
  return { ok: database.ok, mode: c.mode, database, ...(cache ? { redis: cache } : {}), sources: last.value };
}

async function probeSources() {
  const c = config();
  const probes: Record<string, Promise<Probe>> = {};
  if (c.mode === 'node') {
    probes.evm_node = timed(() => rpc(c.evmRpcUrl));
  } else {
    probes.data_api = timed(() => reach(c.dataApiUrl));
    probes.auth_api = timed(() => reach(c.authApiUrl));
  }
  probes.ledger_local = timed(() => reach(c.ledgerUrls.local));
  const entries = await Promise.all(Object.entries(probes).map(async ([k, p]) => [k, await p] as const));
  return { ...Object.fromEntries(entries), describe: describeSources() };
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

/** Any HTTP answer means reachable: health does not spend the hosted API's quota or need its key. */
async function reach(url: string) {
  const res = await fetch(url, { method: 'GET', signal: AbortSignal.timeout(1500), cache: 'no-store' });
  await res.body?.cancel();
}

async function rpc(url: string) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}',
    signal: AbortSignal.timeout(1500),
    cache: 'no-store',
  });
  const body = (await res.json()) as { result?: string };
  if (!body.result) throw new Error('no chain id');
}
