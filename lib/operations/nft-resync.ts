import 'server-only';
import type { NftResyncAnswer, NftResyncQuery } from '@/lib/interface/nft-resync';
import { sources } from '@/lib/sources';

/** Resync of one NFT's token URI / metadata: the hosted API's, or Lantern's own fetcher in node mode. */
export async function resyncNftMetadata(contract: string, tokenId: string, q: NftResyncQuery): Promise<{ httpStatus: 200 | 202; answer: NftResyncAnswer }> {
  const s = sources();
  const chain = await s.chains.requestChain(q.chain, 'nfts');
  return s.nftResync.resync(chain, contract, tokenId, q);
}
