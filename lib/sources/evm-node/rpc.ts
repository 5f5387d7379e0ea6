import 'server-only';
import { AsyncLocalStorage } from 'node:async_hooks';
import { createPublicClient, type PublicClient } from 'viem';
import { chainById, type Chain } from '@/lib/chains';
import { config } from '@/lib/config';
import { LanternError, badParameter } from '@/lib/errors';
import { BreakerOpenError, asBreakerOpen, type CircuitBreaker } from '@/lib/sources/breaker';
import { evmNodeBreaker, rpcTransport } from '@/lib/sources/breakers';

/**
 * The one way this source talks to the EVM node: viem's public client over HTTP with a timeout, a
 * bounded retry and JSON-RPC batching (calls made in the same tick travel in one HTTP request).
 * Every HTTP request goes through the node's breaker (a batch is one request, so one probe).
 * Errors become LanternErrors that never carry the RPC URL (it often holds a provider key).
 */

export class RpcMethodError extends LanternError {
  constructor(
    readonly method: string,
    readonly rpcCode: number | undefined,
    /** The node's whole message (the public `message` keeps 200 characters): a refusal's hint may be at its end. */
    readonly detail: string,
  ) {
    super(502, 'upstream_bad_response', `The EVM node answered ${method} with an error: ${detail.slice(0, 200)}`, { source: 'evm-node' });
  }
  /** The node does not offer this method (so a fallback may be tried). */
  get unsupported(): boolean {
    return this.rpcCode === -32601 || this.rpcCode === -32004 || /not (found|supported|available)|unsupported|does not exist/i.test(this.message);
  }
  /**
   * The node refused the size of a query (block range or result count), as hosted providers do for
   * eth_getLogs and trace_filter: asking again unchanged cannot succeed, a smaller range can.
   * Wordings: "query returned more than 10000 results" (Infura, Geth-based nodes, -32005), "Log response
   * size exceeded ... this block range should work: [0x1, 0x7d0]" (Alchemy, -32602), "range 5000 exceeds
   * limit of 2000", "block range too large", "exceed maximum block range: 5000", "limited to 300 blocks".
   */
  get sizeRefusal(): boolean {
    return /more than \d+ results|response size|range.{0,40}(too (large|wide|big)|exceed|limit)|exceed.{0,20}(max|limit).{0,20}range|limited to \d+|too many (results|logs|blocks)/i.test(this.message);
  }
}

interface State {
  url: string;
  client: PublicClient;
  /** The same node without batching: used while the breaker is not closed (see rpc). */
  single: PublicClient;
  breaker: CircuitBreaker;
  chainId?: Promise<number>;
  head?: { at: number; value: Promise<HeadInfo> };
  /** The newest head number this instance has read or been told (noteHead never goes below it). */
  headNumber?: number;
}

const g = globalThis as unknown as { __lanternEvmRpc?: State };

function state(): State {
  const c = config();
  if (!g.__lanternEvmRpc || g.__lanternEvmRpc.url !== c.evmRpcUrl) {
    const breaker = evmNodeBreaker(c.evmRpcUrl);
    const client = createPublicClient({ transport: rpcTransport(c.evmRpcUrl, breaker, { batch: { batchSize: 100, wait: 0 } }) });
    const single = createPublicClient({ transport: rpcTransport(c.evmRpcUrl, breaker) });
    g.__lanternEvmRpc = { url: c.evmRpcUrl, client, single, breaker };
  }
  return g.__lanternEvmRpc;
}

/** Set while background work (a wallet's older history) runs: its calls batch among themselves, never with a page's. */
const background = new AsyncLocalStorage<true>();
// viem keeps one batch per URL and abort signal: a signal of its own gives background calls a batch of their own.
const BACKGROUND_BATCH = { signal: new AbortController().signal };

/**
 * Runs `fn` as background work: its node calls are not batched with a page's (a batch is answered as a
 * whole, so a page's quick calls would wait for a background window's slow one).
 */
export function inBackground<T>(fn: () => Promise<T>): Promise<T> {
  return background.run(true, fn);
}

const RETRIES = 2;
/** JSON-RPC codes worth another try: unknown, internal error, limit exceeded, rate limited (429, QuickNode's -32007). */
const TRANSIENT_RPC_CODES = new Set([-1, -32603, -32005, 429, -32007]);

/**
 * One JSON-RPC call; node errors become LanternErrors (5xx: the node is at fault, not the caller).
 * A dropped connection or a transient node error is tried twice more (100, 200 ms apart); a timeout
 * never is, and nothing is once the breaker is open.
 */
export async function rpc<T>(method: string, params: unknown[] = []): Promise<T> {
  const s = state();
  for (let attempt = 0; ; attempt++) {
    try {
      // While the node is suspect, each call travels alone: one of them is the probe and the others fail
      // at once, instead of riding in the probe's batch and waiting out its timeout with it.
      const client = s.breaker.state() === 'closed' ? s.client : s.single;
      return (await client.request({ method, params } as never, background.getStore() ? BACKGROUND_BATCH : undefined)) as T;
    } catch (e) {
      const err = mapError(method, e, s.breaker.source);
      if (err instanceof BreakerOpenError || attempt >= RETRIES || s.breaker.state() !== 'closed') throw err;
      // -32005 is also "query returned more than 10000 results": a refusal is not retried as it was.
      const transient = err.code === 'upstream_unavailable' || (err instanceof RpcMethodError && TRANSIENT_RPC_CODES.has(err.rpcCode ?? 0) && !err.sizeRefusal);
      if (!transient) throw err;
      await new Promise((r) => setTimeout(r, 100 * 2 ** attempt));
    }
  }
}

