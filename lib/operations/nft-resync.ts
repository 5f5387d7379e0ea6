import 'server-only';
import type { NftResyncAnswer, NftResyncQuery } from '@/lib/interface/nft-resync';
import { sources } from '@/lib/sources';
import { requestChain } from './chains';

/** Resync of one NFT's token URI / metadata: the hosted API's, or Lantern's own fetcher in node mode. */
export async function resyncNftMetadata(contract: string, tokenId: string, q: NftResyncQuery): Promise<{ httpStatus: 200 | 202; answer: NftResyncAnswer }> {
  const chain = await requestChain(q.chain, 'nfts');
  return sources().evm(chain).nftResync.resync(chain, contract, tokenId, q);
}
