import 'server-only';
import { resolveChain } from '@/lib/chains';
import { cached } from '@/lib/cache';
import { config } from '@/lib/config';
import { stableKey } from './wallet-history';
import type { NftPage, NftQuery } from '@/lib/interface/nfts';
import { hostedWalletNfts } from '@/lib/sources/hosted/wallet-nfts';
import { nodeSourceMissing } from './node-source';

/** NFTs a wallet owns: the hosted data API when a key is set, else Lantern's own EVM node source. */
export async function getWalletNfts(address: string, query: NftQuery): Promise<NftPage> {
  const c = config();
  const chain = resolveChain(query.chain, 'nfts', { devnet: c.mode === 'node' && c.evmIsDevnet });
  if (c.mode === 'hosted') {
    // SYNCED listings may be reused briefly; a SYNCING one is about to change, so it is never kept.
    const ttl = (page: NftPage) => (page.status === 'SYNCED' ? 30 : 0);
    return cached(`nfts:hosted:${chain.hex}:${address}:${stableKey(query)}`, { ttl }, () => hostedWalletNfts(address, chain, query));
  }
  throw nodeSourceMissing('wallet NFTs');
}
