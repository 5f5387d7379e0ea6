import { NftGridSkeleton } from '@/components/wallet/skeletons';

/** Shown the moment the NFTs tab is clicked (Next prefetches it with the link), while the page is read. */
export default function Loading() {
  return (
    <div className="mt-4">
      <NftGridSkeleton />
    </div>
  );
}
