'use client';

import { lazy, Suspense, useMemo, useState } from 'react';
import { mergeLiveRows, useLiveRows } from '@/lib/browser/live-rows';
import { sameApiView, type HistoryUrlView, type HistoryView } from '@/lib/view/search-params';
import type { ChainView, EnsNames, InitialHistory, SavedLabels } from '@/lib/view/tx-view';
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

  if (live || !onServerView) {
    const page = initial.ok ? { rows: initial.rows, cursor: initial.page.cursor } : undefined;
    return (
      // While the paging client loads, the server's rows stay on screen, dimmed.
      <Suspense fallback={<HistoryBody {...common} page={page} fetching stale={!!page} error={null} onRetry={() => {}} />}>
        <LiveHistory {...common} initial={initial} serverView={serverView} />
      </Suspense>
    );
  }
  return (
    <HistoryBody
      {...common}
      page={initial.ok ? { rows: mergeLiveRows(initial.rows, liveRows), cursor: initial.page.cursor } : undefined}
      fetching={false}
      stale={false}
      error={initial.ok ? null : initial.error}
      onRetry={() => setLive(true)}
    />
  );
}
