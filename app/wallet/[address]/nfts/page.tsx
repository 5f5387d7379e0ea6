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
import { chainForView, chainOptions, defaultChainName, openOnActiveChain, walletFromParam } from '@/lib/server/page';
import { nftParsers } from '@/lib/server/view-params';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ address: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const loadNftParams = createLoader(nftParsers);

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { address } = await params;
  return previewMetadata(walletPreview(address, 'nfts'));
}

export default async function WalletNftsPage({ params, searchParams }: Props) {
  const [{ address: param }, sp] = await Promise.all([params, searchParams]);
  const address = walletFromParam(param, { suffix: '/nfts', searchParams: sp });
  await openOnActiveChain(address, nftsPath(address), sp, 'nfts');
  const view = loadNftParams(sp);
  const [chainResult, chains, defaultChain] = await Promise.all([chainForView(view.chain, 'nfts'), chainOptions('nfts'), defaultChainName('nfts')]);
  if ('error' in chainResult) {
    return (
      <div className="mt-6">
        <ErrorState error={chainResult.error} resetHref={nftsPath(address)} />
      </div>
    );
  }
  // The balance header reads the history operation: shown where this server serves it for the chain.
  const withHistory = !('error' in (await chainForView(chainResult.chain.name, 'history')));
  return (
    <>
      {withHistory && (
        <>
          <Suspense key={chainResult.chain.name} fallback={<BalanceHeaderSkeleton />}>
            <BalanceHeader address={address} chain={chainResult.chain.name} />
          </Suspense>
          {/* New transactions read the NFTs (and the balance) again. */}
          <LiveWalletAt since={liveSince(chainResult.chain.name)} address={address} chain={chainResult.chain.name} view="nfts" />
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
          <NftGrid grid={loadNftGrid(address, view)} address={address} view={view} chainLabel={chainResult.chain.label} />
        </Suspense>
      </section>
    </>
  );
}
