'use client';

import { usePathname, useSearchParams } from 'next/navigation';
import { useCallback, useEffect, useMemo, useSyncExternalStore } from 'react';
import { historyViewHref, type HistoryUrlView } from '@/lib/view/search-params';

/**
 * The history view in the URL, for the toolbar and the list alike. A first view shows what the server
 * parsed (`serverView`) and downloads no URL library. A person's first change loads nuqs' parsers
 * (lib/browser/view-params.ts); from then on the view is read from the URL, so the toolbar, the list and
 * back/forward always agree. Changes are shallow: the URL is pushed (or replaced) with the browser's
 * history API, which Next's router follows (useSearchParams), and no server render is asked for.
 */

type Parse = (search: URLSearchParams) => HistoryUrlView;

// Shared by every hook of the page (the toolbar and the list read one view).
let parse: Parse | null = null;
let loading: Promise<Parse> | null = null;
/** A change made but not yet in the URL (nuqs' parsers may still be loading): shown at once, as nuqs would. */
let pending: { from: string; view: HistoryUrlView } | null = null;
let version = 0;
const listeners = new Set<() => void>();
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => void listeners.delete(l);
};
const changed = () => {
  version++;
  for (const l of listeners) l();
};

function loadParse(): Promise<Parse> {
  loading ??= import('@/lib/browser/view-params').then((m) => {
    parse = (search) => m.parseHistoryUrl(search);
    changed();
    return parse;
  });
  return loading;
}

export type SetHistoryView = (patch: Partial<HistoryUrlView>, opts?: { history?: 'push' | 'replace' }) => Promise<void>;

export function useHistoryUrl(serverView: HistoryUrlView): [HistoryUrlView, SetHistoryView] {
  const pathname = usePathname();
  const query = useSearchParams().toString();
  const seen = useSyncExternalStore(subscribe, () => version, () => 0);
  // Once the URL has moved on, it holds the change: the pending view is done with (and must not come
  // back if the person returns to the URL it was made on).
  useEffect(() => {
    if (pending && pending.from !== query) pending = null;
  }, [query]);
  const v = useMemo(() => {
    if (pending && pending.from === query) return pending.view;
    return parse ? parse(new URLSearchParams(query)) : serverView;
    // `seen` changes when the parsers load or a change is made: read the shared state again then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [seen, query, serverView]);
  const setV = useCallback<SetHistoryView>(
    async (patch, opts) => {
      const view = { ...v, ...patch };
      pending = { from: query, view };
      changed();
      await loadParse();
      const url = historyViewHref(pathname, view);
      if (opts?.history === 'replace') window.history.replaceState(null, '', url);
      else window.history.pushState(null, '', url);
    },
    [pathname, query, v],
  );
  return [v, setV];
}
