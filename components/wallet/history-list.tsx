'use client';

import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { mergeLiveRows, useLiveRows } from '@/lib/browser/live-rows';
import { sameApiView, type HistoryUrlView, type HistoryView } from '@/lib/view/search-params';
import type { HistoryPageWire } from '@/lib/interface/history';
import type { ChainView, EnsNames, InitialHistory, SavedLabels, TxView } from '@/lib/view/tx-view';
import { HistoryBody } from './history-body';
import { useHistoryUrl } from './history-url';

export interface HistoryListProps {
  address: string;
  chain: ChainView;
  /** The view the server rendered, and what it got: seeds the cache so the first page is not fetched twice. */
  serverView: HistoryView;
  /** How the URL the server rendered shows times. */
  serverTime: HistoryUrlView['time'];
  initial: InitialHistory;
  /** Lower-case address -> the signed-in person's label (saved wallets); empty when signed out. */
  labels?: SavedLabels;
  /** Primary ENS names the server resolved for this page's counterparties. */
  ensNames?: EnsNames;
  /** Server time of the render, so ages read the same in the HTML and after hydration. */
  now: number;
  otherChains: { name: string; label: string }[];
}

const NO_LABELS: SavedLabels = {};

// The paging client (react-query and the API client) loads when a person first pages, filters or retries;
// until then the page shows the rows the server rendered, and nothing else is downloaded for them.
const LiveHistory = lazy(() => import('./history-live'));

/**
 * The history list. The page in the URL is rendered on the server; "older" / "newer" change the URL
 * (shallowly, history-url.ts) and fetch the page in place from the published API, keeping the previous rows on
 * screen, dimmed, until the next ones arrive.
 */
export function HistoryList({ address, chain, serverView, serverTime, initial, labels = NO_LABELS, ensNames, now, otherChains }: HistoryListProps) {
  const serverUrlView = useMemo(() => ({ ...serverView, time: serverTime }), [serverView, serverTime]);
  const [v, setV] = useHistoryUrl(serverUrlView);
  const [live, setLive] = useState(false);
  // Paging from the server's rows mounts the paging client's list in their place: it takes the focus over.
  const [paged, setPaged] = useState(false);
  const common = { address, chain, v, setV, labels, ensNames, now, otherChains, onNavigate: () => setPaged(true), focusOnMount: paged };
  const onServerView = sameApiView(v, serverView);
  // Rows the live bar streamed in since the render (it hands them over only while this is the first page, newest first).
  const liveCtx = useMemo(() => ({ address, chain, labels, ensNames }), [address, chain, labels, ensNames]);
  const liveRows = useLiveRows(liveCtx);

  // Rows the server read before their internal transfers (first sight) are completed in place: the same
  // list, each row keeping its state (an open details panel), its internal transfers filled in.
  const completed = useCompletedFirstPage(address, serverView, chain, labels, ensNames, initial);
  const first: InitialHistory = completed && completed !== 'failed' ? { ok: true, ...completed } : initial;
  if (live || !onServerView) {
    const page = first.ok ? { rows: first.rows, cursor: first.page.cursor } : undefined;
    return (
      // While the paging client loads, the server's rows stay on screen, dimmed.
      <Suspense fallback={<HistoryBody {...common} page={page} fetching stale={!!page} error={null} onRetry={() => {}} />}>
        <LiveHistory {...common} initial={first} serverView={serverView} liveRows={liveRows} />
      </Suspense>
    );
  }
  return (
    <HistoryBody
      {...common}
      page={first.ok ? { rows: mergeLiveRows(completed === 'failed' ? notChecked(first.rows) : first.rows, liveRows), cursor: first.page.cursor } : undefined}
      fetching={false}
      stale={false}
      error={initial.ok ? null : initial.error}
      onRetry={() => setLive(true)}
    />
  );
}

/** Rows whose internal transfers could not be read after all say so. */
const notChecked = (rows: TxView[]): TxView[] => rows.map((r) => (r.checking ? { ...r, checking: 'failed' as const } : r));

/** The complete first page once fetched (null until then, or when the server's rows were complete already). */
function useCompletedFirstPage(
  address: string,
  view: HistoryView,
  chain: ChainView,
  labels: SavedLabels,
  ensNames: EnsNames | undefined,
  initial: InitialHistory,
): { page: HistoryPageWire; rows: TxView[] } | 'failed' | null {
  const [done, setDone] = useState<{ page: HistoryPageWire; rows: TxView[] } | 'failed' | null>(null);
  const pending = initial.ok && !!initial.pending;
  useEffect(() => {
    if (!pending) return;
    const ac = new AbortController();
    import('./history-complete')
      .then((m) => m.completeFirstPage(address, view, chain, labels, ensNames, ac.signal))
      .then(
        (r) => setDone(r),
        () => !ac.signal.aborted && setDone('failed'),
      );
    return () => ac.abort();
  }, [pending, address, view, chain, labels, ensNames]);
  return pending ? done : null;
}
