import 'server-only';
import { AsyncLocalStorage } from 'node:async_hooks';
import { config } from '@/lib/config';
import { LanternError } from '@/lib/errors';
import { BreakerOpenError, asBreakerOpen } from '@/lib/sources/breaker';
import { evmNode, evmNodeReady, type EvmNode } from '@/lib/sources/evm-nodes';
import { CallBudget } from './call-budget';

/**
 * The one way this source talks to an EVM node: `rpc(chainId, method, params)` asks the node of that
 * chain (lib/sources/evm-nodes.ts: one node per chain, checked against the chain it is named for), with
 * viem's public client over HTTP: a timeout, a bounded retry and JSON-RPC batching (calls made in the
 * same turn of the event loop travel in one HTTP request). Every HTTP request goes through that node's breaker (a batch is
 * one request, so one probe; a slow call may travel `alone`, a page's quick ones in a `lane` of their
 * own). Errors become LanternErrors that never carry the RPC URL (it often holds a provider key). The
 * chain is always an argument: nothing chooses a node implicitly.
 */

export class RpcMethodError extends LanternError {
  constructor(
    readonly method: string,
    readonly rpcCode: number | undefined,
    /** The node's whole message (the public `message` keeps 200 characters): a refusal's hint may be at its end. */
    readonly detail: string,
    source = 'evm-node',
  ) {
    super(502, 'upstream_bad_response', `The EVM node answered ${method} with an error: ${detail.slice(0, 200)}`, { source });
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

/**
 * Per chain, on globalThis: the server's route bundles share one view of each node's head, and the newest
 * head number this instance has read or been told (noteHead never goes below it).
 */
interface HeadState {
  /** `known`: the value, once it has come (sharedHeadNow). */
  shared?: { at: number; value: Promise<HeadInfo>; known?: HeadInfo };
  number?: number;
}
const g = globalThis as unknown as { __lanternEvmHeads?: Map<number, HeadState> };
const heads = (g.__lanternEvmHeads ??= new Map<number, HeadState>());
const headState = (chainId: number): HeadState => {
  let h = heads.get(chainId);
  if (!h) heads.set(chainId, (h = {}));
  return h;
};

/** Set while background work (a wallet's older history) runs: its calls batch among themselves, never with a page's. */
const background = new AsyncLocalStorage<true>();
let backgroundJobs = 0;

/**
 * Batches of their own: calls of one lane batch only with calls of that lane made in the same tick.
 * `background`: a wallet's older history (never with a page's calls); `facts`: a page's own transactions,
 * receipts and block headers (tx-facts.ts), never with the slow reads of a window (eth_getLogs, trace_filter)
 * sent in the same tick, since a batch is answered as a whole.
 */
export type Lane = 'background' | 'facts';
const lanes = new Map<Lane, AbortSignal>();

/**
 * The batched transport (breakers.ts) keeps one batch per abort signal, so a lane is a signal of its own,
 * shared by the calls of one turn of the event loop. A signal given to viem replaces its timeout's (which
 * then no longer ends the request): the lane's signal is that timeout, started with the turn's first
 * call, and the next turn's calls take a new one.
 */
function laneSignal(lane: Lane): AbortSignal {
  let signal = lanes.get(lane);
  if (!signal) {
    const s = AbortSignal.timeout(config().upstreamTimeoutMs);
    lanes.set(lane, s);
    // Set before the batch's own setImmediate, so it runs first: the batch's calls all hold this signal.
    setImmediate(() => {
      if (lanes.get(lane) === s) lanes.delete(lane);
    });
    signal = s;
  }
  return signal;
}

/**
 * Runs `fn` as background work: its node calls are not batched with a page's (a batch is answered as a
 * whole, so a page's quick calls would wait for a background window's slow one).
 */
export async function inBackground<T>(fn: () => Promise<T>): Promise<T> {
  backgroundJobs++;
  try {
    return await background.run(true, fn);
  } finally {
    // An enabled AsyncLocalStorage costs every promise of the process (every request's too), not only
    // the background's: it is switched off while no background work runs, and run() switches it back on.
    if (--backgroundJobs === 0) background.disable();
  }
}

/** Whether the caller runs as background work (inBackground). */
export function isBackground(): boolean {
  return background.getStore() === true;
}

const gb = globalThis as unknown as { __lanternCallBudgets?: Map<number, CallBudget> };
const budgets = (gb.__lanternCallBudgets ??= new Map<number, CallBudget>());

/** The chain's node calls shared between pages and background work (call-budget.ts). */
export function callBudget(chainId: number): CallBudget {
  let b = budgets.get(chainId);
  if (!b) budgets.set(chainId, (b = new CallBudget({ perSecond: config().evmBackgroundCallsPerSecond })));
  return b;
}

const RETRIES = 2;
/** JSON-RPC codes worth another try: unknown, internal error, limit exceeded, rate limited (429, QuickNode's -32007). */
const TRANSIENT_RPC_CODES = new Set([-1, -32603, -32005, 429, -32007]);

/**
 * One JSON-RPC call; node errors become LanternErrors (5xx: the node is at fault, not the caller).
 * A dropped connection or a transient node error is tried twice more (100, 200 ms apart); a timeout
 * never is, and nothing is once the breaker is open.
 */
export async function rpc<T>(chainId: number, method: string, params: unknown[] = [], opts: { alone?: boolean; lane?: Lane } = {}): Promise<T> {
  const s = await evmNode(chainId);
  for (let attempt = 0; ; attempt++) {
    try {
      // While the node is suspect, each call travels alone: one of them is the probe and the others fail
      // at once, instead of riding in the probe's batch and waiting out its timeout with it.
      // `alone`: a slow call (a trace) in a batch would hold back the quick calls sent beside it, since a
      // batch is answered as a whole; it travels in its own request.
      // `lane`: batched only with calls of its lane (see Lane); background work's calls are all of theirs.
      const batched = s.breaker.state() === 'closed' && !opts.alone;
      const client = batched ? s.batched : s.single;
      const budget = callBudget(chainId);
      const send = (lane: Lane | undefined) => client.request({ method, params } as never, batched && lane ? { signal: laneSignal(lane) } : undefined) as Promise<T>;
      if (background.getStore()) {
        await budget.background();
        return await send('background');
      }
      return await budget.page(() => send(opts.lane));
    } catch (e) {
      const err = mapError(method, e, s);
      if (err instanceof BreakerOpenError || attempt >= RETRIES || s.breaker.state() !== 'closed') throw err;
      // -32005 is also "query returned more than 10000 results": a refusal is not retried as it was.
      const transient = err.code === 'upstream_unavailable' || (err instanceof RpcMethodError && TRANSIENT_RPC_CODES.has(err.rpcCode ?? 0) && !err.sizeRefusal);
      if (!transient) throw err;
      await new Promise((r) => setTimeout(r, 100 * 2 ** attempt));
    }
  }
}

function mapError(method: string, e: unknown, node: EvmNode): LanternError {
  if (e instanceof LanternError) return e;
  const source = node.breaker.source;
  const name = `The ${node.chain.label} node`;
  const err = e as { name?: string; code?: number; shortMessage?: string; details?: string; cause?: unknown };
  // viem wraps: walk the cause chain to the first error that says what happened.
  let cur: typeof err | undefined = err;
  for (let i = 0; cur && i < 6; i++) {
    // The breaker's own answer (thrown inside fetch) passes through: it names the node.
    const open = asBreakerOpen(cur);
    if (open) return open;
    if (cur.name === 'TimeoutError') return new LanternError(504, 'upstream_timeout', `${name} did not answer ${method} in time.`, { source });
    if (cur.name === 'HttpRequestError' && !asBreakerOpen(cur.cause)) {
      return new LanternError(503, 'upstream_unavailable', `${name} could not be reached (${method}).`, { retryAfter: 5, source });
    }
    if (typeof cur.code === 'number' && cur.code < 0) return new RpcMethodError(method, cur.code, cur.details ?? cur.shortMessage ?? 'error', source);
    cur = cur.cause as typeof err | undefined;
  }
  return new RpcMethodError(method, undefined, err.details ?? err.shortMessage ?? 'error', source);
}

export const hexNum = (n: number | bigint) => `0x${n.toString(16)}`;

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
export function headInfo(chainId: number, fresh = false): Promise<HeadInfo> {
  const now = Date.now();
  // A shared promise: never wait on one that may be the breaker's probe of a stalled node. Asked before
  // the shared head is reused, so a request arriving while the probe is in flight is answered at once.
  const ready = evmNodeReady(chainId);
  const open = ready && rejectOpen(ready);
  if (open) return open;
  const h = headState(chainId);
  if (!fresh && h.shared && now - h.shared.at <= config().evmHeadTtlMs) return h.shared.value;
  // Read as a page's call even when background work asks first: pages share this promise, and one
  // holding the chain's call budget (call-budget.ts) would otherwise wait for its own head behind itself.
  const value = background.exit(async () => {
    const late = rejectOpen(await evmNode(chainId));
    if (late) return late;
    const b = await rpc<{ number: string; hash: string; parentHash: string } | null>(chainId, 'eth_getBlockByNumber', ['latest', false]);
    if (!b) throw new RpcMethodError('eth_getBlockByNumber', undefined, 'the node has no latest block');
    const head = { number: Number(b.number), hash: b.hash.toLowerCase(), parentHash: b.parentHash.toLowerCase() };
    h.number = head.number;
    return head;
  });
  const shared: NonNullable<HeadState['shared']> = { at: now, value };
  h.shared = shared;
  value.then(
    (head) => {
      shared.known = head;
    },
    () => {
      if (h.shared === shared) h.shared = undefined;
    },
  );
  return value;
}

/**
 * The head headInfo would hand out now without asking the node, or undefined: none shared, its second
 * over, not come yet, or the node's breaker not closed (headInfo would refuse). Never waits.
 */
export function sharedHeadNow(chainId: number): HeadInfo | undefined {
  const h = heads.get(chainId);
  const shared = h?.shared;
  if (!shared?.known || Date.now() - shared.at > config().evmHeadTtlMs) return undefined;
  const ready = evmNodeReady(chainId);
  if (!ready || ready.breaker.state() !== 'closed') return undefined;
  return shared.known;
}

/**
 * A head the node pushed to this instance's follower (lib/live), or another instance followed: shared as
 * headInfo's value for the next EVM_HEAD_TTL_MS, so pages read at it without asking the node. Told by
 * another instance (`heard`), a head below one this instance already read is ignored (a replaced head at
 * the same height is taken); the node's own word (a rollback's lower head) always is.
 */
export function noteHead(chainId: number, head: HeadInfo, heard = false): void {
  const h = headState(chainId);
  if (heard && h.number !== undefined && head.number < h.number) return;
  h.number = head.number;
  h.shared = { at: Date.now(), value: Promise.resolve(head), known: head };
}

/** Latest block number of the chain's node (see headInfo). */
export function headBlock(chainId: number): Promise<number> {
  return headInfo(chainId).then((h) => h.number);
}

/** Blocks this close to the head may still be replaced by a reorg: indexed, but not cached as final (devnet too). */
export function reorgDepth(): number {
  return config().evmReorgDepth;
}

/** The breaker's 503 as a rejected promise when no call may go (open, or probing); undefined when one may. */
function rejectOpen(s: EvmNode): Promise<never> | undefined {
  if (s.breaker.state() === 'closed') return undefined;
  try {
    s.breaker.assertAvailable();
    return undefined;
  } catch (e) {
    return Promise.reject(asBreakerOpen(e) ?? e);
  }
}
