import { previewMetadata, walletPreview } from '@/app/_og/previews';
import type { Metadata } from 'next';
import { createLoader } from 'nuqs/server';
import { Suspense } from 'react';
import { ErrorState } from '@/components/ui/error-state';
import { BalanceHeader, BalanceHeaderSkeleton } from '@/components/wallet/balance-header';
import { HistoryFirstPage } from '@/components/wallet/history-first-page';
import { HistoryToolbar } from '@/components/wallet/history-toolbar';
import { HistorySkeleton } from '@/components/wallet/skeletons';
import { loadHistoryFirstPage } from '@/lib/server/history-page';
import { chainForView, chainOptions, defaultChainName, openOnActiveChain, toChainView, walletFromParam } from '@/lib/server/page';
import { savedLabels } from '@/lib/server/saved-labels';
import { historyParsers } from '@/lib/server/view-params';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ address: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const loadHistoryParams = createLoader(historyParsers);

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { address } = await params;
  return previewMetadata(walletPreview(address, 'history'));
}

/**
 * Wallet history. The frame (heading, filters) is sent at once; the first page of rows streams in
 * behind a skeleton. Later pages are fetched in the browser (HistoryList).
 */
export default async function WalletHistoryPage({ params, searchParams }: Props) {
  const [{ address: param }, sp] = await Promise.all([params, searchParams]);
  const address = walletFromParam(param, { searchParams: sp });
  await openOnActiveChain(address, `/wallet/${address}`, sp, 'history');
  const view = loadHistoryParams(sp);
  const [chainResult, chains, defaultChain] = await Promise.all([chainForView(view.chain, 'history'), chainOptions('history'), defaultChainName('history')]);

  if ('error' in chainResult) {
    return (
      <div className="mt-6">
        <ErrorState error={chainResult.error} resetHref={`/wallet/${address}`} />
      </div>
    );
  }
  const chain = toChainView(chainResult.chain);
  // All of the signed-in person's labels (a short list), so pages loaded later in the browser use them too.
  const labels = await savedLabels();

  // The time display is not part of the API view: toggling it never refetches the rows. The rows are read
  // on the chain resolved above, named explicitly, so the header and the list always speak of one chain.
  const { time, ...serverView } = view;
  const apiView = { ...serverView, chain: chain.name };
  // The first page is read before the header's own history reads (its oldest and newest rows): on a node,
  // for a wallet never seen, those take the node from the first page (a 10,000-transaction wallet's rows
  // were streamed at 0.76-0.9 s beside them, 0.38-0.47 s before them), and the rows are what the page is for.
  const first = loadHistoryFirstPage(address, apiView, chain, labels);
  return (
    <>
      <Suspense key={chain.name} fallback={<BalanceHeaderSkeleton />}>
        <BalanceHeader address={address} chain={chain.name} after={first} />
      </Suspense>
      <HistoryToolbar address={address} chains={chains} defaultChain={defaultChain} serverView={view} />
      <Suspense key={JSON.stringify(serverView)} fallback={<div className="mt-4"><HistorySkeleton /></div>}>
        <HistoryFirstPage
          first={first}
          address={address}
          view={serverView}
          time={time}
          chain={chain}
          labels={labels}
          otherChains={chains}
        />
      </Suspense>
    </>
  );
}
