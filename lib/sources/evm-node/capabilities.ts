import 'server-only';
import { config } from '@/lib/config';
import { ZERO_ADDRESS } from '@/lib/format';
import { RpcMethodError, headBlock, hexNum, rpc } from './rpc';

/**
 * Which of the methods that find a wallet's transactions the node offers, asked once per process:
 * `ots_*` (Otterscan API) and `trace_filter`. What Lantern can and cannot see follows from them
 * (docs/evm-node.md, "What the node must offer"), and health and the wallet page say it in words.
 * A probe that fails for another reason than "no such method" (node down) is asked again next time.
 */

export interface NodeCapabilities {
  ots: boolean;
  traceFilter: boolean;
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
  url: string;
  known: Partial<NodeCapabilities>;
  probing?: Promise<NodeCapabilities>;
}
const g = globalThis as unknown as { __lanternEvmCaps?: Shared };
/** What is known of the node at EVM_RPC_URL (another URL is another node). */
function shared(): Shared {
  const url = config().evmRpcUrl;
  if (g.__lanternEvmCaps?.url !== url) g.__lanternEvmCaps = { url, known: {} };
  return g.__lanternEvmCaps;
}

/** A method the node said it does not offer (learnt by a probe, or by a call that failed so). */
export function markUnsupported(method: string): void {
  const { known } = shared();
  if (method.startsWith('ots_')) known.ots = false;
  if (method === 'trace_filter') known.traceFilter = false;
}

export function nodeCapabilities(): Promise<NodeCapabilities> {
  const s = shared();
  const { known } = s;
  if (known.ots !== undefined && known.traceFilter !== undefined) return Promise.resolve({ ots: known.ots, traceFilter: known.traceFilter });
  s.probing ??= probe(known).finally(() => (s.probing = undefined));
  return s.probing;
}

async function probe(known: Partial<NodeCapabilities>): Promise<NodeCapabilities> {
  const offers = async (method: string, params: unknown[]) => {
    try {
      await rpc(method, params);
      return true;
    } catch (e) {
      // Any other answer from the node (a refused range, say) means the method exists.
      if (e instanceof RpcMethodError) return !e.unsupported;
      throw e;
    }
  };
  const head = await headBlock();
  const [ots, traceFilter] = await Promise.all([
    known.ots ?? offers('ots_getApiLevel', []),
    known.traceFilter ?? offers('trace_filter', [{ fromBlock: hexNum(head), toBlock: hexNum(head), toAddress: [ZERO_ADDRESS] }]),
  ]);
  known.ots = ots;
  known.traceFilter = traceFilter;
  return { ots, traceFilter };
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

/** The coverage for health: what is known within `ms`, else that it is not known yet (node down or slow). */
export async function historyCoverageWithin(ms: number): Promise<HistoryCoverage | { complete: null; missing: string }> {
  const unknown = { complete: null, missing: 'Not known yet: the node has not answered which methods it offers.' };
  let timer: NodeJS.Timeout | undefined;
  try {
    const caps = await Promise.race([nodeCapabilities(), new Promise<null>((r) => (timer = setTimeout(() => r(null), ms)))]);
    return caps ? historyCoverage(caps) : unknown;
  } catch {
    return unknown;
  } finally {
    clearTimeout(timer);
  }
}
