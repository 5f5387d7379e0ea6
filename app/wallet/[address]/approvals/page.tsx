import { previewMetadata, walletPreview } from '@/app/_og/previews';
import type { Metadata } from 'next';
import { createLoader } from 'nuqs/server';
import { Suspense } from 'react';
import { ErrorState } from '@/components/ui/error-state';
import { ApprovalsTable } from '@/components/wallet/approvals-table';
import { ExplorerProviders } from '@/components/wallet/explorer-providers';
import { TableSkeleton } from '@/components/wallet/skeletons';
import { TokensToolbar } from '@/components/wallet/tokens-toolbar';
import { approvalsPath, loadApprovals } from '@/lib/server/approvals-page';
import { walletTab } from '@/lib/server/page';
import { tokensParsers } from '@/lib/server/view-params';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ address: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const loadParams = createLoader(tokensParsers);

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { address } = await params;
  return previewMetadata(walletPreview(address, 'approvals'));
}

/** Who may spend the wallet's tokens now; the signed-in owner may revoke each approval here. */
export default async function WalletApprovalsPage({ params, searchParams }: Props) {
  const tab = await walletTab(params, searchParams, { suffix: '/approvals', path: approvalsPath, operation: 'nfts', view: (sp) => loadParams(sp) });
  if ('error' in tab) {
    return (
      <div className="mt-6">
        <ErrorState error={tab.error} resetHref={tab.resetHref} />
      </div>
    );
  }
  const { address, view, chains, defaultChain } = tab;
  const c = tab.chain;
  const chain = { name: c.name, label: c.label, id: c.id, query: view.chain ? `?chain=${encodeURIComponent(view.chain)}` : '' };
  return (
    <>
      <ExplorerProviders>
        <TokensToolbar address={address} chains={chains} defaultChain={defaultChain} withSpam={false} />
      </ExplorerProviders>
      <Suspense key={c.name} fallback={<TableSkeleton label="Loading approvals" />}>
        <ApprovalsTable approvals={loadApprovals(address, { chain: c.name })} address={address} chain={chain} />
      </Suspense>
    </>
  );
}
