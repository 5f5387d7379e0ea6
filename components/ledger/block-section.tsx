import { Link } from '@/components/ui/link';
import { card } from '@/components/ui/card';
import { pulse } from '@/components/ui/skeleton';
import type { LedgerNetworkName } from '@/lib/interface/ledger';
import type { LedgerBlockData } from '@/lib/server/ledger-page';
import { BlockSummary } from './block-summary';
import { LedgerError } from './ledger-error';
import { TransactionsTable } from './transactions-table';

/** The block that holds a version (streamed in below the header: a mainnet node can take a moment). */
export async function BlockSection({
  data,
  network,
  version,
  withTransactions,
  query,
}: {
  data: Promise<LedgerBlockData>;
  network: LedgerNetworkName;
  version: string;
  withTransactions: boolean;
  query: string;
}) {
  const loaded = await data;
  if ('error' in loaded) return <LedgerError error={loaded.error} />;
  const view = loaded.block;
  return (
    <>
      <BlockSummary block={view} network={network} query={query} now={loaded.now} />
      <section aria-labelledby="tx-heading" className="space-y-2">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="tx-heading" className="text-lg font-medium">
            Transactions
          </h2>
          {withTransactions ? (
            <Link href={`/ledger/${network}/versions/${version}?with_transactions=false`} className="text-sm">
              Hide transactions
            </Link>
          ) : (
            <Link href={`/ledger/${network}/versions/${version}`} className="text-sm">
              Show transactions
            </Link>
          )}
        </div>
        {view.rows ? (
          <>
            <p className="text-sm text-ink-muted">
              {view.count.toLocaleString('en-US')} transactions; version {version} is highlighted. Open a row for its payload, signature
              and events.
            </p>
            <TransactionsTable network={network} rows={view.rows} highlight={version} />
          </>
        ) : (
          <p className="text-sm text-ink-muted">Transactions are not loaded for this view.</p>
        )}
      </section>
    </>
  );
}

export function BlockSkeleton() {
  return (
    <div aria-busy="true" className="space-y-3">
      <div className={`h-40 ${pulse} ${card}`} />
      <p className="text-sm text-ink-muted">Loading the block…</p>
    </div>
  );
}
