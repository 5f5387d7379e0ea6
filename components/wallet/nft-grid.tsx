import { Link } from '@/components/ui/link';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { PageNumber, Pager, PagerLink } from '@/components/ui/pager';
import { nftsPath, type NftGridData, type NftView } from '@/lib/server/nfts-page';
import type { ErrorInfo } from '@/lib/view/error-copy';
import { serializeNftParams } from '@/lib/server/view-params';
import { NftCard } from './nft-card';
import { NftGridSkeleton } from './skeletons';
import { SyncingBanner } from './syncing-banner';

/** A page of a wallet's NFTs (streamed in behind a skeleton), with its pager, or why there is none. */
export async function NftGrid({ grid, address, view, chainLabel }: { grid: Promise<NftGridData | { error: ErrorInfo }>; address: string; view: NftView; chainLabel: string }) {
  const page = await grid;
  const base = nftsPath(address);
  if ('error' in page) return <ErrorState error={page.error} resetHref={base} />;
  const { cards, filtered } = page;
  const pageNumber = view.cursor.length + 1;
  const href = (patch: Partial<NftView>) => serializeNftParams(base, { ...view, ...patch });

  return (
    <>
      {page.status === 'SYNCING' && <SyncingBanner />}
      {cards.length === 0 && page.status === 'SYNCING' ? (
        // Nothing found yet is not "no NFTs": that is said only once the source is done and found none.
        <NftGridSkeleton cards={4} />
      ) : cards.length === 0 ? (
        <EmptyState title={pageNumber > 1 ? 'No more NFTs' : filtered ? 'No NFTs from these contracts' : `No NFTs on ${chainLabel}`}>
            {filtered ? 'This wallet holds nothing from the contracts in the filter. ' : `This wallet holds no NFTs on ${chainLabel}${view.spam ? '' : ' (possible spam hidden)'}. `}
            {filtered ? <Link className="underline" href={href({ contract: [], cursor: [] })}>Clear the filter</Link> : !view.spam ? <Link className="underline" href={href({ spam: true, cursor: [] })}>Show possible spam</Link> : null}
        </EmptyState>
      ) : (
        <ul aria-label={`NFTs, page ${pageNumber}`} className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
          {cards.map((card) => (
            <NftCard key={card.key} nft={card} />
          ))}
        </ul>
      )}
      {(pageNumber > 1 || page.cursor) && (
        <Pager>
          {pageNumber > 1 && (
            <PagerLink href={href({ cursor: view.cursor.slice(0, -1) })} rel="prev">
              ← Previous
            </PagerLink>
          )}
          <PageNumber n={pageNumber} />
          {page.cursor && (
            <PagerLink href={href({ cursor: [...view.cursor, page.cursor] })} rel="next">
              Next →
            </PagerLink>
          )}
        </Pager>
      )}
    </>
  );
}
