import 'server-only';
import type { Chain } from '@/lib/chains';
import { historyPageSchema, type HistoryPage, type HistoryQuery } from '@/lib/interface/history';
import { hostedRequest } from './client';

export function hostedWalletHistory(address: string, chain: Chain, q: HistoryQuery): Promise<HistoryPage> {
  return hostedRequest({
    service: 'data',
    path: `/api/v2.2/wallets/${encodeURIComponent(address)}/history`,
    query: {
      chain: chain.hex,
      from_block: q.from_block,
      to_block: q.to_block,
      from_date: q.from_date?.toISOString(),
      to_date: q.to_date?.toISOString(),
      include_internal_transactions: q.include_internal_transactions,
      nft_metadata: q.nft_metadata,
      cursor: q.cursor,
      order: q.order,
      limit: q.limit,
    },
    schema: historyPageSchema,
  });
}
