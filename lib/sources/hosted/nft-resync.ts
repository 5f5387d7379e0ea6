import 'server-only';
import type { Chain } from '@/lib/chains';
import { nftResyncAnswerSchema, resyncWaits, type NftResyncAnswer, type NftResyncQuery } from '@/lib/interface/nft-resync';
import { hostedRequest } from './client';

/** Forwards a resync to the hosted API (which queues it for async, runs it for sync). */
export function hostedResyncNft(chain: Chain, contract: string, tokenId: string, q: NftResyncQuery): Promise<NftResyncAnswer> {
  return hostedRequest({
    service: 'data',
    path: `/api/v2.2/nft/${encodeURIComponent(contract)}/${encodeURIComponent(tokenId)}/metadata/resync`,
    query: { chain: chain.hex, flag: q.flag, mode: resyncWaits(q) ? 'sync' : 'async' },
    schema: nftResyncAnswerSchema,
    retries: 0,
  });
}
