'use client';

import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState } from 'react';
import { loadTransactionDetail } from '@/lib/actions/ledger';
import { Hash } from '@/components/ui/hash';
import { formatFee, formatUnixSeconds, truncateMiddle } from '@/lib/format';
import { typeLabel, type TxDetail, type TxRow } from '@/lib/view/ledger-block';
import { card } from '@/components/ui/card';

/**
 * The block's transactions. Virtualised (only the rows in view exist in the DOM), so a
 * 10,000-transaction block scrolls as smoothly as a small one. The searched version is highlighted and
 * scrolled into view; opening a row loads its payload, signature and events from the server.
 */

const ROW_HEIGHT = 56;
// From lg (1024 px) one line per transaction, its eight columns inside the page's 72rem (Expires, a full UTC
// time, never clipped: the function column gives way and truncates). Below lg each transaction is a small
// stacked card: version, type and status; hash and sender; the function; gas and expiry, each labelled.
const COLUMNS =
  'grid grid-cols-[auto_minmax(0,1fr)_auto] gap-x-3 px-3 lg:gap-x-2 lg:grid-cols-[6rem_8rem_6rem_8rem_minmax(0,1fr)_6.5rem_5rem_10.75rem]';
/** Shown only in the stacked layout, where no column header stands above a value. */
const stackedLabel = 'text-xs text-ink-muted lg:hidden';

type DetailState = { loading: true } | { detail: TxDetail } | { error: string };

export function TransactionsTable({ network, rows, highlight }: { network: string; rows: TxRow[]; highlight?: string }) {
  const parentRef = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState<Record<string, DetailState>>({});
  const highlightIndex = highlight ? rows.findIndex((r) => r.version === highlight) : -1;

  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualiser's functions are not memoised; this component owns them
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => parentRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    getItemKey: (i) => rows[i].version,
    // The server renders the first screen of rows, so a small block reads without JavaScript.
    initialRect: { width: 1200, height: 640 },
  });

  useEffect(() => {
    if (highlightIndex < 0) return;
    // At the top of the list (one row of context above it), so the page needs the least scrolling to show it.
    virtualizer.scrollToIndex(Math.max(0, highlightIndex - 1), { align: 'start' });
    // Then bring the row itself into the window (the table may start below the fold), but never so far
    // that the page's heading (the version and its block) leaves the top: on a phone the summary is tall,
    // and a jump past it left the reader in a list of rows without knowing whose.
    const t = setTimeout(() => {
      const row = parentRef.current?.querySelector(`[data-version="${rows[highlightIndex].version}"]`);
      if (!row) return;
      const below = row.getBoundingClientRect().bottom + 16 - window.innerHeight;
      if (below <= 0) return;
      const heading = document.querySelector('main h1')?.getBoundingClientRect().top ?? Infinity;
      window.scrollBy({ top: Math.min(below, Math.max(0, heading - 8)) });
    }, 50);
    return () => clearTimeout(t);
    // Only when the searched version changes; scrolling must not fight the reader afterwards.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [highlightIndex]);

  async function toggle(version: string) {
    if (open[version]) {
      setOpen(({ [version]: _closed, ...rest }) => rest);
      return;
    }
    setOpen((o) => ({ ...o, [version]: { loading: true } }));
    const r = await loadTransactionDetail(network, version);
    setOpen((o) => (o[version] ? { ...o, [version]: r.detail ? { detail: r.detail } : { error: r.error ?? 'Could not load.' } } : o));
  }

  return (
    <div className={card} role="table" aria-label="Transactions" aria-rowcount={rows.length + 1}>
      <div>
        <div role="row" className={`${COLUMNS} sr-only border-b border-line bg-sunken py-2 text-xs font-medium uppercase tracking-wide text-ink-muted lg:not-sr-only lg:grid`}>
          <span role="columnheader">Version</span>
          <span role="columnheader">Hash</span>
          <span role="columnheader">Type</span>
          <span role="columnheader">Sender</span>
          <span role="columnheader">Function and arguments</span>
          <span role="columnheader" className="text-right" title="Gas used × gas unit price (octas)">Gas × price</span>
          <span role="columnheader">Status</span>
          <span role="columnheader">Expires</span>
        </div>
        <div ref={parentRef} className="max-h-[70vh] overflow-y-auto" data-testid="tx-scroll">
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((item) => {
              const row = rows[item.index];
              const state = open[row.version];
              const isHit = item.index === highlightIndex;
              return (
                <div
                  key={item.key}
                  data-index={item.index}
                  ref={virtualizer.measureElement}
                  className="absolute left-0 top-0 w-full border-b border-line"
                  style={{ transform: `translateY(${item.start}px)` }}
                >
                  <Row row={row} isHit={isHit} expanded={!!state} onToggle={() => toggle(row.version)} index={item.index} />
                  {state && <Detail state={state} row={row} />}
                </div>
              );
            })}
          </div>
        </div>
      </div>
    </div>
  );
}

