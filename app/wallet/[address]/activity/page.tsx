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
import { chainForView, chainOptions, defaultChainName, openOnActiveChain, toChainView, walletFromParam } from '@/lib/server/page';
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
  const [{ address: param }, sp] = await Promise.all([params, searchParams]);
  const address = walletFromParam(param, { suffix: '/activity', searchParams: sp });
  await openOnActiveChain(address, activityPath(address), sp, 'history');
  const view = loadParams(sp);
  const [chainResult, chains, defaultChain] = await Promise.all([chainForView(view.chain, 'history'), chainOptions('history'), defaultChainName('history')]);
  if ('error' in chainResult) {
    return (
      <div className="mt-6">
        <ErrorState error={chainResult.error} resetHref={activityPath(address)} />
      </div>
    );
  }
  const chain = toChainView(chainResult.chain);
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
