import { previewMetadata, walletPreview } from '@/app/_og/previews';
import type { Metadata } from 'next';
import { createLoader } from 'nuqs/server';
import { Suspense } from 'react';
import { ErrorState } from '@/components/ui/error-state';
import { BalanceHeader, BalanceHeaderSkeleton } from '@/components/wallet/balance-header';
import { ExplorerProviders } from '@/components/wallet/explorer-providers';
import { NftGrid } from '@/components/wallet/nft-grid';
import { NftToolbar } from '@/components/wallet/nft-toolbar';
import { NftGridSkeleton } from '@/components/wallet/skeletons';
import { LiveWalletAt } from '@/components/live/live-wallet-at';
import { loadNftGrid, nftsPath } from '@/lib/server/nfts-page';
import { liveSince } from '@/lib/server/live';
import { chainForView, walletTab } from '@/lib/server/page';
import { nftParsers } from '@/lib/server/view-params';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ address: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const loadNftParams = createLoader(nftParsers);

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { address } = await params;
  return previewMetadata(walletPreview(address, 'nfts'));
}

export default async function WalletNftsPage({ params, searchParams }: Props) {
  const tab = await walletTab(params, searchParams, { suffix: '/nfts', path: nftsPath, operation: 'nfts', view: (sp) => loadNftParams(sp) });
  if ('error' in tab) {
    return (
      <div className="mt-6">
        <ErrorState error={tab.error} resetHref={tab.resetHref} />
      </div>
    );
  }
  const { address, view, chains, defaultChain } = tab;
  // The balance header reads the history operation: shown where this server serves it for the chain.
  const withHistory = !('error' in (await chainForView(tab.chain.name, 'history')));
  return (
    <>
      {withHistory && (
        <>
          <Suspense key={tab.chain.name} fallback={<BalanceHeaderSkeleton />}>
            <BalanceHeader address={address} chain={tab.chain.name} />
          </Suspense>
          {/* New transactions read the NFTs (and the balance) again. */}
          <LiveWalletAt since={liveSince(tab.chain.name)} address={address} chain={tab.chain.name} view="nfts" />
        </>
      )}
      <ExplorerProviders>
        <NftToolbar address={address} chains={chains} defaultChain={defaultChain} />
      </ExplorerProviders>
      <section aria-labelledby="nft-heading" className="mt-4">
        <h2 id="nft-heading" className="sr-only">
          NFTs held
        </h2>
        <Suspense key={JSON.stringify(view)} fallback={<NftGridSkeleton />}>
          <NftGrid grid={loadNftGrid(address, view)} address={address} view={view} chainLabel={tab.chain.label} />
        </Suspense>
      </section>
    </>
  );
}
