import type { HistoryFirstPageData } from '@/lib/server/history-page';
import type { HistoryView } from '@/lib/view/search-params';
import type { ChainView, SavedLabels } from '@/lib/view/tx-view';
import { LiveWallet } from '@/components/live/live-wallet';
import { CoverageNote, IndexingNote } from './coverage-note';
import { HistoryList } from './history-list';

/** The history's first page as the server read it (streamed in behind a skeleton), with what the node cannot show. */
export async function HistoryFirstPage({
  first,
  address,
  view,
  time,
  chain,
  labels,
  otherChains,
}: {
  first: Promise<HistoryFirstPageData>;
  address: string;
  view: HistoryView;
  time: 'age' | 'utc';
  chain: ChainView;
  labels: SavedLabels;
  otherChains: { name: string; label: string }[];
}) {
  const { initial, ens, missing, indexing, now, live } = await first;
  return (
    <>
      {missing ? <CoverageNote missing={missing} /> : null}
      {indexing ? <IndexingNote /> : null}
      {live !== null && <LiveWallet address={address} chain={chain.name} since={live} view="history" />}
      <HistoryList address={address} chain={chain} serverView={view} serverTime={time} initial={initial} labels={labels} ensNames={ens} now={now} otherChains={otherChains} />
    </>
  );
}
