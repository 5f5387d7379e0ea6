import 'server-only';
import { resolveChain } from '@/lib/chains';
import { cached } from '@/lib/cache';
import { config } from '@/lib/config';
import type { HistoryPage, HistoryQuery } from '@/lib/interface/history';
import { nodeRequestChain, nodeWalletHistory } from '@/lib/sources/evm-node';
import { hostedWalletHistory } from '@/lib/sources/hosted/wallet-history';

/** Wallet history: the hosted data API when a key is set, else Lantern's own EVM node source. */
export async function getWalletHistory(address: string, query: HistoryQuery): Promise<HistoryPage> {
  const c = config();
  const chain = c.mode === 'hosted'
      ? resolveChain(query.chain ?? c.defaultChain, 'history', { devnet: c.acceptDevnet })
      : await nodeRequestChain(query.chain, 'history');
  // A first page changes as soon as a block lands: seconds. A cursor page is anchored below it: longer.
  const ttl = query.cursor ? 300 : 5;
  const source = c.mode === 'hosted' ? 'hosted' : 'node';
  return cached(`history:${source}:${chain.hex}:${address}:${stableKey(query)}`, { ttl }, () =>
    c.mode === 'hosted' ? hostedWalletHistory(address, chain, query) : nodeWalletHistory(address, chain, query),
  );
}

export function stableKey(q: object): string {
  return JSON.stringify(Object.entries(q).filter(([, v]) => v !== undefined).sort(([a], [b]) => a.localeCompare(b)));
}
