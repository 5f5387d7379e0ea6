import 'server-only';
import { resolveChain } from '@/lib/chains';
import { cached } from '@/lib/cache';
import { config } from '@/lib/config';
import { stableKey } from './wallet-history';
import type { NftPage, NftQuery } from '@/lib/interface/nfts';
import { nodeRequestChain, nodeWalletNfts } from '@/lib/sources/evm-node';
import { hostedWalletNfts } from '@/lib/sources/hosted/wallet-nfts';

/** NFTs a wallet owns: the hosted data API when a key is set, else Lantern's own EVM node source. */
export async function getWalletNfts(address: string, query: NftQuery): Promise<NftPage> {
  const c = config();
  const chain = c.mode === 'hosted'
      ? resolveChain(query.chain ?? c.defaultChain, 'nfts', { devnet: c.acceptDevnet })
      : await nodeRequestChain(query.chain, 'nfts');
  // SYNCED listings may be reused briefly; a SYNCING one is about to change, so it is never kept.
  const ttl = (page: NftPage) => (page.status === 'SYNCED' ? 30 : 0);
  const source = c.mode === 'hosted' ? 'hosted' : 'node';
  return cached(`nfts:${source}:${chain.hex}:${address}:${stableKey(query)}`, { ttl }, () =>
    c.mode === 'hosted' ? hostedWalletNfts(address, chain, query) : nodeWalletNfts(address, chain, query),
  );
}
