import { previewMetadata, walletPreview } from '@/app/_og/previews';
import type { Metadata } from 'next';
import { createLoader } from 'nuqs/server';
import { Suspense } from 'react';
import { ErrorState } from '@/components/ui/error-state';
import { ActivityCharts } from '@/components/wallet/activity-charts';
import { ExplorerProviders } from '@/components/wallet/explorer-providers';
import { TableSkeleton } from '@/components/wallet/skeletons';
import { TokensToolbar } from '@/components/wallet/tokens-toolbar';
import { activityPath, loadActivity } from '@/lib/server/activity-page';
import { toChainView, walletTab } from '@/lib/server/page';
import { tokensParsers } from '@/lib/server/view-params';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ address: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const loadParams = createLoader(tokensParsers);

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { address } = await params;
  return previewMetadata(walletPreview(address, 'activity'));
}

/** Pictures of the wallet's history: transactions per month and category, the native balance over time. */
export default async function WalletActivityPage({ params, searchParams }: Props) {
  const tab = await walletTab(params, searchParams, { suffix: '/activity', path: activityPath, operation: 'history', view: (sp) => loadParams(sp) });
  if ('error' in tab) {
    return (
      <div className="mt-6">
        <ErrorState error={tab.error} resetHref={tab.resetHref} />
      </div>
    );
  }
  const { address, chains, defaultChain } = tab;
  const chain = toChainView(tab.chain);
  return (
    <>
      <ExplorerProviders>
        <TokensToolbar address={address} chains={chains} defaultChain={defaultChain} withSpam={false} />
      </ExplorerProviders>
      <Suspense key={chain.name} fallback={<TableSkeleton label="Loading activity" />}>
        <ActivityCharts data={loadActivity(address, chain)} address={address} />
      </Suspense>
    </>
  );
}
