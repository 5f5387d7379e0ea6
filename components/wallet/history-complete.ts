import type { HistoryPageWire } from '@/lib/interface/history';
import { apiGet } from '@/lib/browser/api-client';
import { historyApiQuery, type HistoryView } from '@/lib/view/search-params';
import { describeTransaction, type ChainView, type EnsNames, type SavedLabels, type TxView } from '@/lib/view/tx-view';

/**
 * The complete first page, for rows the server sent before their internal transfers were read (first
 * sight): the published API answers only complete rows. Loaded on demand, so a page that needs no
 * completing downloads neither the API client nor the describing code.
 */
export async function completeFirstPage(
  address: string,
  view: HistoryView,
  chain: ChainView,
  labels: SavedLabels,
  ensNames: EnsNames | undefined,
  signal: AbortSignal,
): Promise<{ page: HistoryPageWire; rows: TxView[] }> {
  const page = await apiGet<HistoryPageWire>(`/api/v2.2/wallets/${address}/history`, historyApiQuery(view), signal);
  return { page, rows: page.result.map((tx) => describeTransaction(tx, address, chain, labels, ensNames)) };
}
