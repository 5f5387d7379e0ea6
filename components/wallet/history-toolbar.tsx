'use client';

import { card, field, quietButtonCompact } from '@/components/ui/card';
import { ChainSelect } from './toolbar-fields';
import { useState } from 'react';
import { historyViewHref, type HistoryUrlView } from '@/lib/view/search-params';
import { useHistoryUrl } from './history-url';

/** A token address as a chip shows it: what it is in full is in its title and its button's name. */
const shortToken = (t: string) => (/^0x[0-9a-fA-F]{40}$/.test(t) ? `${t.slice(0, 6)}…${t.slice(-4)}` : t);

/**
 * Filters of the history view. Every control writes the URL (history-url.ts); any change starts again at
 * the first page, since a cursor belongs to the filters it was issued for.
 */
export function HistoryToolbar({
  address,
  chains,
  defaultChain,
  serverView,
}: {
  address: string;
  chains: { name: string; label: string }[];
  defaultChain: string;
  /** The view the server parsed from the URL it rendered. */
  serverView: HistoryUrlView;
}) {
  const [v, setV] = useHistoryUrl(serverView);
  const [range, setRange] = useState({
    from_date: v.from_date ?? '',
    to_date: v.to_date ?? '',
    from_block: v.from_block?.toString() ?? '',
    to_block: v.to_block?.toString() ?? '',
  });
  const [rangeKey, setRangeKey] = useState(`${v.from_date}|${v.to_date}|${v.from_block}|${v.to_block}`);
  // Back/forward changes the URL under us: the inputs follow it (render-time sync, no effect needed).
  const urlRangeKey = `${v.from_date}|${v.to_date}|${v.from_block}|${v.to_block}`;
  if (urlRangeKey !== rangeKey) {
    setRangeKey(urlRangeKey);
    setRange({ from_date: v.from_date ?? '', to_date: v.to_date ?? '', from_block: v.from_block?.toString() ?? '', to_block: v.to_block?.toString() ?? '' });
  }

  const reset = { cursor: [] };
  const rangeActive = !!(v.from_date || v.to_date || v.from_block !== null || v.to_block !== null);
  const csvHref = historyViewHref(`/wallet/${address}/history.csv`, { ...v, cursor: [], time: 'age' });
  const num = (s: string) => (/^\d+$/.test(s.trim()) ? Number(s.trim()) : null);

  return (
    <div className={`mt-4 ${card} px-4 py-3`}>
      <div className="flex flex-wrap items-end gap-x-4 gap-y-3">
        <ChainSelect address={address} chains={chains} value={v.chain} defaultChain={defaultChain} onChange={(chain) => void setV({ chain, ...reset })} />
        <label className="flex flex-col gap-1 text-xs text-ink-muted">
          Order
          <select className={field} value={v.order} onChange={(e) => void setV({ order: e.target.value === 'asc' ? 'asc' : 'desc', ...reset })}>
            <option value="desc">Newest first</option>
            <option value="asc">Oldest first</option>
          </select>
        </label>
        <label className="flex items-center gap-2 py-1 text-sm">
          <input type="checkbox" checked={v.internal} onChange={(e) => void setV({ internal: e.target.checked, ...reset })} className="h-4 w-4 accent-accent" />
          Internal transactions
        </label>
        <label className="flex items-center gap-2 py-1 text-sm">
          <input type="checkbox" checked={v.spam} onChange={(e) => void setV({ spam: e.target.checked })} className="h-4 w-4 accent-accent" />
          Show possible spam
        </label>
        <a href={csvHref} className="ml-auto py-1 text-sm" download>
          Download CSV
        </a>
      </div>

      {v.token.length > 0 && (
        <ul aria-label="Token filters" className="mt-3 flex flex-wrap items-center gap-2 border-t border-line pt-2 text-sm">
          <li className="text-ink-muted">Only transactions of</li>
          {v.token.map((t) => (
            <li key={t} data-token-filter={t.toLowerCase()} className="inline-flex items-center gap-1 rounded-full border border-line px-2 py-0.5 font-mono text-xs">
              <span title={t}>{shortToken(t)}</span>
              <button
                type="button"
                aria-label={`Remove the token filter ${t}`}
                className="rounded-full px-1 text-ink-muted hover:text-ink"
                onClick={() => void setV({ token: v.token.filter((x) => x !== t), ...reset })}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}

      <details className="group mt-3 border-t border-line pt-2" open={rangeActive}>
        <summary className="cursor-pointer py-1 text-sm text-ink-muted hover:text-ink">
          Date or block range{rangeActive ? ' (set)' : ''}
        </summary>
      <form
        className="mt-2 flex flex-wrap items-end gap-x-4 gap-y-3"
        aria-label="Date or block range"
        onSubmit={(e) => {
          e.preventDefault();
          void setV({
            from_date: range.from_date || null,
            to_date: range.to_date || null,
            from_block: num(range.from_block),
            to_block: num(range.to_block),
            ...reset,
          });
        }}
      >
        <label className="flex flex-col gap-1 text-xs text-ink-muted">
          From date (UTC)
          <input type="date" className={field} value={range.from_date} onChange={(e) => setRange({ ...range, from_date: e.target.value })} />
        </label>
        <label className="flex flex-col gap-1 text-xs text-ink-muted">
          To date (UTC)
          <input type="date" className={field} value={range.to_date} onChange={(e) => setRange({ ...range, to_date: e.target.value })} />
        </label>
        <label className="flex flex-col gap-1 text-xs text-ink-muted">
          From block
          <input inputMode="numeric" pattern="[0-9]*" className={`${field} w-28`} value={range.from_block} onChange={(e) => setRange({ ...range, from_block: e.target.value })} />
        </label>
        <label className="flex flex-col gap-1 text-xs text-ink-muted">
          To block
          <input inputMode="numeric" pattern="[0-9]*" className={`${field} w-28`} value={range.to_block} onChange={(e) => setRange({ ...range, to_block: e.target.value })} />
        </label>
        <div className="flex gap-2">
          <button type="submit" className={quietButtonCompact}>
            Apply range
          </button>
          {rangeActive && (
            <button
              type="button"
              className="rounded-card px-2 py-1 text-sm text-accent hover:underline"
              onClick={() => void setV({ from_date: null, to_date: null, from_block: null, to_block: null, ...reset })}
            >
              Clear
            </button>
          )}
        </div>
        <p className="basis-full text-xs text-ink-muted">A block bound wins over a date bound on the same side.</p>
      </form>
      </details>
    </div>
  );
}
