'use client';

import { useEffect, useRef, useState } from 'react';
import { card } from '@/components/ui/card';
import type { NftCardView } from '@/lib/view/nft-media';

/** An image on screen this long without arriving is given up on: the card shows its name instead of waiting forever. */
const IMAGE_TIMEOUT_MS = 15_000;

/**
 * One NFT. The image goes only into <img> (SVG scripts never run there), loads lazily with no referrer,
 * and any failure (404, not an image, too slow) leaves a calm card with the name instead of a
 * broken-image icon. "Too slow" is timed only while the image is on screen: a lazy image below the fold
 * has not been asked for yet, and a timer running there failed images that load fine when scrolled to.
 */
export function NftCard({ nft }: { nft: NftCardView }) {
  const [failed, setFailed] = useState(!nft.image);
  const img = useRef<HTMLImageElement>(null);

  useEffect(() => {
    const el = img.current;
    // An image that failed before hydration fires no onError for React to see.
    if (el && el.complete && el.naturalWidth === 0 && el.currentSrc) setFailed(true);
    if (!el || !nft.image) return;
    let t: ReturnType<typeof setTimeout> | undefined;
    const seen = new IntersectionObserver(([entry]) => {
      clearTimeout(t);
      if (!entry?.isIntersecting || el.complete) return;
      t = setTimeout(() => {
        if (!el.complete) setFailed(true);
      }, IMAGE_TIMEOUT_MS);
    });
    seen.observe(el);
    return () => {
      seen.disconnect();
      clearTimeout(t);
    };
  }, [nft.image]);

  return (
    <li className={`flex min-w-0 flex-col overflow-hidden ${card}`} data-contract={nft.contract.toLowerCase()} data-token-id={nft.tokenId} data-spam={nft.spam ? 'true' : 'false'}>
      <div className="relative aspect-square bg-sunken">
        {!failed && nft.image ? (
          // eslint-disable-next-line @next/next/no-img-element -- untrusted third-party media of any host: never through an optimiser
          <img
            ref={img}
            src={nft.image}
            alt={nft.name}
            loading="lazy"
            decoding="async"
            referrerPolicy="no-referrer"
            onError={() => setFailed(true)}
            className="h-full w-full object-contain"
            data-role="nft-image"
          />
        ) : (
          <div className="flex h-full w-full items-center justify-center p-4 text-center" data-role="nft-fallback">
            <span className="break-words text-sm font-medium text-ink-muted">{nft.name}</span>
          </div>
        )}
        {nft.spam && <span className="absolute left-2 top-2 rounded bg-warning-soft px-1.5 text-xs font-medium text-warning">Possible spam</span>}
      </div>
      <div className="flex min-w-0 flex-1 flex-col gap-0.5 p-3 text-sm">
        <p className="truncate font-medium" title={nft.name} data-role="nft-name">
          {nft.name}
        </p>
        <p className="truncate text-xs text-ink-muted" title={`${nft.collection} · ${nft.contract}`}>
          {nft.collection}
        </p>
        <p className="flex min-w-0 items-baseline justify-between gap-2 text-xs text-ink-muted">
          <span className="min-w-0 truncate font-mono tabular-nums" title={nft.tokenId} data-role="token-id">
            #{nft.tokenId}
          </span>
          {nft.amount && nft.amount !== '1' && <span className="tabular-nums">×{nft.amount}</span>}
        </p>
        <p className="mt-auto flex flex-wrap gap-x-3 pt-1 text-xs">
          <a href={nft.filterHref}>Only this collection</a>
          {nft.externalLink && (
            <a href={nft.externalLink} target="_blank" rel="noopener noreferrer nofollow ugc">
              Project site
            </a>
          )}
        </p>
      </div>
    </li>
  );
}
