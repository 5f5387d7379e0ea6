import type { Metadata } from 'next';
import { previewMetadata, txPreview } from '@/app/_og/previews';
import { PageShell } from '@/components/layout/page-shell';
import { TxDetails } from '@/components/tx/tx-details';
import { CopyButton } from '@/components/ui/copy-button';
import { ErrorState } from '@/components/ui/error-state';
import { PendingTxLive } from '@/components/live/pending-tx';
import { loadTxPage } from '@/lib/server/tx-page';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ hash: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { hash } = await params;
  return previewMetadata(txPreview(hash), { image: false });
}

/** One transaction, linkable: `/tx/{hash}?chain=` (an unknown or malformed hash: ./not-found.tsx). */
export default async function TransactionPage({ params, searchParams }: Props) {
  const [{ hash: param }, sp] = await Promise.all([params, searchParams]);
  const chain = typeof sp.chain === 'string' ? sp.chain : null;
  const loaded = await loadTxPage(param, chain);
  return (
    <PageShell>
      <p className="text-xs font-medium uppercase tracking-wide text-ink-muted">Transaction</p>
      <h1 className="mt-1 flex min-w-0 items-start gap-1 text-lg font-semibold">
        <span className="min-w-0 break-all font-mono" data-testid="tx-hash">
          {param}
        </span>
        <CopyButton value={param} label="Copy transaction hash" />
      </h1>
      <div className="mt-4">
        {'error' in loaded ? (
          <>
            <ErrorState error={loaded.error} />
            {/* A pending transaction's page turns into the mined one by itself. */}
            {loaded.error.code === 'transaction_pending' && <PendingTxLive chain={chain} />}
          </>
        ) : (
          <TxDetails {...loaded} />
        )}
      </div>
    </PageShell>
  );
}
