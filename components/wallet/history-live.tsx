'use client';

import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { HistoryPageWire } from '@/lib/interface/history';
import { ApiError, apiGet } from '@/lib/browser/api-client';
import { mergeLiveRows, type LiveRows } from '@/lib/browser/live-rows';
import { historyApiQuery, sameApiView, type HistoryView } from '@/lib/view/search-params';
import { describeTransaction, type InitialHistory, type TxView } from '@/lib/view/tx-view';
import { HistoryBody, type HistoryBodyProps } from './history-body';

export type LiveHistoryProps = Omit<HistoryBodyProps, 'page' | 'fetching' | 'stale' | 'error' | 'onRetry'> & {
  initial: InitialHistory;
  serverView: HistoryView;
  /** Rows the live bar streamed in (handed over only on the first page, newest first). */
  liveRows?: LiveRows;
};

/**
 * History pages fetched in the browser from the published API, once a person pages or filters (loaded on
 * demand by HistoryList). One QueryClient per tab (this module only runs in the browser). History pages
 * are immutable once mined, so a page stays fresh for a minute and is not refetched on focus.
 */
const client = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 60_000,
      refetchOnWindowFocus: false,
      // The server already retries the provider; a failed page shows its cause and a Retry button.
      retry: false,
    },
  },
});

export default function LiveHistory(props: LiveHistoryProps) {
  return (
    <QueryClientProvider client={client}>
      <Live {...props} />
    </QueryClientProvider>
  );
}

function Live({ initial, serverView, liveRows, ...body }: LiveHistoryProps) {
  const { address, v, chain, labels, ensNames } = body;
  const onServerView = sameApiView(v, serverView);
  const serverPage = initial.ok ? initial.page : undefined;
  // The server's rows lack internal transfers still being read: shown as they are until the complete page comes.
  const completing = initial.ok && !!initial.pending && onServerView;
  // The server's page seeds its own view; a failed one is fetched again (this view exists because of a retry).
  const [seed] = useState(serverPage);
  const q = useQuery<HistoryPageWire, ApiError>({
    queryKey: ['history', address, historyApiQuery(v)],
    queryFn: ({ signal }) => apiGet<HistoryPageWire>(`/api/v2.2/wallets/${address}/history`, historyApiQuery(v), signal),
    initialData: onServerView && !completing ? seed : undefined,
    // The rows on screen stay, dimmed, until the next page arrives (the server's on the first move).
    placeholderData: (previous) => previous ?? seed,
  });
  // Pages fetched here are described here; the server described the one it rendered.
  const checking = completing && (q.isPlaceholderData || q.isError);
  const page = useMemo(() => {
    const withLive = (rows: TxView[]) => (onServerView && liveRows ? mergeLiveRows(rows, liveRows) : rows);
    if (checking && initial.ok) {
      // The server's rows, as described there; a failed completion says so in each row still checking.
      const rows = q.isError ? initial.rows.map((r) => (r.checking ? { ...r, checking: 'failed' as const } : r)) : initial.rows;
      return { rows: withLive(rows), cursor: initial.page.cursor };
    }
    return q.data ? { rows: withLive(q.data.result.map((tx) => describeTransaction(tx, address, chain, labels, ensNames))), cursor: q.data.cursor } : undefined;
  }, [checking, initial, q.isError, q.data, address, chain, labels, ensNames, onServerView, liveRows]);
  return (
    <HistoryBody
      {...body}
      page={page}
      fetching={q.isFetching && !checking}
      stale={q.isPlaceholderData && q.isFetching && !checking}
      error={q.isError && !checking ? q.error : null}
      onRetry={() => void q.refetch()}
    />
  );
}
