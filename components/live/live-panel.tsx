'use client';

import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import { clearLiveRows, liveRowsContext, pushLiveRows } from '@/lib/browser/live-rows';
import { LiveStream, type LiveStreamState } from '@/lib/browser/live-stream';
import { truncateMiddle } from '@/lib/format';
import { describeTransaction } from '@/lib/view/tx-view';
import { LIVE_INSERT_CAP, countWords, isLiveHistoryView, type LiveEventName, type LiveHello, type LiveRemoved, type LiveTx } from '@/lib/view/live';

export interface LivePanelProps {
  address: string;
  /** The chain's name, as the stream's `chain` takes it. */
  chain: string;
  /** The stream's position when the page was rendered (read before its rows): nothing after it is missed. Null: from now. */
  since: string | null;
  /** Which tab: the history list, or the NFTs. */
  view: 'history' | 'nfts';
}

/** How long a new row stays highlighted, and a removal's note shown. */
const HIGHLIGHT_MS = 2_400;
const NOTE_MS = 20_000;

/**
 * A wallet page's live bar: the stream's state (live, reconnecting, paused while the tab is in the
 * background, or "updates every N s" where Lantern polls), and what arrived. On the first page, newest
 * first, each batch of new rows (one head's) goes straight into the list the server rendered
 * (lib/browser/live-rows.ts), described by the same code as every row, at the top with a short
 * highlight; rows already there keep their place (the browser's scroll anchoring holds them while the
 * person has scrolled into the list). The balance header and the NFTs are the server's: the page is read
 * again in the background once the rows are in, never holding them back. Past LIVE_INSERT_CAP new rows,
 * or on another page or order, the bar offers them instead. A row a reorganisation removed disappears, and the bar says so.
 * Screen readers hear one polite sentence per batch.
 */
