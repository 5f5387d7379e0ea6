'use client';

import { Link } from '@/components/ui/link';
import { useSyncExternalStore } from 'react';
import { RECENT_KEY, parseRecent, type RecentSearch } from '@/lib/browser/recent-searches';
import { ADDRESS_RE, formatUtc, truncateMiddle, utcDate } from '@/lib/format';
import { card } from '@/components/ui/card';

const EMPTY: RecentSearch[] = [];
let cache: { raw: string | null; list: RecentSearch[] } = { raw: null, list: EMPTY };
const listeners = new Set<() => void>();

function snapshot(): RecentSearch[] {
  let raw: string | null = null;
  try {
    raw = localStorage.getItem(RECENT_KEY);
  } catch {
    // unavailable
  }
  if (raw !== cache.raw) cache = { raw, list: parseRecent(raw) };
  return cache.list;
}

function subscribe(l: () => void) {
  listeners.add(l);
  const onStorage = (e: StorageEvent) => e.key === RECENT_KEY && l();
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(l);
    window.removeEventListener('storage', onStorage);
  };
}

/** Recent searches of this browser, newest first; each opens the search again. */
export function RecentSearches() {
  const list = useSyncExternalStore(subscribe, snapshot, () => EMPTY);
  function clear() {
    try {
      localStorage.removeItem(RECENT_KEY);
    } catch {
      // unavailable
    }
    for (const l of listeners) l();
  }
  return (
    <section aria-labelledby="recent-heading" className="min-h-24">
      <div className="flex items-baseline justify-between gap-2">
        <h2 id="recent-heading" className="text-lg font-semibold">
          Recent searches
        </h2>
        {list.length > 0 && (
          <button type="button" onClick={clear} className="text-sm text-accent hover:underline">
            Clear
          </button>
        )}
      </div>
      {list.length === 0 ? (
        <p className="mt-1 text-sm text-ink-muted">Searches you make in this browser appear here. They are kept only in this browser.</p>
      ) : (
        <ul className={`mt-2 divide-y divide-line ${card}`}>
          {list.map((r) => (
            <li key={r.q} className="flex items-center justify-between gap-3 px-4 py-2 text-sm">
              <Link href={`/search?q=${encodeURIComponent(r.q)}`} className="min-w-0 truncate font-mono" title={r.q}>
                {ADDRESS_RE.test(r.q) ? truncateMiddle(r.q, 10, 8) : r.q}
              </Link>
              <time className="shrink-0 text-xs tabular-nums text-ink-muted" dateTime={utcDate(r.at)} title={formatUtc(r.at)}>
                {utcDate(r.at)}
              </time>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