function mapError(method: string, e: unknown, source: string): LanternError {
  if (e instanceof LanternError) return e;
  const err = e as { name?: string; code?: number; shortMessage?: string; details?: string; cause?: unknown };
  // viem wraps: walk the cause chain to the first error that says what happened.
  let cur: typeof err | undefined = err;
  for (let i = 0; cur && i < 6; i++) {
    // The breaker's own answer (thrown inside fetch) passes through: it names the node.
    const open = asBreakerOpen(cur);
    if (open) return open;
    if (cur.name === 'TimeoutError') return new LanternError(504, 'upstream_timeout', `The EVM node did not answer ${method} in time.`, { source });
    if (cur.name === 'HttpRequestError' && !asBreakerOpen(cur.cause)) {
      return new LanternError(503, 'upstream_unavailable', `The EVM node could not be reached (${method}).`, { retryAfter: 5, source });
    }
    if (typeof cur.code === 'number' && cur.code < 0) return new RpcMethodError(method, cur.code, cur.details ?? cur.shortMessage ?? 'error');
    cur = cur.cause as typeof err | undefined;
  }
  return new RpcMethodError(method, undefined, err.details ?? err.shortMessage ?? 'error');
}

export const hexNum = (n: number | bigint) => `0x${n.toString(16)}`;

/** The node's chain id, asked once per process (again after a failure). */
export function nodeChainId(): Promise<number> {
  const s = state();
  // A shared promise: never wait on one that may be the breaker's probe of a stalled node.
  const open = rejectOpen(s);
  if (open) return open;
  s.chainId ??= rpc<string>('eth_chainId').then(Number, (e) => {
    s.chainId = undefined;
    throw e;
  });
  return s.chainId;
}

/** One node serves one chain: a request for another is the caller's mistake, named `chain`. */
export async function assertNodeChain(chain: Chain): Promise<void> {
  const id = await nodeChainId();
  if (chain.id === id) return;
  const node = chainById(id);
  const name = node ? `${node.name} (${node.hex})` : `chain id ${id} (0x${id.toString(16)})`;
  throw badParameter('chain', `chain: this Lantern reads one EVM node, which serves ${name}, not ${chain.name} (${chain.hex})`);
}

/** The chain a request without `chain` means in node mode: the node's own chain when Lantern knows it. */
export async function nodeDefaultChain(): Promise<Chain | undefined> {
  return chainById(await nodeChainId());
}

/** The node's latest block: number, hash and parent hash (chain.ts tells a replaced head from a new one). */
export interface HeadInfo {
  number: number;
  hash: string;
  parentHash: string;
}

/**
 * The latest block, shared for EVM_HEAD_TTL_MS (1 s) so a burst of requests asks the node once. It is
 * read with eth_getBlockByNumber("latest") rather than eth_blockNumber: the same one call, and its hash
 * shows a head replaced at the same height (a reorg, a rollback, a restarted devnet). `fresh` asks the node
 * now (chain.ts, before it concludes that the chain changed).
 */
export function headInfo(fresh = false): Promise<HeadInfo> {
  const s = state();
  const now = Date.now();
  const open = rejectOpen(s); // as in nodeChainId
  if (open) return open;
  if (fresh || !s.head || now - s.head.at > config().evmHeadTtlMs) {
    const value = rpc<{ number: string; hash: string; parentHash: string } | null>('eth_getBlockByNumber', ['latest', false]).then((b) => {
      if (!b) throw new RpcMethodError('eth_getBlockByNumber', undefined, 'the node has no latest block');
      const h = { number: Number(b.number), hash: b.hash.toLowerCase(), parentHash: b.parentHash.toLowerCase() };
      s.headNumber = h.number;
      return h;
    });
    s.head = { at: now, value };
    value.catch(() => {
      if (s.head?.value === value) s.head = undefined;
    });
  }
  return s.head.value;
}

/**
 * A head the node pushed to this instance's follower (lib/live), or another instance followed: shared as
 * headInfo's value for the next EVM_HEAD_TTL_MS, so pages read at it without asking the node. Told by
 * another instance (`heard`), a head below one this instance already read is ignored (a replaced head at
 * the same height is taken); the node's own word (a rollback's lower head) always is.
 */
export function noteHead(chainId: number, head: HeadInfo, heard = false): void {
  // One node today, serving one chain (callers check it is this one): its state is the one state.
  void chainId;
  const s = state();
  if (heard && s.headNumber !== undefined && head.number < s.headNumber) return;
  s.headNumber = head.number;
  s.head = { at: Date.now(), value: Promise.resolve(head) };
}

/** Latest block number (see headInfo). */
export function headBlock(): Promise<number> {
  return headInfo().then((h) => h.number);
}

/** Blocks this close to the head may still be replaced by a reorg: indexed, but not cached as final (devnet too). */
export function reorgDepth(): number {
  return config().evmReorgDepth;
}

/** The breaker's 503 as a rejected promise when no call may go (open, or probing); undefined when one may. */
function rejectOpen(s: State): Promise<never> | undefined {
  if (s.breaker.state() === 'closed') return undefined;
  try {
    s.breaker.assertAvailable();
    return undefined;
  } catch (e) {
    return Promise.reject(asBreakerOpen(e) ?? e);
  }
}
