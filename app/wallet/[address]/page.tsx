import { previewMetadata, walletPreview } from '@/app/_og/previews';
import type { Metadata } from 'next';
import { createLoader } from 'nuqs/server';
import { Suspense } from 'react';
import { BalanceHeader, BalanceHeaderSkeleton } from '@/components/wallet/balance-header';
import { HistoryToolbar } from '@/components/wallet/history-toolbar';
import { HistoryView, type InitialHistory } from '@/components/wallet/history-view';
import { HistorySkeleton } from '@/components/wallet/skeletons';
import { ErrorState } from '@/components/ui/error-state';
import { CoverageNote, IndexingNote } from '@/components/wallet/coverage-note';
import { historyQuerySchema, serializeHistoryPage } from '@/lib/interface/history';
import { getWalletHistory, historyCoverage, historyStillIndexing } from '@/lib/operations/wallet-history';
import { zodToBadParameter } from '@/lib/api/handler';
import { historyApiQuery, type HistoryView as ViewState } from '@/lib/view/search-params';
import { historyParsers } from '@/lib/server/view-params';
import { chainForView, chainOptions, defaultChainName, renderTime, toChainView, toErrorInfo, walletFromParam } from '@/lib/server/page';
import { describeTransaction, type ChainView, type SavedLabels } from '@/lib/view/tx-view';
import { listSavedWallets } from '@/lib/auth/saved-wallets';
import { reverseNames } from '@/lib/operations/names';
import { liveStart, liveStartAfter } from '@/lib/operations/live';
import { LiveWallet } from '@/components/live/live-wallet';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ address: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const loadHistoryParams = createLoader(historyParsers);

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { address } = await params;
  return previewMetadata(walletPreview(address, 'history'));
}

/**
 * Wallet history. The frame (heading, filters) is sent at once; the first page of rows streams in
 * behind a skeleton. Later pages are fetched in the browser (HistoryView).
 */
export default async function WalletHistoryPage({ params, searchParams }: Props) {
  const [{ address: param }, sp] = await Promise.all([params, searchParams]);
  const address = walletFromParam(param, { searchParams: sp });
  const view = loadHistoryParams(sp);
  const chainResult = chainForView(view.chain, 'history');
  const chains = chainOptions('history');

  if ('error' in chainResult) {
    return (
      <div className="mt-6">
        <ErrorState error={chainResult.error} resetHref={`/wallet/${address}`} />
      </div>
    );
  }
  const chain = toChainView(chainResult.chain);
  // All of the signed-in person's labels (a short list), so pages loaded later in the browser use them too.
  const labels: SavedLabels = Object.fromEntries((await listSavedWallets()).map((w) => [w.address.toLowerCase(), w.label]));

  // The time display is not part of the API view: toggling it never refetches the rows.
  const { time, ...serverView } = view;
  return (
    <>
      <Suspense key={chain.name} fallback={<BalanceHeaderSkeleton />}>
        <BalanceHeader address={address} chain={chain.name} />
      </Suspense>
      <HistoryToolbar address={address} chains={chains} defaultChain={defaultChainName('history')} serverView={view} />
      <Suspense key={JSON.stringify(serverView)} fallback={<div className="mt-4"><HistorySkeleton /></div>}>
        <FirstPage address={address} view={serverView} time={time} chain={chain} labels={labels} otherChains={chains} />
      </Suspense>
    </>
  );
}

async function FirstPage({
  address,
  view,
  time,
  chain,
  labels,
  otherChains,
}: {
  address: string;
  view: ViewState;
  time: 'age' | 'utc';
  chain: ChainView;
  labels: SavedLabels;
  otherChains: { name: string; label: string }[];
}) {
  let initial: InitialHistory;
  // Where the live stream starts: read before the rows, so a transaction mined meanwhile is not missed.
  const liveFrom = await liveStart(chain.name).catch(() => null);
  try {
    // The same validation as the published API, so a bad URL reads exactly like a bad API call.
    const parsed = historyQuerySchema.safeParse(historyApiQuery(view));
    if (!parsed.success) throw zodToBadParameter(parsed.error);
    const page = serializeHistoryPage(await getWalletHistory(address, parsed.data));
    initial = { ok: true, page, rows: [] };
  } catch (e) {
    initial = { ok: false, error: await toErrorInfo(e) };
  }
  // ENS names exist for mainnet addresses; a devnet's accounts have none.
  const ens =
    initial.ok && chain.name !== 'devnet'
      ? await reverseNames(initial.page.result.flatMap((tx) => [tx.from_address, tx.to_address].filter((a): a is string => !!a && a.toLowerCase() !== address.toLowerCase())))
      : {};
  // The rows are described here, so the browser shows them without downloading the describing code.
  if (initial.ok) initial = { ...initial, rows: initial.page.result.map((tx) => describeTransaction(tx, address, chain, labels, ens)) };
  // On a node that cannot find every transaction of the rule, the page says which ones it does not show.
  const [missing, indexing] = initial.ok
    ? await Promise.all([historyCoverage().then((c) => c?.missing ?? null, () => null), historyStillIndexing(address, chain.name).catch(() => false)])
    : [null, false];
  return (
    <>
      {missing ? <CoverageNote missing={missing} /> : null}
      {indexing ? <IndexingNote /> : null}
      {initial.ok && <LiveWallet address={address} chain={chain.name} since={liveFrom ?? liveStartAfter(initial.page)} view="history" />}
      <HistoryView address={address} chain={chain} serverView={view} serverTime={time} initial={initial} labels={labels} ensNames={ens} now={renderTime()} otherChains={otherChains} />
    </>
  );
}
