'use client';

import Link from 'next/link';
import { useId, useState } from 'react';
import { formatAge, formatUtc, groupThousands, truncateMiddle } from '@/lib/format';
import { DIRECTION_LABEL, movementLine, type ChainView, type Transfer, type TxView } from '@/lib/view/tx-view';
import { CopyButton } from '@/components/ui/copy-button';
import { PartyName } from './party';
import { card } from '@/components/ui/card';

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
          <PartyName party={tx.counterparty} />
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
          {tx.feePaidByWallet && tx.fee && (
            <span className="block text-xs text-ink-muted" data-role="fee">
              fee {tx.fee.text} {chain.symbol}
            </span>
          )}
        </div>

        <div className="col-start-1 row-start-3 self-center text-xs text-ink-muted tabular-nums md:col-start-auto md:row-start-auto md:text-sm" data-role="time">
          <time dateTime={tx.timestamp} title={formatUtc(tx.timestamp)}>
            {time === 'utc' ? formatUtc(tx.timestamp) : formatAge(tx.timestamp, now)}
          </time>
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
        {open && <TxDetails tx={tx} chain={chain} />}
      </div>
    </li>
  );
}

function TxDetails({ tx, chain }: { tx: TxView; chain: ChainView }) {
  const explorer = chain.explorerUrl?.replace(/\/+$/, '');
  return (
    <div className="space-y-4 text-sm">
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1">
        <dt className="text-ink-muted">Hash</dt>
        <dd className="flex min-w-0 items-center gap-1">
          <span className="min-w-0 break-all font-mono text-xs">{tx.hash}</span>
          <CopyButton value={tx.hash} label="Copy transaction hash" />
        </dd>
        <dt className="text-ink-muted">Status</dt>
        <dd>{tx.failed ? <span className="text-negative">Failed (reverted)</span> : 'Succeeded'}</dd>
        <dt className="text-ink-muted">Block</dt>
        <dd className="tabular-nums">{groupThousands(tx.block)}</dd>
        <dt className="text-ink-muted">Time</dt>
        <dd className="tabular-nums">{formatUtc(tx.timestamp)}</dd>
        <dt className="text-ink-muted">Method</dt>
        <dd className="font-mono text-xs">{tx.method ?? '—'}</dd>
        <dt className="text-ink-muted">From</dt>
        <dd className="min-w-0 break-all font-mono text-xs">{tx.from}</dd>
        <dt className="text-ink-muted">To</dt>
        <dd className="min-w-0 break-all font-mono text-xs">{tx.to ?? 'contract creation'}</dd>
        <dt className="text-ink-muted">Fee</dt>
        <dd className="tabular-nums">{tx.fee ? `${tx.fee.full} ${chain.symbol}${tx.feePaidByWallet ? ' (paid by this wallet)' : ''}` : '—'}</dd>
        {tx.nonce !== null && (
          <>
            <dt className="text-ink-muted">Nonce</dt>
            <dd className="tabular-nums">{tx.nonce}</dd>
          </>
        )}
      </dl>

      {tx.transfers.length > 0 && (
        <div>
          <h3 className="text-xs font-semibold uppercase tracking-wide text-ink-muted">Transfers ({tx.transfers.length})</h3>
          <ul className={`mt-1 divide-y divide-line ${card}`}>
            {tx.transfers.map((t, i) => (
              <TransferLine key={i} t={t} />
            ))}
          </ul>
        </div>
      )}

      {tx.internalCalls && (
        <div>
          <h3 className="text-xs font-semibold uppercase tracking-wide text-ink-muted">Internal transactions ({tx.internalCalls.length})</h3>
          {tx.internalCalls.length === 0 ? (
            <p className="mt-1 text-ink-muted">None.</p>
          ) : (
            <ul className={`mt-1 divide-y divide-line ${card}`}>
              {tx.internalCalls.map((c, i) => (
                <li key={i} className="flex flex-wrap items-center gap-x-2 px-3 py-1.5">
                  <span className="text-xs text-ink-muted">{c.type ?? 'CALL'}</span>
                  <span className="font-mono text-xs" title={c.from ?? ''}>{c.from ? truncateMiddle(c.from) : '—'}</span>
                  <span aria-label="to">→</span>
                  <span className="font-mono text-xs" title={c.to ?? ''}>{c.to ? truncateMiddle(c.to) : '—'}</span>
                  <span className="ml-auto tabular-nums">{c.value ? `${c.value.text} ${chain.symbol}` : ''}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}

      <p>
        <Link href={`/tx/${tx.hash}?chain=${encodeURIComponent(chain.name)}`} data-testid="tx-page-link">
          Open the transaction page
        </Link>
      </p>
      {explorer ? (
        <p className="flex flex-wrap gap-x-4">
          <a href={`${explorer}/tx/${tx.hash}`} target="_blank" rel="noopener noreferrer">
            View transaction on {chain.label}’s explorer
          </a>
          <a href={`${explorer}/block/${tx.block}`} target="_blank" rel="noopener noreferrer">
            Block {groupThousands(tx.block)}
          </a>
        </p>
      ) : (
        <p className="text-ink-muted">{chain.label} has no public block explorer.</p>
      )}
    </div>
  );
}

const KIND_LABEL: Record<Transfer['kind'], string> = { native: 'Native', erc20: 'ERC-20', erc721: 'ERC-721', erc1155: 'ERC-1155' };

function TransferLine({ t }: { t: Transfer }) {
  const tone = t.direction === 'in' ? 'text-positive' : t.direction === 'out' ? 'text-negative' : '';
  const asset =
    t.kind === 'erc721' || t.kind === 'erc1155'
      ? `${t.kind === 'erc1155' ? `${t.amount?.text ?? '1'} × ` : ''}#${t.tokenId ?? '?'}`
      : `${t.amount?.full ?? '?'} ${t.symbol ?? ''}`;
  return (
    <li className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-3 px-3 py-1.5">
      <span className="flex min-w-0 flex-wrap items-center gap-x-2">
        <span className="text-xs text-ink-muted">
          {KIND_LABEL[t.kind]}
          {t.internal ? ' · internal' : ''}
        </span>
        <span className="font-mono text-xs" title={t.from ?? ''}>{t.from ? truncateMiddle(t.from) : '—'}</span>
        <span aria-label="to">→</span>
        <span className="font-mono text-xs" title={t.to ?? ''}>{t.to ? truncateMiddle(t.to) : '—'}</span>
        {t.tokenAddress && (
          <span className="text-xs text-ink-muted" title={t.tokenAddress}>
            {t.tokenName ?? truncateMiddle(t.tokenAddress)}
          </span>
        )}
        {t.spam && <span className="text-xs text-warning">possible spam</span>}
      </span>
      <span className={`break-all text-right tabular-nums ${tone}`}>{asset}</span>
    </li>
  );
}