export default function LivePanel({ address, chain, since, view }: LivePanelProps) {
  const router = useRouter();
  const pathname = usePathname();
  const [state, setState] = useState<LiveStreamState>('connecting');
  const [hello, setHello] = useState<LiveHello | null>(null);
  /** New transactions not shown yet (past the cap, or this is not the first page): their hashes; 'many' after a gap. */
  const [held, setHeld] = useState<string[] | 'many'>([]);
  const [note, setNote] = useState<string | null>(null);
  const [said, setSaid] = useState('');
  const [highlight, setHighlight] = useState<string[]>([]);
  // The view the server rendered: only when it and the view now are both the first page, newest first, of
  // the same chain are the server's rows the ones on screen, to be refreshed in place.
  const [rendered] = useState(() => new URLSearchParams(window.location.search));
  const search = useSearchParams().toString();
  const batch = useRef<{ tx: LiveTx[]; removed: string[]; gap: boolean }>({ tx: [], removed: [], gap: false });
  const flushTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const heldRef = useRef(held);
  useEffect(() => {
    heldRef.current = held;
  }, [held]);

  const announce = useCallback((text: string) => setSaid((prev) => (prev === text ? `${text}\u00a0` : text)), []);

  // The balance header (and the NFTs) are the server's: read again in the background, a burst of rows at once,
  // never before the rows are on screen.
  const refreshTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const refreshSoon = useCallback(() => {
    clearTimeout(refreshTimer.current);
    refreshTimer.current = setTimeout(() => startTransition(() => router.refresh()), 150);
  }, [router]);

  /** Rows held back (past the cap), by hash, to show when asked. */
  const heldRows = useRef(new Map<string, LiveTx>());

  const showNew = useCallback(
    (txs: LiveTx[]) => {
      const hashes = txs.map((t) => t.hash);
      const ctx = liveRowsContext();
      if (ctx) {
        // Oldest first as they came: the list takes them newest first. Described as the server describes its own.
        pushLiveRows({ add: [...txs].reverse().map((t) => describeTransaction(t, ctx.address, ctx.chain, ctx.labels, ctx.ensNames)) });
        refreshSoon();
      } else router.refresh();
      setHighlight(hashes);
      setTimeout(() => setHighlight((h) => (h === hashes ? [] : h)), HIGHLIGHT_MS);
    },
    [refreshSoon, router],
  );

  const flush = useCallback(() => {
    clearTimeout(flushTimer.current);
    const { tx, removed, gap } = batch.current;
    batch.current = { tx: [], removed: [], gap: false };
    const onPage = (h: string) => !!document.querySelector(`li[data-tx-hash="${CSS.escape(h)}"]`);
    const gone = [...new Set(removed)].filter(onPage);
    const goneSet = new Set(removed);
    const fresh = [...new Map(tx.map((t) => [t.hash, t])).values()].filter((t) => goneSet.has(t.hash) || !onPage(t.hash));
    if (removed.length > 0) {
      for (const h of removed) heldRows.current.delete(h);
      pushLiveRows({ remove: removed });
    }
    if (fresh.length === 0 && gone.length === 0 && !gap) return;
    const sentences: string[] = [];
    if (gone.length > 0) {
      const text = `${gone.length === 1 ? 'A transaction was' : `${gone.length} transactions were`} removed by a chain reorganisation (${gone.map((h) => truncateMiddle(h, 8, 4)).join(', ')}).`;
      setNote(text);
      setTimeout(() => setNote((n) => (n === text ? null : n)), NOTE_MS);
      sentences.push(text);
    }
    if (view === 'nfts') {
      router.refresh();
      if (fresh.length > 0) sentences.push(`${countWords(fresh.length)}; NFTs updated.`);
      announce(sentences.join(' '));
      return;
    }
    const here = refreshable(rendered, new URLSearchParams(window.location.search));
    const before = heldRef.current;
    const waiting = before === 'many' || gap ? 'many' : [...before, ...fresh.map((t) => t.hash)];
    const hold = () => {
      for (const t of fresh) heldRows.current.set(t.hash, t);
      heldRef.current = waiting;
      setHeld(waiting);
    };
    if (!here) {
      hold();
      if (fresh.length > 0 || gap) sentences.push(`${waiting === 'many' ? 'New transactions' : countWords(waiting.length)} on the first page.`);
    } else if (waiting === 'many' || waiting.length > LIVE_INSERT_CAP || before.length > 0) {
      hold();
      if (gone.length > 0) refreshSoon();
      if (fresh.length > 0 || gap) sentences.push(`${waiting === 'many' ? 'New transactions' : countWords(waiting.length)}: use Show to see them.`);
    } else {
      if (fresh.length > 0) sentences.push(`${countWords(fresh.length)}: ${fresh.map((t) => t.summary ?? t.category ?? 'transaction').join('; ')}.`);
      if (fresh.length > 0) showNew(fresh);
      else if (gone.length > 0) refreshSoon();
    }
    if (sentences.length > 0) announce(sentences.join(' '));
  }, [announce, refreshSoon, rendered, router, showNew, view]);

  useEffect(() => {
    const base = `/api/live/wallets/${encodeURIComponent(address)}?chain=${encodeURIComponent(chain)}`;
    const stream = new LiveStream({
      url: (s) => (s ? `${base}&since=${encodeURIComponent(s)}` : base),
      since,
      onState: setState,
      onEvent: (name: LiveEventName, data: unknown) => {
        const b = batch.current;
        if (name === 'hello') setHello(data as LiveHello);
        else if (name === 'tx') b.tx.push(data as LiveTx);
        else if (name === 'removed') b.removed.push(...(data as LiveRemoved).hashes);
        else if (name === 'gap' || name === 'reset') b.gap = true;
        // A head ends a batch; where Lantern polls (no heads), a short pause after the last row does.
        if (name === 'head') flush();
        else if (name !== 'hello') {
          clearTimeout(flushTimer.current);
          flushTimer.current = setTimeout(flush, 250);
        }
      },
    });
    stream.start();
    const onVisibility = () => (document.hidden ? stream.pause() : stream.resume());
    document.addEventListener('visibilitychange', onVisibility);
    if (document.hidden) stream.pause();
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      clearTimeout(flushTimer.current);
      clearTimeout(refreshTimer.current);
      stream.close();
    };
    // One stream per mount: a refresh of the page must not reopen it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const showHeld = () => {
    const txs = held === 'many' ? [] : held.flatMap((h) => heldRows.current.get(h) ?? []);
    heldRows.current.clear();
    heldRef.current = [];
    setHeld([]);
    // After a gap or a reset the rows were not all sent: the server's first page again, alone.
    if (held === 'many') {
      clearLiveRows();
      router.refresh();
    }
    else showNew(txs);
    document.getElementById('history-heading')?.scrollIntoView({ block: 'nearest' });
  };
  const firstPage = () => {
    const now = new URLSearchParams(window.location.search);
    const keep = new URLSearchParams();
    for (const k of ['chain', 'spam', 'time']) if (now.get(k)) keep.set(k, now.get(k)!);
    const q = keep.toString();
    return q ? `${pathname}?${q}` : pathname;
  };
  const count = held === 'many' ? null : held.length;
  const polled = hello !== null && !hello.follows;
  const [label, dot] =
    state === 'open'
      ? [polled ? `Live · updates every ${hello?.interval_s} s` : 'Live', 'bg-positive']
      : state === 'paused'
        ? ['Paused in a background tab', 'bg-ink-muted']
        : state === 'reconnecting'
          ? ['Reconnecting…', 'bg-warning']
          : ['Connecting…', 'bg-ink-muted'];
  const onFirst = refreshable(rendered, new URLSearchParams(search));

  return (
    <div className="flex h-full min-w-0 items-center gap-3" data-testid="live-bar">
      <span className="inline-flex shrink-0 items-center gap-1.5 text-ink-muted" data-testid="live-state" data-state={state}>
        <span aria-hidden="true" className={`inline-block h-2 w-2 rounded-full ${dot}`} />
        {label}
      </span>
      {view === 'history' && count !== 0 &&
        (onFirst ? (
          <button type="button" onClick={showHeld} className="shrink-0 rounded-card border border-line bg-sunken px-2 py-0.5 font-medium text-ink hover:border-accent" data-testid="live-show">
            {count === null ? 'New transactions' : countWords(count)}, show
          </button>
        ) : (
          <a href={firstPage()} className="shrink-0 font-medium" data-testid="live-first-page">
            {count === null ? 'New transactions' : `${count} new`} on the first page
          </a>
        ))}
      {note && (
        <span className="min-w-0 truncate text-ink-muted" data-testid="live-note" title={note}>
          {note}
        </span>
      )}
      <p role="status" className="sr-only" data-testid="live-announcement">
        {said}
      </p>
      {highlight.length > 0 && <style>{highlightCss(highlight)}</style>}
    </div>
  );
}

/** The rows on screen are the server's first page, newest first, so refreshing the page brings new ones in place. */
function refreshable(rendered: URLSearchParams, now: URLSearchParams): boolean {
  return isLiveHistoryView(rendered) && isLiveHistoryView(now) && rendered.get('chain') === now.get('chain');
}

/** New rows: slide in from just above and fade from the accent's tint (colour only, without motion, when motion is reduced). */
function highlightCss(hashes: string[]): string {
  const sel = hashes.map((h) => `li[data-tx-hash="${h.replace(/[^0-9a-fA-Fx]/g, '')}"]`).join(',');
  return `@keyframes lantern-live-in{from{opacity:0;transform:translateY(-0.5rem);background-color:rgb(var(--c-accent-soft))}35%{opacity:1;transform:none;background-color:rgb(var(--c-accent-soft))}to{background-color:transparent}}
@keyframes lantern-live-tint{from,35%{background-color:rgb(var(--c-accent-soft))}to{background-color:transparent}}
${sel}{animation:lantern-live-in ${HIGHLIGHT_MS}ms ease-out}
@media (prefers-reduced-motion:reduce){${sel}{animation-name:lantern-live-tint}}`;
}
