import 'server-only';
import { resolveChain } from '@/lib/chains';
import { cached } from '@/lib/cache';
import { config } from '@/lib/config';
import type { HistoryPage, HistoryQuery } from '@/lib/interface/history';
import { hostedWalletHistory } from '@/lib/sources/hosted/wallet-history';
import { nodeSourceMissing } from './node-source';

/** Wallet history: the hosted data API when a key is set, else Lantern's own EVM node source. */
export async function getWalletHistory(address: string, query: HistoryQuery): Promise<HistoryPage> {
  const c = config();
  const chain = resolveChain(query.chain, 'history', { devnet: c.mode === 'node' && c.evmIsDevnet });
  if (c.mode === 'hosted') {
    // A first page changes as soon as a block lands: seconds. A cursor page is anchored below it: longer.
    const ttl = query.cursor ? 300 : 5;
    return cached(`history:hosted:${chain.hex}:${address}:${stableKey(query)}`, { ttl }, () => hostedWalletHistory(address, chain, query));
  }
  throw nodeSourceMissing('wallet history');
}

export function stableKey(q: object): string {
  return JSON.stringify(Object.entries(q).filter(([, v]) => v !== undefined).sort(([a], [b]) => a.localeCompare(b)));
}
