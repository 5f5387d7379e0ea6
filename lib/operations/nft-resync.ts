import 'server-only';
import { resolveChain } from '@/lib/chains';
import { config } from '@/lib/config';
import type { NftResyncAnswer, NftResyncQuery } from '@/lib/interface/nft-resync';
import { nodeRequestChain } from '@/lib/sources/evm-node';
import { nodeResyncNft } from '@/lib/sources/evm-node/nft-resync';
import { hostedResyncNft } from '@/lib/sources/hosted/nft-resync';

/** Resync of one NFT's token URI / metadata: the hosted API's, or Lantern's own fetcher in node mode. */
export async function resyncNftMetadata(contract: string, tokenId: string, q: NftResyncQuery): Promise<{ httpStatus: 200 | 202; answer: NftResyncAnswer }> {
  const c = config();
  if (c.mode === 'hosted') {
    const chain = resolveChain(q.chain ?? c.defaultChain, 'nfts', { devnet: c.acceptDevnet });
    const answer = await hostedResyncNft(chain, contract, tokenId, q);
    return { httpStatus: q.mode === 'async' ? 202 : 200, answer };
  }
  const chain = await nodeRequestChain(q.chain, 'nfts');
  return nodeResyncNft(chain, contract.toLowerCase(), tokenId, q);
}
