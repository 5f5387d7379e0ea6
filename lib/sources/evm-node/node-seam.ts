import 'server-only';
import type { Hex } from 'viem';
import type { Chain } from '@/lib/chains';
import { evmNode } from '@/lib/sources/evm-nodes';
import { chainHead } from './chain';
import { getLogsRange, type RawLog } from './logs';
import { reorgDepth, rpc } from './rpc';

/**
 * The one door through which the holdings code (tokens, approvals, stats, multicall) reaches a node
 * (token facts are read by tokens.ts, by chain id). Every function names the chain it asks, and each
 * call goes to that chain's node (lib/sources/evm-nodes.ts: one node per chain).
 */

/** One JSON-RPC call to the chain's node. */
export function callNode<T>(chain: Chain, method: string, params: unknown[]): Promise<T> {
  return rpc<T>(chain.id, method, params);
}

/**
 * Resolves once the node calls asked so far have left: calls made in one turn of the event loop are
 * batched and sent at setImmediate (lib/sources/breakers.ts), after the promise jobs of the turn that
 * ask them; this resolves at the next turn's.
 */
export function callsSent(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

/**
 * The chain has a node here, checked against the chain it is named for (the chain rule only hands a
 * node source the chains of its nodes; a node found serving another chain is a 503 saying so).
 */
export async function assertChain(chain: Chain): Promise<void> {
  await evmNode(chain.id);
}

/** The chain's head, checked against what Lantern indexed (chain.ts), its epoch, and its last final block. */
export async function headOf(chain: Chain): Promise<{ head: number; epoch: number; final: number }> {
  const { head, epoch } = await chainHead(chain.id);
  return { head, epoch, final: head - reorgDepth() };
}

/** eth_getLogs over [from, to] for each filter, split where the chain's node limits ranges (logs.ts). */
export function logsOf(chain: Chain, filters: (Hex | Hex[] | null)[][], from: number, to: number): Promise<RawLog[]> {
  return getLogsRange(chain.id, filters, from, to);
}
