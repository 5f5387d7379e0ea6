import 'client-only';
import { useEffect, useSyncExternalStore } from 'react';
import type { ChainView, EnsNames, SavedLabels, TxView } from '@/lib/view/tx-view';

/**
 * Between the live bar (components/live/live-panel.tsx, loaded seconds after the page) and the history
 * list the server rendered: the list says how it describes rows (its wallet, chain, labels and ENS names),
 * the bar describes each streamed row with that and hands it over, and the list shows it above the server's
 * rows at once, without reading the page again. One history list per page, so one store per tab. Kept
 * small: the list carries it in its first load; the describing code comes with the bar.
 */

export interface LiveRowsContext {
  address: string;
  chain: ChainView;
  labels: SavedLabels;
  ensNames: EnsNames | undefined;
}

export interface LiveRows {
  /** Rows streamed in since the page was rendered, newest first. */
  added: TxView[];
  /** Hashes a reorganisation took away. */
  removed: ReadonlySet<string>;
}

const EMPTY: LiveRows = { added: [], removed: new Set() };
let rows: LiveRows = EMPTY;
let context: LiveRowsContext | null = null;
const listeners = new Set<() => void>();

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => void listeners.delete(l);
};

/** The list: registers how it describes rows, and reads the rows streamed in for its wallet and chain. */
export function useLiveRows(ctx: LiveRowsContext): LiveRows {
  useEffect(() => {
    if (context && (context.address.toLowerCase() !== ctx.address.toLowerCase() || context.chain.name !== ctx.chain.name)) rows = EMPTY;
    context = ctx;
  }, [ctx]);
  return useSyncExternalStore(subscribe, liveRowsSnapshot, () => EMPTY);
}

export const liveRowsSnapshot = (): LiveRows => rows;

/** The bar: how the list on screen describes rows, or null when no list is there (the NFTs tab). */
export function liveRowsContext(): LiveRowsContext | null {
  return context;
}

/** The bar: new rows (newest first) go on top; removed hashes leave the list (a row mined again comes back). */
export function pushLiveRows({ add = [], remove = [] }: { add?: TxView[]; remove?: string[] }): void {
  const gone = new Set(rows.removed);
  for (const h of remove) gone.add(h.toLowerCase());
  for (const t of add) gone.delete(t.hash.toLowerCase());
  const fresh = new Set(add.map((t) => t.hash.toLowerCase()));
  rows = { added: [...add, ...rows.added.filter((t) => !fresh.has(t.hash.toLowerCase()))], removed: gone };
  for (const l of listeners) l();
}

/** The bar, when the server's first page is read again after a gap or a reset: what it streamed is in it, or is gone. */
export function clearLiveRows(): void {
  rows = EMPTY;
  for (const l of listeners) l();
}

/**
 * The rows the list shows: streamed rows over the server's, each hash once, newest block first (a
 * refreshed server page may hold some of them already), without the removed ones.
 */
export function mergeLiveRows(server: TxView[], live: LiveRows): TxView[] {
  if (live.added.length === 0 && live.removed.size === 0) return server;
  const seen = new Set<string>();
  const out: TxView[] = [];
  for (const t of [...live.added, ...server]) {
    const h = t.hash.toLowerCase();
    if (seen.has(h) || live.removed.has(h)) continue;
    seen.add(h);
    out.push(t);
  }
  // Stable: rows of one block keep the order they came in.
  return out.map((t, i) => [t, i] as const).sort(([a, i], [b, j]) => blockOf(b) - blockOf(a) || i - j).map(([t]) => t);
}

const blockOf = (t: TxView) => Number(t.block) || 0;