function Row({ row, isHit, expanded, onToggle, index }: { row: TxRow; isHit: boolean; expanded: boolean; onToggle: () => void; index: number }) {
  const fee = formatFee(row.gasUsed, row.gasUnitPrice);
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-current={isHit ? 'true' : undefined}
      data-version={row.version}
      data-testid={isHit ? 'tx-searched' : undefined}
      onClick={onToggle}
      className={`${COLUMNS} min-h-14 cursor-pointer gap-y-0.5 py-2 text-sm lg:items-center ${isHit ? 'bg-accent-soft shadow-[inset_3px_0_0_rgb(var(--c-accent))]' : 'hover:bg-sunken'}`}
    >
      <span role="cell" className="font-mono">
        <button type="button" aria-expanded={expanded} onClick={(e) => (e.stopPropagation(), onToggle())} className="mr-1 text-ink-muted hover:text-accent" aria-label={`${expanded ? 'Close' : 'Open'} version ${row.version}`}>
          {expanded ? '▾' : '▸'}
        </button>
        {row.version}
      </span>
      <span role="cell" className="col-span-3 row-start-2 min-w-0 truncate lg:col-span-1 lg:row-start-auto">
        <span className={stackedLabel}>Hash </span>
        {row.hash && <Hash value={row.hash} keep={4} className="" />}
      </span>
      <span role="cell" className="col-start-2 row-start-1 truncate text-ink-muted lg:col-start-auto lg:row-start-auto">
        {typeLabel(row.type)}
      </span>
      <span role="cell" className="col-span-3 row-start-3 min-w-0 truncate lg:col-span-1 lg:row-start-auto">
        <span className={stackedLabel}>Sender </span>
        {row.sender ? (
          <Hash value={row.sender} keep={4} className="" />
        ) : (
          <span className="text-ink-muted">—</span>
        )}
      </span>
      <span role="cell" className="col-span-3 row-start-4 min-w-0 lg:col-span-1 lg:row-start-auto" title={[row.action, row.typeArguments?.length ? `<${row.typeArguments.join(', ')}>` : '', row.arguments ? `(${row.arguments})` : ''].join('')}>
        <span className="block truncate">
          <span className={row.type === 'user_transaction' ? 'font-mono' : 'text-ink-muted'}>{row.action}</span>
          {row.typeArguments && row.typeArguments.length > 0 && <span className="font-mono text-ink-muted">{`<${row.typeArguments.map((t) => shortType(t)).join(', ')}>`}</span>}
        </span>
        {row.arguments !== undefined && <span className="block truncate font-mono text-xs text-ink-muted">({row.arguments})</span>}
      </span>
      <span role="cell" className="col-span-3 row-start-5 font-mono lg:col-span-1 lg:row-start-auto lg:text-right" title={fee}>
        {row.gasUsed !== undefined && <span className={`${stackedLabel} font-sans`}>Gas × price </span>}
        {row.gasUnitPrice ? `${row.gasUsed} × ${row.gasUnitPrice}` : (row.gasUsed ?? '')}
      </span>
      <span role="cell" className="col-start-3 row-start-1 truncate text-right lg:col-start-auto lg:row-start-auto lg:text-left" title={row.vmStatus}>
        {row.success === undefined ? '' : row.success ? <span className="text-positive">Success</span> : <span className="text-negative">Failed</span>}
        {row.success === false && row.vmStatus && <span className="block truncate text-xs text-negative">{abortCode(row.vmStatus)}</span>}
      </span>
      <span role="cell" className="col-span-3 row-start-6 font-mono text-xs text-ink-muted lg:col-span-1 lg:row-start-auto" data-testid="tx-expires">
        {row.expiration && <span className={`${stackedLabel} font-sans`}>Expires </span>}
        {row.expiration ? formatUnixSeconds(row.expiration) : ''}
      </span>
    </div>
  );
}

