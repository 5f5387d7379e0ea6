import 'server-only';
import { LOCAL_DEVNETS } from '@/lib/chains';
import { historyQuerySchema, serializeHistoryPage } from '@/lib/interface/history';
import { zodToBadParameter } from '@/lib/interface/zod-errors';
import { liveStart, liveStartAfter } from '@/lib/operations/live';
import { reverseNames } from '@/lib/operations/names';
import { getWalletHistoryFirstSight, historyCoverage, historyStillIndexing } from '@/lib/operations/wallet-history';
import { historyApiQuery, type HistoryView } from '@/lib/view/search-params';
import { describeTransaction, type ChainView, type EnsNames, type InitialHistory, type SavedLabels } from '@/lib/view/tx-view';
import { renderTime, toErrorInfo } from './page';

export interface HistoryFirstPageData {
  initial: InitialHistory;
  ens: EnsNames;
  /** What a node that cannot find every transaction of the rule does not show; null when it finds them all. */
  missing: string | null;
  /** The node is still reading this wallet's history. */
  indexing: boolean;
  /** The server's clock once the page was read: ages in the HTML and after hydration are computed from it. */
  now: number;
  /** Where the page's live stream starts (lib/live): nothing mined after the page was read is missed. Null: no stream. */
  live: string | null;
}

/**
 * The first page of a wallet's history as the server renders it; later pages are fetched in the
 * browser (components/wallet/history-list.tsx). Never throws: a failure is the page's error state.
 */
export async function loadHistoryFirstPage(address: string, view: HistoryView, chain: ChainView, labels: SavedLabels): Promise<HistoryFirstPageData> {
  let initial: InitialHistory;
  // Read before the rows, so a transaction mined meanwhile is sent by the stream (the page drops one it shows).
  const liveFrom = await liveStart(chain.name).catch(() => null);
  try {
    // The same validation as the published API, so a bad URL reads exactly like a bad API call.
    const parsed = historyQuerySchema.safeParse(historyApiQuery(view));
    if (!parsed.success) throw zodToBadParameter(parsed.error);
    // Rows first: internal transfers the node is still tracing are fetched by the browser after (history-live.tsx).
    const first = await getWalletHistoryFirstSight(address, parsed.data);
    initial = { ok: true, page: serializeHistoryPage(first.page), rows: [], ...(first.complete ? {} : { pending: true }) };
  } catch (e) {
    initial = { ok: false, error: await toErrorInfo(e) };
  }
  // ENS names exist for mainnet addresses; the local devnets' accounts have none.
  const ens =
    initial.ok && !LOCAL_DEVNETS.some((d) => d.name === chain.name)
      ? await reverseNames(initial.page.result.flatMap((tx) => [tx.from_address, tx.to_address].filter((a): a is string => !!a && a.toLowerCase() !== address.toLowerCase())))
      : {};
  // The rows are described here, so the browser shows them without downloading the describing code.
  if (initial.ok) initial = { ...initial, rows: initial.page.result.map((tx) => describeTransaction(tx, address, chain, labels, ens)) };
  // On a node that cannot find every transaction of the rule, the page says which ones it does not show.
  // A view filtered by token is read from the wallet's logs, read whole before it answers: nothing older is still coming.
  const [missing, indexing] = initial.ok
    ? await Promise.all([
        historyCoverage(chain.name).then((c) => c?.missing ?? null, () => null),
        view.token.length > 0 ? false : historyStillIndexing(address, chain.name).catch(() => false),
      ])
    : [null, false];
  const live = initial.ok ? (liveFrom ?? liveStartAfter(initial.page)) : null;
  return { initial, ens, missing, indexing, now: renderTime(), live };
}
