'use client';

import { lazy, Suspense, useId, useState } from 'react';
import { truncateMiddle } from '@/lib/format';
import { DIRECTION_LABEL, movementLine } from '@/lib/view/tx-row';
import type { ChainView, Party, TxView } from '@/lib/view/tx-view';
import { AddressLink } from '@/components/ui/address-link';
import { Amount } from '@/components/ui/amount';
import { Time } from '@/components/ui/time';
import { Logo } from './logo';

// A row's details (every transfer, the call's parties) load when a person first opens one.
const TxDetails = lazy(() => import('./history-row-details'));

const DIRECTION_TONE: Record<TxView['direction'], string> = {
  in: 'text-positive',
  out: 'text-negative',
  swap: 'text-ink',
  self: 'text-ink-muted',
};

// "Sent · send" says nothing twice; other categories (token swap, airdrop, mint...) add information.
const REDUNDANT: Partial<Record<TxView['direction'], string[]>> = { out: ['send'], in: ['receive'] };

/** One transaction, as a line of a statement; expands to every transfer in it. */
export function HistoryRow({ tx, chain, time, now }: { tx: TxView; chain: ChainView; time: 'age' | 'utc'; now: number }) {
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  const lines = tx.movements.filter((m) => m.direction !== 'self');
  const shown = lines.slice(0, 2);
  const more = lines.length - shown.length;
  return (
    <li
      className="border-t border-line first:border-t-0"
      data-tx-hash={tx.hash}
      data-direction={tx.direction}
      data-counterparty={tx.counterparty?.address?.toLowerCase() ?? ''}
    >
      <div className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 px-4 py-3 md:grid-cols-[minmax(0,1.4fr)_minmax(0,1fr)_minmax(8rem,auto)_7.5rem_auto] md:items-center">
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-x-2 text-sm">
            <span className={`font-medium ${DIRECTION_TONE[tx.direction]}`} data-role="direction">
              {DIRECTION_LABEL[tx.direction]}
            </span>
            {!REDUNDANT[tx.direction]?.includes(tx.category) && <span className="text-ink-muted">{tx.category}</span>}
            {tx.failed && <span className="rounded border border-negative px-1 text-xs font-medium text-negative">Failed</span>}
            {tx.spam && <span className="rounded bg-warning-soft px-1 text-xs font-medium text-warning">Possible spam</span>}
          </p>
          {tx.summary && <p className="truncate text-sm text-ink" title={tx.summary}>{tx.summary}</p>}
        </div>

        <div className="col-span-2 row-start-2 min-w-0 text-sm md:col-span-1 md:row-start-auto" data-role="counterparty">
          <span className="sr-only md:hidden">Counterparty: </span>
          <Counterparty party={tx.counterparty} />
        </div>

        <div className="col-start-2 row-start-1 text-right text-sm tabular-nums md:col-start-auto md:row-start-auto" data-role="amount">
          {shown.length === 0 ? (
            <span className="text-ink-muted">—</span>
          ) : (
            shown.map((m, i) => (
              <span key={i} className={`block whitespace-nowrap ${m.direction === 'in' ? 'text-positive' : m.direction === 'out' ? 'text-negative' : ''}`} title={m.amount && !m.amount.exact ? m.amount.full : undefined}>
                {movementLine(m)}
              </span>
            ))
          )}
          {more > 0 && <span className="block text-xs text-ink-muted">+{more} more</span>}
          {tx.checking && (
            // One line where an internal transfer would show, so the row keeps its height when they come.
            <span className="block whitespace-nowrap text-sm text-ink-muted" data-role="checking" data-state={tx.checking}>
              {tx.checking === 'checking' ? 'checking internal transfers…' : 'internal transfers not checked'}
            </span>
          )}
          {tx.feePaidByWallet && tx.fee && (
            <span className="block text-xs text-ink-muted" data-role="fee">
              fee <Amount value={tx.fee} symbol={chain.symbol} />
            </span>
          )}
        </div>

        <div className="col-start-1 row-start-3 self-center text-xs text-ink-muted tabular-nums md:col-start-auto md:row-start-auto md:text-sm" data-role="time">
          <Time at={tx.timestamp} now={now} show={time} />
        </div>

        <div className="col-start-2 row-start-3 flex justify-end md:col-start-auto md:row-start-auto">
          <button
            type="button"
            aria-expanded={open}
            aria-controls={detailsId}
            onClick={() => setOpen((o) => !o)}
            className="inline-flex items-center gap-1 rounded px-2 py-1 text-xs text-ink-muted hover:bg-sunken hover:text-ink"
          >
            <span className="sr-only">{open ? 'Hide details of' : 'Show details of'} transaction {truncateMiddle(tx.hash, 10, 6)}</span>
            <span aria-hidden="true">Details</span>
            <svg aria-hidden="true" width="10" height="10" viewBox="0 0 10 10" className={open ? 'rotate-180' : ''}>
              <path d="M1 3l4 4 4-4" fill="none" stroke="currentColor" strokeWidth="1.4" />
            </svg>
          </button>
        </div>
      </div>
      <div id={detailsId} hidden={!open} className="border-t border-line bg-sunken/50 px-4 py-3">
        {open && (
          <Suspense fallback={<p className="text-sm text-ink-muted">Loading…</p>}>
            <TxDetails tx={tx} chain={chain} />
          </Suspense>
        )}
      </div>
    </li>
  );
}

/**
 * The counterparty as a person reads it: their own saved label first, then the source's label or
 * entity (with its logo), then its ENS name, else the address.
 */
function Counterparty({ party }: { party: Party | null }) {
  if (!party) return <AddressLink address={null} />;
  const notes = [...(party.special === 'creation' ? ['created'] : []), ...(party.labelSource === 'saved' ? ['saved'] : [])];
  return (
    <AddressLink
      address={party.address}
      label={party.label}
      special={party.special === 'mint' || party.special === 'burn' ? party.special : null}
      logo={party.logo && party.labelSource !== 'saved' ? <Logo src={party.logo} /> : undefined}
      notes={notes}
    />
  );
}
