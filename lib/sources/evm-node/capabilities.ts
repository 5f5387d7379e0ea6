import 'server-only';
import { ZERO_ADDRESS } from '@/lib/format';
import { RpcMethodError, headBlock, hexNum, rpc } from './rpc';

/**
 * Which of the methods that find a wallet's transactions each chain's node offers, asked once per process:
 * `ots_*` (Otterscan API) and `trace_filter`. What Lantern can and cannot see follows from them
 * (docs/evm-node.md, "What the node must offer"), and health and the wallet page say it in words.
 * Also how the node traces (internal calls): Parity's `trace_*`, else `debug_*` with callTracer.
 * A probe that fails for another reason than "no such method" (node down) is asked again next time.
 */

/**
 * How internal calls are read: Parity's `trace_block` / `trace_transaction` where the node offers them (anvil
 * records them as it mines: a block of 100 calls answers in 6-30 ms, where callTracer replays it for 2-6 s),
 * else `debug_traceBlockByNumber` / `debug_traceTransaction` with callTracer (Geth), else not at all.
 */
export type BlockTracer = 'debug_traceBlockByNumber' | 'trace_block' | null;

export interface NodeCapabilities {
  ots: boolean;
  traceFilter: boolean;
  blockTrace: BlockTracer;
}

export interface HistoryCoverage {
  /** Every transaction of the rule (docs/evm-node.md) is found. */
  complete: boolean;
  /** How a wallet's transactions are found, in the order Lantern asks. */
  found_with: string[];
  /** Which transactions are not shown, in words; null when none. */
  missing: string | null;
}

// On globalThis: the server's route bundles each hold their own copy of this module, and one probe serves them all.
interface Shared {
  known: Partial<NodeCapabilities>;
  probing?: Promise<NodeCapabilities>;
}
const g = globalThis as unknown as { __lanternEvmCaps?: Map<number, Shared> };
/** What is known of the node of chain `chainId` (one node per chain). */
function shared(chainId: number): Shared {
  const all = (g.__lanternEvmCaps ??= new Map());
  let s = all.get(chainId);
  if (!s) all.set(chainId, (s = { known: {} }));
  return s;
}

/** A method the chain's node said it does not offer (learnt by a probe, or by a call that failed so). */
export function markUnsupported(chainId: number, method: string): void {
  const { known } = shared(chainId);
  if (method.startsWith('ots_')) known.ots = false;
  if (method === 'trace_filter') known.traceFilter = false;
  // A tracer refused in use: the next kind down (trace_ to debug_, debug_ to none).
  if ((method === 'trace_block' || method === 'trace_transaction') && known.blockTrace === 'trace_block') known.blockTrace = 'debug_traceBlockByNumber';
  else if (method.startsWith('debug_trace') && known.blockTrace === 'debug_traceBlockByNumber') known.blockTrace = null;
}

export function nodeCapabilities(chainId: number): Promise<NodeCapabilities> {
  const s = shared(chainId);
  const { known } = s;
  if (known.ots !== undefined && known.traceFilter !== undefined && known.blockTrace !== undefined) {
    return Promise.resolve({ ots: known.ots, traceFilter: known.traceFilter, blockTrace: known.blockTrace });
  }
  s.probing ??= probe(chainId, known).finally(() => (s.probing = undefined));
  return s.probing;
}

async function probe(chainId: number, known: Partial<NodeCapabilities>): Promise<NodeCapabilities> {
  const offers = async (method: string, params: unknown[]) => {
    try {
      await rpc(chainId, method, params);
      return true;
    } catch (e) {
      // Any other answer from the node (a refused range, say) means the method exists.
      if (e instanceof RpcMethodError) return !e.unsupported;
      throw e;
    }
  };
  const head = await headBlock(chainId);
  // The genesis block: nothing to replay (a node that will not trace it says so in other words than "no such method").
  // debug_ is asked only of a node without trace_block.
  const blockTracer = async (): Promise<BlockTracer> => {
    if (await offers('trace_block', ['0x0'])) return 'trace_block';
    return (await offers('debug_traceBlockByNumber', ['0x0', { tracer: 'callTracer' }])) ? 'debug_traceBlockByNumber' : null;
  };
  const [ots, traceFilter, blockTrace] = await Promise.all([
    known.ots ?? offers('ots_getApiLevel', []),
    known.traceFilter ?? offers('trace_filter', [{ fromBlock: hexNum(head), toBlock: hexNum(head), toAddress: [ZERO_ADDRESS] }]),
    known.blockTrace !== undefined ? known.blockTrace : blockTracer(),
  ]);
  known.ots = ots;
  known.traceFilter = traceFilter;
  known.blockTrace = blockTrace;
  return { ots, traceFilter, blockTrace };
}

/** What a wallet's history holds on this node, for health and the wallet page. */
export function historyCoverage(c: NodeCapabilities): HistoryCoverage {
  const logs = 'eth_getLogs (token transfers)';
  if (c.ots) {
    return {
      complete: true,
      found_with: ['ots_searchTransactionsBefore/After', c.traceFilter ? 'trace_filter (SELFDESTRUCT beneficiaries)' : 'debug_traceBlockByNumber (SELFDESTRUCT beneficiaries, each block once)', logs],
      missing: null,
    };
  }
  if (c.traceFilter) return { complete: true, found_with: ['trace_filter', logs], missing: null };
  return {
    complete: false,
    found_with: ['eth_getBlockByNumber (sender, recipient, created contract; each block once)', logs],
    missing:
      'This node offers neither ots_ nor trace_filter, so Lantern cannot see internal calls when it looks for a wallet\'s transactions. ' +
      'Not shown: transactions in which this wallet only took part through a contract\'s internal call, such as ETH it received ' +
      'from a contract (a withdrawal, a payout, a self-destructed contract\'s balance) or a call a contract made to it, when no token ' +
      'transfer names it. Shown: every transaction it sent, received or created, and every token transfer to or from it. ' +
      'A node with ots_ (Erigon, anvil) or trace_filter (Erigon, Reth) shows them all.',
  };
}

/** The coverage of the chain's node for health: what is known within `ms`, else that it is not known yet (node down or slow). */
export async function historyCoverageWithin(chainId: number, ms: number): Promise<HistoryCoverage | { complete: null; missing: string }> {
  const unknown = { complete: null, missing: 'Not known yet: the node has not answered which methods it offers.' };
  let timer: NodeJS.Timeout | undefined;
  try {
    const caps = await Promise.race([nodeCapabilities(chainId), new Promise<null>((r) => (timer = setTimeout(() => r(null), ms)))]);
    return caps ? historyCoverage(caps) : unknown;
  } catch {
    return unknown;
  } finally {
    clearTimeout(timer);
  }
}
