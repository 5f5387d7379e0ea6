'use client';

import { usePathname } from 'next/navigation';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import type { ErrorInfo } from '@/lib/view/error-copy';
import { historyViewHref, type HistoryUrlView, type HistoryView } from '@/lib/view/search-params';
import type { SetHistoryView } from './history-url';
import type { ChainView, EnsNames, SavedLabels, TxView } from '@/lib/view/tx-view';
import { card } from '@/components/ui/card';
import { PageNumber, Pager, PagerLink } from '@/components/ui/pager';
import { EmptyState } from '@/components/ui/empty-state';
import { HistoryRow } from './history-row';
import { HistorySkeleton } from './skeletons';

// The error wording (every code's title and advice) loads only when a page has an error to show.
const ErrorState = lazy(() => import('@/components/ui/error-state').then((m) => ({ default: m.ErrorState })));

export type UrlView = HistoryUrlView;

/**
 * A page of history as the list shows it: its transactions already described (by the server for the
 * page it rendered, by the paging client for later ones), and the cursor of the next page ('' at the end).
 */
export interface DescribedPage {
  rows: TxView[];
  cursor: string;
}

export interface HistoryBodyProps {
  /** The wallet, its saved labels and ENS names: what the paging client describes later pages with. */
  address: string;
  chain: ChainView;
  /** The URL's view, with how times are shown (a display choice, not part of the API query). */
  v: UrlView;
  setV: SetHistoryView;
  /** The page to show (undefined while the first one loads). */
  page: DescribedPage | undefined;
  fetching: boolean;
  /** The shown page is the previous view's, kept dimmed while the next arrives. */
  stale: boolean;
  error: ErrorInfo | null;
  onRetry: () => void;
  /** Called when a person pages from this list (before the URL changes). */
  onNavigate?: () => void;
  /** Mounted because a person paged (the list moved to the paging client): focus the list, as paging does. */
  focusOnMount?: boolean;
  labels: SavedLabels;
  ensNames?: EnsNames;
  now: number;
  otherChains: { name: string; label: string }[];
}

/** The history list as a person sees it, whichever way its page arrived (rendered on the server, or fetched). */
export function HistoryBody({
  chain,
  v,
  setV,
  page,
  fetching,
  stale,
  error,
  onRetry,
  onNavigate,
  focusOnMount = false,
  now: serverNow,
  otherChains,
}: HistoryBodyProps) {
  const pathname = usePathname();
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(t);
  }, []);

  const listRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!focusOnMount) return;
    listRef.current?.focus({ preventScroll: true });
    listRef.current?.scrollIntoView({ block: 'nearest' });
    // Only on mount: later pages move focus in navigate().
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const pageNumber = v.cursor.length + 1;
  const rows = page?.rows ?? [];
  const visible = v.spam ? rows : rows.filter((r) => !r.spam);
  const hiddenSpam = rows.length - visible.length;

  const href = (patch: Partial<HistoryView>) => historyViewHref(pathname, { ...v, ...patch });
  // Plain links (open in a new tab works); a plain click pages in place and moves focus to the list.
  function navigate(e: React.MouseEvent<HTMLAnchorElement>, patch: Partial<HistoryView>) {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || e.button !== 0) return;
    e.preventDefault();
    onNavigate?.();
    void setV(patch);
    listRef.current?.focus({ preventScroll: true });
    listRef.current?.scrollIntoView({ block: 'nearest' });
  }

  // A token filter empties a history as a range does: the empty page offers to clear both.
  const rangeSet = v.from_date || v.to_date || v.from_block !== null || v.to_block !== null || v.token.length > 0;
  const nextCursor = page?.cursor || null;

  return (
    <section aria-labelledby="history-heading" className="mt-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="history-heading" ref={listRef} tabIndex={-1} className="text-base font-semibold">
          Transactions <span className="font-normal text-ink-muted">· page {pageNumber}{v.order === 'asc' ? ', oldest first' : ''}</span>
        </h2>
        <TimeToggle time={v.time} onChange={(time) => void setV({ time }, { history: 'replace' })} />
      </div>

      <p role="status" className="sr-only">
        {fetching
          ? 'Loading transactions…'
          : page && !error
            ? `Page ${pageNumber}: ${visible.length} transactions shown.${rows.some((r) => r.checking === 'checking') ? ' Checking internal transfers…' : ''}`
            : ''}
      </p>
      <div className="mt-2" aria-busy={fetching}>
        {error ? (
          <Suspense fallback={<HistorySkeleton />}>
            <ErrorState
              error={error}
              onRetry={onRetry}
              resetHref={error.code === 'invalid_parameter' || error.code === 'upstream_bad_request' ? pathname : undefined}
            />
          </Suspense>
        ) : !page ? (
          <HistorySkeleton />
        ) : rows.length === 0 ? (
          <EmptyHistory chain={chain} pageNumber={pageNumber} rangeSet={!!rangeSet} otherChains={otherChains} pathname={pathname} newestHref={href({ cursor: [] })} />
        ) : (
          <div className={`overflow-hidden ${card} transition-opacity ${stale ? 'opacity-60' : ''}`}>
            {hiddenSpam > 0 && (
              <p className="border-b border-line bg-warning-soft px-4 py-2 text-sm text-ink">
                {hiddenSpam} possible spam {hiddenSpam === 1 ? 'transaction' : 'transactions'} hidden on this page.{' '}
                <a href={href({ spam: true })} onClick={(e) => navigate(e, { spam: true })} className="underline">
                  Show spam
                </a>
              </p>
            )}
            {visible.length === 0 ? (
              <p className="px-4 py-6 text-sm text-ink-muted">Every transaction on this page looks like spam.</p>
            ) : (
              <ol aria-label={`Transactions, page ${pageNumber}`}>
                {visible.map((tx) => (
                  <HistoryRow key={tx.hash} tx={tx} chain={chain} time={v.time} now={now} />
                ))}
              </ol>
            )}
          </div>
        )}
      </div>

      {page && !error && (pageNumber > 1 || nextCursor) && (
        <Pager>
          <PagerLink enabled={pageNumber > 1} href={href({ cursor: [] })} onClick={(e) => navigate(e, { cursor: [] })}>
            {v.order === 'asc' ? 'Oldest' : 'Newest'}
          </PagerLink>
          <PagerLink enabled={pageNumber > 1} href={href({ cursor: v.cursor.slice(0, -1) })} onClick={(e) => navigate(e, { cursor: v.cursor.slice(0, -1) })} rel="prev">
            {v.order === 'asc' ? '← Older' : '← Newer'}
          </PagerLink>
          <PageNumber n={pageNumber} />
          <PagerLink
            enabled={!!nextCursor && !stale}
            href={nextCursor ? href({ cursor: [...v.cursor, nextCursor] }) : ''}
            onClick={(e) => nextCursor && navigate(e, { cursor: [...v.cursor, nextCursor] })}
            rel="next"
          >
            {v.order === 'asc' ? 'Newer →' : 'Older →'}
          </PagerLink>
          {!nextCursor && <span className="text-ink-muted">End of history.</span>}
        </Pager>
      )}
    </section>
  );
}

