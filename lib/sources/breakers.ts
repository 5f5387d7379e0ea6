import 'server-only';
import { http, ResponseBodyTooLargeError, type HttpTransportConfig } from 'viem';
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
 * retries timeouts too, which would hold a request for several timeouts).
 */
export function rpcTransport(url: string, breaker: CircuitBreaker, opts: Pick<HttpTransportConfig, 'batch'> = {}) {
  const fetchFn = breakerFetch(breaker);
  return http(url, {
    ...opts,
    timeout: config().upstreamTimeoutMs,
    retryCount: 0,
    // viem's own reading (a streaming TextDecoder) is skipped for the answer's text(), already in memory
    // (breaker.ts ReadResponse); its size limit is kept here.
    maxResponseBodySize: false,
    fetchFn: async (input, init) => {
      const res = await fetchFn(input, init);
      const size = res instanceof ReadResponse ? res.size : 0;
      if (size > RPC_MAX_BODY_BYTES) throw new ResponseBodyTooLargeError({ maxSize: RPC_MAX_BODY_BYTES, size });
      return res;
    },
  });
}

/** The largest node answer read, as viem's default. */
const RPC_MAX_BODY_BYTES = 10 * 1024 * 1024;

/** Every upstream's breaker this process has met, as health reports them. */
export function breakerSnapshots(): BreakerSnapshot[] {
  return [...(g.__lanternBreakers?.entries() ?? [])].map(([source, s]) => breaker(source, s.label, s.upstream).snapshot());
}