/** `Move abort in 0x1::coin: EINSUFFICIENT_BALANCE(0x10006): ...` -> `EINSUFFICIENT_BALANCE`. */
function abortCode(vmStatus: string) {
  return vmStatus.match(/\b(E[A-Z_]+)\(/)?.[1] ?? vmStatus.split(':')[0];
}

/** `0x1::aptos_coin::AptosCoin` stays; a long address in a type argument is middle-truncated. */
function shortType(t: string) {
  return t.replace(/0x[0-9a-fA-F]{16,}/g, (a) => truncateMiddle(a, 6, 4));
}

function Detail({ state, row }: { state: DetailState; row: TxRow }) {
  if ('loading' in state) return <div className="px-10 pb-3 text-sm text-ink-muted">Loading version {row.version}…</div>;
  if ('error' in state) return <div className="px-10 pb-3 text-sm text-negative">{state.error}</div>;
  const d = state.detail;
  const fee = formatFee(row.gasUsed, row.gasUnitPrice);
  return (
    <div className="grid gap-4 bg-canvas px-10 py-4 text-sm lg:grid-cols-2" data-testid={`tx-detail-${d.version}`}>
      <section>
        <h4 className="mb-2 font-medium">{typeLabel(d.type)} transaction</h4>
        <dl className="grid grid-cols-[12rem_minmax(0,1fr)] gap-x-3 gap-y-1">
          {row.vmStatus && (
            <>
              <dt className="text-ink-muted">VM status</dt>
              <dd className={row.success === false ? 'text-negative' : ''}>{row.vmStatus}</dd>
            </>
          )}
          {fee && (
            <>
              <dt className="text-ink-muted">Fee</dt>
              <dd className="font-mono">
                {row.gasUsed} × {row.gasUnitPrice} octas = {fee}
              </dd>
            </>
          )}
          {d.fields.map((f) => (
            <FieldRow key={f.label} label={f.label} value={f.value} mono={f.mono} />
          ))}
          <dt className="text-ink-muted">State changes</dt>
          <dd>{d.changes}</dd>
        </dl>
      </section>
      <section className="min-w-0 space-y-3">
        {d.payload !== undefined && <Json title="Payload" value={d.payload} />}
        {d.signature !== undefined && d.signature !== null && <Json title="Signature" value={d.signature} />}
        <div>
          <h4 className="mb-1 font-medium">Events ({d.events.length})</h4>
          {d.events.length === 0 ? (
            <p className="text-ink-muted">None.</p>
          ) : (
            <ol className="space-y-2">
              {d.events.map((e, i) => (
                <li key={i}>
                  <div className="font-mono text-xs">{e.type}</div>
                  <pre className="mt-1 max-h-48 overflow-auto rounded bg-sunken p-2 font-mono text-xs">{JSON.stringify(e.data, null, 2)}</pre>
                </li>
              ))}
            </ol>
          )}
        </div>
        {d.raw !== undefined && <Json title="As sent by the node" value={d.raw} />}
      </section>
    </div>
  );
}

function FieldRow({ label, value, mono }: { label: string; value: string; mono?: boolean }) {
  return (
    <>
      <dt className="text-ink-muted">{label}</dt>
      <dd className={`min-w-0 break-all ${mono ? 'font-mono' : ''}`}>{value}</dd>
    </>
  );
}

function Json({ title, value }: { title: string; value: unknown }) {
  return (
    <div>
      <h4 className="mb-1 font-medium">{title}</h4>
      <pre className="max-h-64 overflow-auto rounded bg-sunken p-2 font-mono text-xs">{JSON.stringify(value, null, 2)}</pre>
    </div>
  );
}
