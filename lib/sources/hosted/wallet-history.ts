import 'server-only';
import type { Chain } from '@/lib/chains';
import { historyPageSchema, resolveHistoryRange, type HistoryPage, type HistoryQuery } from '@/lib/interface/history';
import { hostedRequest } from './client';

export function hostedWalletHistory(address: string, chain: Chain, q: HistoryQuery): Promise<HistoryPage> {
  // Only the bounds that apply (from_block over from_date, to_block over to_date): the provider is
  // never asked to judge a date it should ignore.
  const range = resolveHistoryRange(q);
  return hostedRequest({
    service: 'data',
    path: `/api/v2.2/wallets/${encodeURIComponent(address)}/history`,
    query: {
      chain: chain.hex,
      from_block: range.fromBlock,
      to_block: range.toBlock,
      from_date: range.fromDate?.toISOString(),
      to_date: range.toDate?.toISOString(),
      include_internal_transactions: q.include_internal_transactions,
      nft_metadata: q.nft_metadata,
      cursor: q.cursor,
      order: q.order,
      limit: q.limit,
    },
    schema: historyPageSchema,
  });
}
