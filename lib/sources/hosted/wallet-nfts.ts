import 'server-only';
import type { Chain } from '@/lib/chains';
import { nftPageSchema, type NftPage, type NftQuery } from '@/lib/interface/nfts';
import { hostedRequest } from './client';

export function hostedWalletNfts(address: string, chain: Chain, q: NftQuery): Promise<NftPage> {
  return hostedRequest({
    service: 'data',
    path: `/api/v2.2/${encodeURIComponent(address)}/nft`,
    query: {
      chain: chain.hex,
      format: q.format,
      limit: q.limit,
      exclude_spam: q.exclude_spam,
      token_addresses: q.token_addresses,
      cursor: q.cursor,
      normalizeMetadata: q.normalizeMetadata,
      media_items: q.media_items,
      include_prices: q.include_prices,
    },
    schema: nftPageSchema,
  });
}
