import 'server-only';
import { cached, cachedFor, type KeptText } from '@/lib/cache';
import { markStill } from './sources';
import { stableKey } from './wallet-history';
import { serializeNftPage, type NftPage, type NftQuery } from '@/lib/interface/nfts';
import { sources } from '@/lib/sources';
import { requestChain } from './chains';

async function plan(address: string, query: NftQuery) {
  const chain = await requestChain(query.chain, 'nfts');
  const s = sources().evm(chain);
  // A source that reads at a head (node mode): a listing is kept under the chain's epoch and the head block
  // it was computed at (a new block may change it, and a new key makes the next request catch up; a new
  // epoch means the node left the chain it was indexed from); the head itself is shared for at most a second.
  const mark = await s.chain.mark();
  const at = mark === null ? '' : `@${mark.head}`;
  return {
    key: `nfts:${s.kind}:${chain.hex}:${address}:${stableKey(query)}${at}`,
    load: () => s.nfts.nfts(address, chain, query),
    fresh: markStill(s.chain, mark),
  };
}

// SYNCED listings may be reused briefly (node mode: at the same head only); a SYNCING one is about to
// change, so it is never kept.
const ttlFor = (status: string | null) => (status === 'SYNCED' ? 30 : 0);

/** NFTs a wallet owns: the hosted data API when a key is set, else Lantern's own EVM node source. */
export async function getWalletNfts(address: string, query: NftQuery): Promise<NftPage> {
  const p = await plan(address, query);
  return cached(p.key, { ttl: (page: NftPage) => ttlFor(page.status) }, p.load);
}

/**
 * The published API's answer as the interface's JSON text, cached as text: a hit costs no serialisation.
 * `keep`: while the same request gets the same text (lib/api/answer-cache.ts).
 */
export async function getWalletNftsBody(address: string, query: NftQuery): Promise<KeptText> {
  const p = await plan(address, query);
  const out = await cachedFor(`${p.key}:body`, { ttl: (v: { status: string | null }) => ttlFor(v.status) }, async () => {
    const page = await cached(p.key, { ttl: (pg: NftPage) => ttlFor(pg.status) }, p.load);
    return { status: page.status, body: JSON.stringify(serializeNftPage(page)) };
  });
  return { text: out.value.body, keep: { until: out.expires, fresh: p.fresh } };
}
