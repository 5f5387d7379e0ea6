import 'server-only';
import { resolveChain } from '@/lib/chains';
import { config } from '@/lib/config';
import type { HistoryPage, HistoryQuery } from '@/lib/interface/history';
import { nodeRequestChain, nodeWalletHistory } from '@/lib/sources/evm-node';
import { hostedWalletHistory } from '@/lib/sources/hosted/wallet-history';

/** Wallet history: the hosted data API when a key is set, else Lantern's own EVM node source. */
export async function getWalletHistory(address: string, query: HistoryQuery): Promise<HistoryPage> {
  const c = config();
  if (c.mode === 'hosted') return hostedWalletHistory(address, resolveChain(query.chain, 'history', { devnet: false }), query);
  return nodeWalletHistory(address, await nodeRequestChain(query.chain, 'history'), query);
}
