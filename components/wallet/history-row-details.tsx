'use client';

import { Link } from '@/components/ui/link';
import { formatUtc, groupThousands, truncateMiddle } from '@/lib/format';
import { type ChainView, type Transfer, type TxView } from '@/lib/view/tx-view';
import { statusWord } from '@/lib/view/tx-status';
import { Amount } from '@/components/ui/amount';
import { CopyButton } from '@/components/ui/copy-button';
import { Hash } from '@/components/ui/hash';
import { card } from '@/components/ui/card';

/** A history row's details: the transaction's facts and every transfer in it. */
export default function TxDetails({ tx, chain }: { tx: TxView; chain: ChainView }) {
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
        <dd data-testid="row-status">{tx.failed ? <span className="text-negative">{statusWord(true)}</span> : statusWord(false)}</dd>
        <dt className="text-ink-muted">Block</dt>
        <dd className="tabular-nums">{groupThousands(tx.block)}</dd>
        <dt className="text-ink-muted">Time</dt>
        <dd className="tabular-nums">{formatUtc(tx.timestamp)}</dd>
        <dt className="text-ink-muted">Method</dt>
        <dd className="font-mono text-xs" data-testid="row-method">
          {tx.method ?? '—'}
        </dd>
        <dt className="text-ink-muted">From</dt>
        <dd className="min-w-0 break-all font-mono text-xs">{tx.from}</dd>
        <dt className="text-ink-muted">To</dt>
        <dd className="min-w-0 break-all font-mono text-xs">{tx.to ?? 'contract creation'}</dd>
        <dt className="text-ink-muted">Fee</dt>
        <dd className="tabular-nums">
          {tx.fee ? (
            <>
              <Amount value={tx.fee} symbol={chain.symbol} full />
              {tx.feePaidByWallet ? ' (paid by this wallet)' : ''}
            </>
          ) : (
            '—'
          )}
        </dd>
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
                  <ShortHash value={c.from} />
                  <span aria-label="to">→</span>
                  <ShortHash value={c.to} />
                  <span className="ml-auto tabular-nums">{c.value && <Amount value={c.value} symbol={chain.symbol} />}</span>
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
        <ShortHash value={t.from} />
        <span aria-label="to">→</span>
        <ShortHash value={t.to} />
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

/** A party of a transfer or call: truncated with its copy button, or a dash when there is none. */
function ShortHash({ value }: { value: string | null }) {
  return value ? <Hash value={value} keep={4} className="text-xs" copyLabel={`Copy address ${value}`} /> : <span className="text-ink-muted">—</span>;
}
