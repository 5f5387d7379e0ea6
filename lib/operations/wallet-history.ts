import 'server-only';
import { resolveChain } from '@/lib/chains';
import { cached } from '@/lib/cache';
import { config } from '@/lib/config';
import { serializeHistoryPage, type HistoryPage, type HistoryQuery } from '@/lib/interface/history';
import { nodeRequestChain, nodeWalletHistory } from '@/lib/sources/evm-node';
import { hostedWalletHistory } from '@/lib/sources/hosted/wallet-history';

/** Which source answers, under which cache key and lifetime. */
async function plan(address: string, query: HistoryQuery) {
  const c = config();
  const chain =
    c.mode === 'hosted'
      ? resolveChain(query.chain ?? c.defaultChain, 'history', { devnet: c.acceptDevnet })
      : await nodeRequestChain(query.chain, 'history');
  return {
    key: `history:${c.mode}:${chain.hex}:${address}:${stableKey(query)}`,
    // A first page changes as soon as a block lands: seconds. A cursor page is anchored below it: longer.
    ttl: query.cursor ? 300 : 5,
    load: () => (c.mode === 'hosted' ? hostedWalletHistory(address, chain, query) : nodeWalletHistory(address, chain, query)),
  };
}

/** Wallet history: the hosted data API when a key is set, else Lantern's own EVM node source. */
export async function getWalletHistory(address: string, query: HistoryQuery): Promise<HistoryPage> {
  const p = await plan(address, query);
  return cached(p.key, { ttl: p.ttl }, p.load);
}

/** The published API's answer as the interface's JSON text, cached as text: a hit costs no serialisation. */
export async function getWalletHistoryBody(address: string, query: HistoryQuery): Promise<string> {
  const p = await plan(address, query);
  return cached(`${p.key}:body`, { ttl: p.ttl }, async () => JSON.stringify(serializeHistoryPage(await cached(p.key, { ttl: p.ttl }, p.load))));
}

export function stableKey(q: object): string {
  return JSON.stringify(Object.entries(q).filter(([, v]) => v !== undefined).sort(([a], [b]) => a.localeCompare(b)));
}
