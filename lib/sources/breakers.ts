import 'server-only';
import { createTransport, http, ResponseBodyTooLargeError, RpcRequestError, type EIP1193RequestFn, type Transport } from 'viem';
import { getHttpRpcClient } from 'viem/utils';
import { config } from '@/lib/config';
import { log } from '@/lib/log';
import { CircuitBreaker, ReadResponse, breakerFetch, newBreakerData, type BreakerData, type BreakerSnapshot } from './breaker';

/** The hosted API's services, each at its own base URL (DATA_API_URL, AUTH_API_URL, LEDGER_API_URL_*). */
export type HostedService = 'data' | 'auth' | 'ledger-mainnet' | 'ledger-testnet';

/**
 * The process's breakers, one per upstream. Their state lives on globalThis so every route bundle (the
 * API, the pages, /api/health) shares it; each bundle wraps it in its own CircuitBreaker, so the errors
 * it throws are instances of that bundle's LanternError. Per process: each instance learns on its own
 * that an upstream is down.
 */
const g = globalThis as unknown as { __lanternBreakers?: Map<string, { data: BreakerData; label: string; upstream: string }> };
const local = new Map<string, CircuitBreaker>();

/** The host of a URL, never the rest (paths and user-info may carry keys). */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'unknown host';
  }
}

function breaker(source: string, label: string, upstream: string): CircuitBreaker {
  let b = local.get(source);
  if (b) return b;
  g.__lanternBreakers ??= new Map();
  let shared = g.__lanternBreakers.get(source);
  if (!shared) {
    shared = { data: newBreakerData(Date.now()), label, upstream };
    g.__lanternBreakers.set(source, shared);
  }
  const c = config();
  b = new CircuitBreaker(
    source,
    label,
    upstream,
    {
      failureThreshold: c.upstreamBreakerFailures,
      coolDownMs: c.upstreamProbeIntervalMs,
      probeTimeoutMs: c.upstreamTimeoutMs,
      onChange: ({ from, to, reason }) => log().info({ source, upstream, from, to, reason }, `upstream breaker ${to}`),
    },
    shared.data,
  );
  local.set(source, b);
  return b;
}

/** The EVM JSON-RPC node of `chain` at `url`: one breaker per chain, named `evm-node:<chain>:<host>`. */
export function evmNodeBreaker(chain: { name: string; label: string }, url: string) {
  const host = hostOf(url);
  return breaker(`evm-node:${chain.name}:${host}`, `The ${chain.label} node (${host})`, host);
}

/** The ledger REST node of `network` at `url`. */
export function ledgerNodeBreaker(network: string, url: string) {
  const host = hostOf(url);
  return breaker(`ledger-node:${network}:${host}`, `The ${network} ledger node (${host})`, host);
}

const HOSTED_LABELS: Record<HostedService, string> = {
  data: 'The data provider',
  auth: "The data provider's sign-in API",
  'ledger-mainnet': 'The mainnet ledger API',
  'ledger-testnet': 'The testnet ledger API',
};

/**
 * One hosted service (data, auth, each hosted ledger network) at `url`. Per service, not per host: one
 * network's node being down upstream (a 503 from that path) must not stop sign-in or wallet pages that
 * the same host still serves.
 */
export function hostedBreaker(service: HostedService, url: string) {
  const host = hostOf(url);
  return breaker(`hosted:${service}:${host}`, `${HOSTED_LABELS[service]} (${host})`, host);
}

/** The ENS mainnet node. */
export function ensBreaker(url: string) {
  const host = hostOf(url);
  return breaker(`ens-node:${host}`, `The ENS node (${host})`, host);
}

/**
 * viem's HTTP transport to a JSON-RPC node through its breaker, the one way Lantern's viem clients
 * reach a node (the EVM node, the ENS node, sign-in's contract-wallet checks): UPSTREAM_TIMEOUT_MS,
 * each exchange whole (body included) one call of the breaker, and none of viem's own retries (it
 * retries timeouts too, which would hold a request for several timeouts). `batch`: calls made in one
 * turn of the event loop travel in one JSON-RPC batch (batchedTransport below).
 */
