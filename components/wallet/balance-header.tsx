import { getWalletSummary } from '@/lib/operations/wallet-balance';
import { Amount } from '@/components/ui/amount';
import { Skeleton } from '@/components/ui/skeleton';
import { Time } from '@/components/ui/time';
import { formatUnits } from '@/lib/format';
import { renderTime } from '@/lib/server/page';

/**
 * The wallet's native balance in the chain's currency, its number of transactions where the source
 * knows it, and its first and latest activity. A server component streamed behind a placeholder; a
 * failure reads as one quiet line, never as a broken page (the history below explains errors in full).
 * `after`: the history's first page on the same page, read before the header's own history reads.
 */
export async function BalanceHeader({ address, chain, after }: { address: string; chain: string | undefined; after?: Promise<unknown> }) {
  let summary;
  try {
    summary = await getWalletSummary(address, chain, after);
  } catch {
    return (
      <p className="mt-3 text-sm text-ink-muted" data-testid="balance-unavailable">
        Balance unavailable right now.
      </p>
    );
  }
  const { symbol, decimals } = summary.chain.nativeCurrency;
  const amount = formatUnits(summary.balance, decimals);
  const now = renderTime();
  return (
    <dl className="mt-3 grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-4" data-testid="balance-header">
      <div className="min-w-0">
        <dt className="text-xs text-ink-muted">Balance</dt>
        <dd className="break-all font-semibold">
          <Amount value={amount} symbol={symbol} data-testid="balance" data-wei={summary.balance} />
        </dd>
      </div>
      <div>
        <dt className="text-xs text-ink-muted">Transactions</dt>
        <dd data-testid="tx-count">
          {summary.transactionCount !== undefined ? summary.transactionCount.toLocaleString('en-US') : summary.indexing ? 'Still counting' : 'Not known'}
        </dd>
      </div>
      <div>
        <dt className="text-xs text-ink-muted">First activity</dt>
        <dd data-testid="first-activity">{summary.firstActivity ? <Time at={summary.firstActivity} now={now} show="utc" /> : 'None'}</dd>
      </div>
      <div>
        <dt className="text-xs text-ink-muted">Latest activity</dt>
        <dd data-testid="last-activity">{summary.lastActivity ? <Time at={summary.lastActivity} now={now} show="utc" /> : 'None'}</dd>
      </div>
    </dl>
  );
}

export function BalanceHeaderSkeleton() {
  return <Skeleton className="mt-3 h-12" />;
}