function TimeToggle({ time, onChange }: { time: 'age' | 'utc'; onChange: (t: 'age' | 'utc') => void }) {
  return (
    <div role="group" aria-label="Time shown as" className="inline-flex rounded-card border border-line text-xs">
      {(['age', 'utc'] as const).map((t) => (
        <button
          key={t}
          type="button"
          aria-pressed={time === t}
          onClick={() => onChange(t)}
          className={`px-2.5 py-1 first:rounded-l-card last:rounded-r-card ${time === t ? 'bg-accent-soft font-medium text-ink' : 'text-ink-muted hover:text-ink'}`}
        >
          {t === 'age' ? 'Age' : 'UTC time'}
        </button>
      ))}
    </div>
  );
}

function EmptyHistory({
  chain,
  pageNumber,
  rangeSet,
  otherChains,
  pathname,
  newestHref,
}: {
  chain: ChainView;
  pageNumber: number;
  rangeSet: boolean;
  otherChains: { name: string; label: string }[];
  pathname: string;
  newestHref: string;
}) {
  const others = otherChains.filter((c) => c.name !== chain.name).slice(0, 8);
  if (pageNumber > 1) {
    return (
      <EmptyState title="No more transactions">
        This page is past the end of the history. <a href={newestHref} className="underline">Go to the first page</a>.
      </EmptyState>
    );
  }
  if (rangeSet) {
    return (
      <EmptyState title="No transactions in this view">
        This wallet has no transactions on {chain.label} in the range or of the tokens you chose.{' '}
        <a href={`${pathname}?chain=${encodeURIComponent(chain.name)}`} className="underline">
          Clear the filters
        </a>
        .
      </EmptyState>
    );
  }
  return (
    <EmptyState
      title={`No transactions on ${chain.label}`}
      next={
        others.length > 0 && (
          <>
            <span className="text-ink-muted">Try:</span>
            {others.map((c) => (
              <a key={c.name} href={`${pathname}?chain=${encodeURIComponent(c.name)}`} className="underline">
                {c.label}
              </a>
            ))}
          </>
        )
      }
    >
      This wallet has never sent or received anything on {chain.label}. It may be active on another chain.
    </EmptyState>
  );
}