export function rpcTransport(url: string, breaker: CircuitBreaker, opts: { batch?: { batchSize: number } } = {}): Transport {
  const fetchFn = nodeFetch(breaker);
  const timeout = config().upstreamTimeoutMs;
  if (opts.batch) return batchedTransport(url, fetchFn, timeout, opts.batch.batchSize);
  // viem's own reading (a streaming TextDecoder) is skipped for the answer's text(), already in memory
  // (breaker.ts ReadResponse); its size limit is kept by nodeFetch.
  return http(url, { timeout, retryCount: 0, maxResponseBodySize: false, fetchFn });
}

/** The breaker's fetch, refusing an answer over viem's size limit (read in memory by then). */
function nodeFetch(breaker: CircuitBreaker): typeof fetch {
  const fetchFn = breakerFetch(breaker);
  return async (input, init) => {
    const res = await fetchFn(input, init);
    const size = res instanceof ReadResponse ? res.size : 0;
    if (size > RPC_MAX_BODY_BYTES) throw new ResponseBodyTooLargeError({ maxSize: RPC_MAX_BODY_BYTES, size });
    return res;
  };
}

interface RpcAnswer {
  id?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}
interface Queued {
  body: { id: number; method: string; params?: unknown };
  resolve: (a: RpcAnswer) => void;
  reject: (e: unknown) => void;
}

/**
 * A JSON-RPC transport whose calls, per abort signal (rpc.ts gives each lane one), are gathered while the
 * event loop's turn lasts and sent as one batch at setImmediate, at most `batchSize` a request. viem's
 * own batching sends at setTimeout(0), which Node runs no sooner than 1 ms later: each batched round trip
 * to the node waited that long, twice in a never-seen wallet's tokens answer. The HTTP exchange and its
 * errors are viem's (getHttpRpcClient, through the breaker); each answer is matched to its call by id,
 * whatever order the node answers in.
 */
function batchedTransport(url: string, fetchFn: typeof fetch, timeout: number, batchSize: number): Transport {
  const client = getHttpRpcClient(url, { fetchFn, timeout, maxResponseBodySize: false });
  const queues = new Map<AbortSignal | undefined, Queued[]>();
  let nextId = 0;
  const send = (signal: AbortSignal | undefined) => {
    const calls = queues.get(signal);
    if (!calls) return;
    queues.delete(signal);
    client.request({ body: calls.map((c) => c.body), fetchOptions: signal ? { signal } : undefined }).then(
      (answer: unknown) => {
        const byId = new Map<unknown, RpcAnswer>();
        if (Array.isArray(answer)) for (const a of answer as RpcAnswer[]) if (a && typeof a === 'object') byId.set(a.id, a);
        // A node refusing the batch as a whole answers one error object: each call gets that error.
        const whole = !Array.isArray(answer) && (answer as RpcAnswer | null)?.error ? (answer as RpcAnswer) : undefined;
        for (const c of calls) {
          const a = byId.get(c.body.id) ?? whole;
          if (a) c.resolve(a);
          else c.reject(new RpcRequestError({ body: c.body, error: { code: -32603, message: 'the node answered the batch without an answer to this call' }, url }));
        }
      },
      (e: unknown) => {
        for (const c of calls) c.reject(e);
      },
    );
  };
  return () =>
    createTransport({
      key: 'http',
      name: 'HTTP JSON-RPC',
      type: 'http',
      retryCount: 0,
      timeout,
      // Typed as viem types every transport's request: its result is whatever the method returns.
      request: (async ({ method, params }: { method: string; params?: unknown }, options?: { signal?: AbortSignal }) => {
        const signal = options?.signal;
        const body = { id: nextId++, method, params };
        const answer = await new Promise<RpcAnswer>((resolve, reject) => {
          let calls = queues.get(signal);
          if (!calls) {
            queues.set(signal, (calls = []));
            setImmediate(send, signal);
          }
          calls.push({ body, resolve, reject });
          if (calls.length >= batchSize) send(signal);
        });
        if (answer.error) throw new RpcRequestError({ body, error: answer.error, url });
        return answer.result;
      }) as EIP1193RequestFn,
    });
}

/** The largest node answer read, as viem's default. */
const RPC_MAX_BODY_BYTES = 10 * 1024 * 1024;

/** Every upstream's breaker this process has met, as health reports them. */
export function breakerSnapshots(): BreakerSnapshot[] {
  return [...(g.__lanternBreakers?.entries() ?? [])].map(([source, s]) => breaker(source, s.label, s.upstream).snapshot());
}
