import 'server-only';
import type { Hex } from 'viem';
import type { Chain } from '@/lib/chains';
import { chainHead } from './chain';
import { getLogsRange, type RawLog } from './logs';
import { assertNodeChain, reorgDepth, rpc } from './rpc';

/**
 * The one door through which the holdings code (tokens, approvals, stats, multicall) reaches the node
 * (token facts are read by tokens.ts, by chain id).
 * Every function names the chain it asks: Lantern reads one node per chain, and when the node source
 * serves several, only this file changes (each call goes to that chain's node).
 */

/** One JSON-RPC call to the chain's node. */
export function callNode<T>(chain: Chain, method: string, params: unknown[]): Promise<T> {
  void chain;
  return rpc<T>(method, params);
}

/** A request for another chain than the node's is the caller's mistake (400 naming `chain`). */
export function assertChain(chain: Chain): Promise<void> {
  return assertNodeChain(chain);
}

/** The chain's head, checked against what Lantern indexed (chain.ts), its epoch, and its last final block. */
export async function headOf(chain: Chain): Promise<{ head: number; epoch: number; final: number }> {
  void chain;
  const { head, epoch } = await chainHead();
  return { head, epoch, final: head - reorgDepth() };
}

/** eth_getLogs over [from, to] for each filter, split where the node limits ranges (logs.ts). */
export function logsOf(chain: Chain, filters: (Hex | Hex[] | null)[][], from: number, to: number): Promise<RawLog[]> {
  void chain;
  return getLogsRange(filters, from, to);
}
