import 'server-only';
import { resolveChain } from '@/lib/chains';
import { config } from '@/lib/config';
import type { NftPage, NftQuery } from '@/lib/interface/nfts';
import { nodeRequestChain, nodeWalletNfts } from '@/lib/sources/evm-node';
import { hostedWalletNfts } from '@/lib/sources/hosted/wallet-nfts';

/** NFTs a wallet owns: the hosted data API when a key is set, else Lantern's own EVM node source. */
export async function getWalletNfts(address: string, query: NftQuery): Promise<NftPage> {
  const c = config();
  if (c.mode === 'hosted') return hostedWalletNfts(address, resolveChain(query.chain, 'nfts', { devnet: false }), query);
  return nodeWalletNfts(address, await nodeRequestChain(query.chain, 'nfts'), query);
}
