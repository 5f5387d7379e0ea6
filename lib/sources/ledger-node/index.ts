import 'server-only';
import { config } from '@/lib/config';
import { LanternError } from '@/lib/errors';
import { blockSchema, ledgerErrorBodySchema, type LedgerBlock, type LedgerNetworkName } from '@/lib/interface/ledger';
import { describeZodError } from '@/lib/interface/zod-errors';
import { asBreakerOpen, exchange, type CircuitBreaker } from '@/lib/sources/breaker';
import { ledgerNodeBreaker } from '@/lib/sources/breakers';
import { beyondHead, pruned } from '@/lib/sources/ledger-errors';
import type { LedgerBlockSource } from '@/lib/sources/types';

/**
 * The ledger block source over a ledger REST node (`{ledgerUrl}/blocks/by_version/{v}`). Every failure
 * becomes a LanternError the page and the API explain the same way:
 *   404 -> 404 version_not_found / block_not_found (beyond the ledger's head)
 *   410, or a 5xx whose message says "pruned" -> 410 block_pruned
 *   400 -> 400 upstream_bad_request; 429 -> 503 upstream_rate_limited
 *   refused / reset -> 502 upstream_unavailable; no answer in UPSTREAM_TIMEOUT_MS -> 504 upstream_timeout
 *   the node's breaker is open (it timed out or failed in a row) -> 503 at once, with Retry-After
 */
export function nodeLedger(network: LedgerNetworkName): LedgerBlockSource {
  return {
    blockByVersion: (version, withTransactions) => fetchFromNode(network, version, withTransactions),
    assertAvailable: () => {
      const url = config().ledgerUrls[network];
      ledgerNodeBreaker(network, url).assertAvailable();
    },
  };
}

async function fetchFromNode(network: LedgerNetworkName, version: string, withTransactions: boolean): Promise<LedgerBlock> {
  const c = config();
  const url = `${c.ledgerUrls[network]}/blocks/by_version/${version}?with_transactions=${withTransactions}`;
  const breaker = ledgerNodeBreaker(network, c.ledgerUrls[network]);
  const source = breaker.source;
  let res: Response;
  try {
    res = await fetchOnceMore(breaker, url, c.upstreamTimeoutMs);
  } catch (e) {
    const open = asBreakerOpen(e);
    if (open) throw open;
    if (isTimeout(e)) {
      throw new LanternError(504, 'upstream_timeout', `The ${network} ledger node did not answer within ${c.upstreamTimeoutMs / 1000} s.`, { source });
    }
    throw new LanternError(
      502,
      'upstream_unavailable',
      network === 'local'
        ? 'The local ledger is not running or not reachable. Start it with `npm run devnet` (or `npm run dev`), then retry.'
        : `The ${network} ledger node could not be reached.`,
      { source },
    );
  }

  if (res.ok) {
    let json: unknown;
    try {
      json = await res.json();
    } catch {
      throw new LanternError(502, 'upstream_bad_response', `The ${network} ledger node sent a response that is not valid JSON.`, { source });
    }
    const parsed = blockSchema.safeParse(json);
    if (!parsed.success) {
      throw new LanternError(502, 'upstream_bad_response', `The ${network} ledger node sent an unexpected block: ${describeZodError(parsed.error)}`, { source });
    }
    return parsed.data;
  }

  const body = await readError(res);
  const head = res.headers.get('x-aptos-ledger-version') ?? undefined;
  const oldest = res.headers.get('x-aptos-ledger-oldest-version') ?? undefined;
  switch (true) {
    case res.status === 404:
      throw beyondHead(network, version, body.code === 'block_not_found' ? 'block_not_found' : 'version_not_found', head);
    case res.status === 410 || (res.status >= 500 && /pruned/i.test(body.message)):
      throw pruned(network, version, oldest);
    case res.status === 400:
      throw new LanternError(400, 'upstream_bad_request', body.message || `The ${network} ledger node refused the request as invalid.`);
    case res.status === 429: {
      const retryAfter = Number(res.headers.get('retry-after'));
      throw new LanternError(503, 'upstream_rate_limited', `The ${network} ledger node is rate limiting this server; try again shortly.`, {
        retryAfter: Number.isFinite(retryAfter) && retryAfter > 0 ? Math.ceil(retryAfter) : 1,
      });
    }
    default:
      throw new LanternError(502, 'upstream_unavailable', `The ${network} ledger node failed (HTTP ${res.status}).`, { source });
  }
}

/**
 * One retry on a refused or reset connection (not on a timeout, nor once the breaker is open): nodes
 * behind load balancers drop idle sockets. Each attempt, its body included, is one call of the node's
 * breaker and is over within the timeout.
 */
async function fetchOnceMore(breaker: CircuitBreaker, url: string, timeoutMs: number): Promise<Response> {
  // Both attempts within one budget; the breaker counts them as one request (keyed by its URL).
  const deadline = performance.now() + timeoutMs;
  const attempt = () =>
    exchange(breaker, url, { headers: { Accept: 'application/json' }, signal: AbortSignal.timeout(Math.max(1, Math.round(deadline - performance.now()))), cache: 'no-store' }, url);
  try {
    return await attempt();
  } catch (e) {
    if (isTimeout(e) || asBreakerOpen(e)) throw e;
    const wait = 100 + Math.random() * 150;
    if (deadline - performance.now() - wait < Math.min(500, timeoutMs / 4)) throw e;
    await new Promise((r) => setTimeout(r, wait));
    return attempt();
  }
}

async function readError(res: Response): Promise<{ message: string; code?: string }> {
  try {
    const parsed = ledgerErrorBodySchema.safeParse(JSON.parse((await res.text()).slice(0, 4000)));
    if (!parsed.success) return { message: '' };
    const m = parsed.data.message;
    return { message: (Array.isArray(m) ? m.join(', ') : m).slice(0, 500), code: parsed.data.error_code ?? parsed.data.code };
  } catch {
    return { message: '' };
  }
}

function isTimeout(e: unknown): boolean {
  return (e as { name?: string })?.name === 'TimeoutError';
}
