import 'server-only';
import type { Chain } from '@/lib/chains';
import { historyPageSchema, resolveHistoryRange, type HistoryPage, type HistoryQuery } from '@/lib/interface/history';
import { badParameter } from '@/lib/errors';
import { hostedRequest } from './client';

export async function hostedWalletHistory(address: string, chain: Chain, q: HistoryQuery): Promise<HistoryPage> {
  // The hosted API's history has no token filter, and filtering its pages here would read a wallet's
  // whole history for a rare token: refused, by name, rather than answered unfiltered.
  if (q.token_addresses.length > 0) {
    throw badParameter('token_addresses', 'token_addresses: filtering the history by token is offered in node mode only; the hosted data API has no such filter');
  }
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
