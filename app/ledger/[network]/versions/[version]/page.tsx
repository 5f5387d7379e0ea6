import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { userAgent } from 'next/server';
import { Suspense } from 'react';
import { blockPreview, previewMetadata } from '@/app/_og/previews';
import { PageShell } from '@/components/layout/page-shell';
import { BlockSection, BlockSkeleton } from '@/components/ledger/block-section';
import { LedgerError } from '@/components/ledger/ledger-error';
import { LedgerHeader } from '@/components/ledger/ledger-header';
import { ledgerPageRoute, loadLedgerBlock } from '@/lib/server/ledger-page';

type Props = {
  params: Promise<{ network: string; version: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/**
 * A link-preview bot waits for the head, so it gets the block read from its node; a person's browser is
 * given the head from the block cache only (else the version asked for): the router waits for the head
 * before a navigation lands, and a prefetch renders it too, so a slow node would hold the click and every
 * link to a block would ask the node for it.
 */
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { network, version } = await params;
  const { isBot } = userAgent({ headers: await headers() });
  return previewMetadata(await blockPreview(network, version, { cachedOnly: !isBot }));
}

export default async function LedgerVersionPage({ params, searchParams }: Props) {
  const { network, version } = await params;
  const route = ledgerPageRoute(network, version, (await searchParams).with_transactions);
  const { target, withTransactions, query } = route;
  // The header answers at once; the block streams in below it (a mainnet node can take a moment).
  return (
    <PageShell className="space-y-5">
      <LedgerHeader route={route} />
      {route.failure && <LedgerError error={route.failure} />}
      {!route.failure && target && (
        <Suspense key={`${target.network}/${target.version}/${withTransactions}`} fallback={<BlockSkeleton />}>
          <BlockSection data={loadLedgerBlock(target.network, target.version, withTransactions)} network={target.network} version={target.version} withTransactions={withTransactions} query={query} />
        </Suspense>
      )}
    </PageShell>
  );
}
