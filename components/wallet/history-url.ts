'use client';

import { usePathname, useSearchParams } from 'next/navigation';
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { historyViewHref, type HistoryUrlView } from '@/lib/view/search-params';

/**
 * The history view in the URL, for the toolbar and the list alike. A first view shows what the server
 * parsed (`serverView`) and downloads no URL library. A person's first change loads nuqs' parsers
 * (lib/browser/view-params.ts); from then on the view is read from the URL, so the toolbar, the list and
 * back/forward always agree. Changes are shallow: the URL is pushed (or replaced) with the browser's
 * history API, which Next's router follows (useSearchParams), and no server render is asked for.
 */

type Parse = (search: URLSearchParams) => HistoryUrlView;

let parse: Parse | null = null;
let loading: Promise<Parse> | null = null;
const listeners = new Set<() => void>();
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => void listeners.delete(l);
};

function loadParse(): Promise<Parse> {
  loading ??= import('@/lib/browser/view-params').then((m) => {
    parse = (search) => m.parseHistoryUrl(search);
    for (const l of listeners) l();
    return parse;
  });
  return loading;
}

export type SetHistoryView = (patch: Partial<HistoryUrlView>, opts?: { history?: 'push' | 'replace' }) => Promise<void>;

export function useHistoryUrl(serverView: HistoryUrlView): [HistoryUrlView, SetHistoryView] {
  const pathname = usePathname();
  const search = useSearchParams();
  const loaded = useSyncExternalStore(subscribe, () => parse, () => null);
  const query = search.toString();
  const v = useMemo(() => (loaded ? loaded(new URLSearchParams(query)) : serverView), [loaded, query, serverView]);
  const setV = useCallback<SetHistoryView>(
    async (patch, opts) => {
      await loadParse();
      const url = historyViewHref(pathname, { ...v, ...patch });
      if (opts?.history === 'replace') window.history.replaceState(null, '', url);
      else window.history.pushState(null, '', url);
    },
    [pathname, v],
  );
  return [v, setV];
}
