import 'server-only';
import { resolveChain } from '@/lib/chains';
import { config } from '@/lib/config';
import type { HistoryPage, HistoryQuery } from '@/lib/interface/history';
import { hostedWalletHistory } from '@/lib/sources/hosted/wallet-history';
import { nodeSourceMissing } from './node-source';

/** Wallet history: the hosted data API when a key is set, else Lantern's own EVM node source. */
export async function getWalletHistory(address: string, query: HistoryQuery): Promise<HistoryPage> {
  const c = config();
  const chain = resolveChain(query.chain, 'history', { devnet: c.mode === 'node' && c.evmIsDevnet });
  if (c.mode === 'hosted') return hostedWalletHistory(address, chain, query);
  throw nodeSourceMissing('wallet history');
}
