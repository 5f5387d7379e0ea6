import { previewMetadata, walletPreview } from '@/app/_og/previews';
import type { Metadata } from 'next';
import { createLoader } from 'nuqs/server';
import { Suspense } from 'react';
import { ErrorState } from '@/components/ui/error-state';
import { ExplorerProviders } from '@/components/wallet/explorer-providers';
import { TableSkeleton } from '@/components/wallet/skeletons';
import { TokensTable } from '@/components/wallet/tokens-table';
import { TokensToolbar } from '@/components/wallet/tokens-toolbar';
import { walletTab } from '@/lib/server/page';
import { historyFiltersByToken } from '@/lib/operations/wallet-history';
import { loadTokens, tokensPath } from '@/lib/server/tokens-page';
import { tokensParsers } from '@/lib/server/view-params';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ address: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const loadTokensParams = createLoader(tokensParsers);

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { address } = await params;
  return previewMetadata(walletPreview(address, 'tokens'));
}

/** What the wallet holds now: the native coin, then each ERC-20 (spam hidden unless asked). */
export default async function WalletTokensPage({ params, searchParams }: Props) {
  const tab = await walletTab(params, searchParams, { suffix: '/tokens', path: tokensPath, operation: 'nfts', view: (sp) => loadTokensParams(sp) });
  if ('error' in tab) {
    return (
      <div className="mt-6">
        <ErrorState error={tab.error} resetHref={tab.resetHref} />
      </div>
    );
  }
  const { address, view, chains, defaultChain } = tab;
  // Each row links to its transfers in the history where the history can be filtered by token (node mode).
  const historyByToken = await historyFiltersByToken(tab.chain.name).catch(() => false);
  return (
    <>
      <ExplorerProviders>
        <TokensToolbar address={address} chains={chains} defaultChain={defaultChain} withSpam />
      </ExplorerProviders>
      <Suspense key={JSON.stringify(view)} fallback={<TableSkeleton label="Loading tokens" />}>
        <TokensTable tokens={loadTokens(address, { ...view, chain: tab.chain.name })} address={address} view={view} chainLabel={tab.chain.label} historyChain={historyByToken ? tab.chain.name : null} />
      </Suspense>
    </>
  );
}
