'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useTransition } from 'react';

/**
 * Shown while the source is still indexing this wallet: re-renders the page until SYNCED (when this banner
 * unmounts). Soon at first, a small wallet's index being a moment's work, then less often: 1 s, 1.5 s,
 * 2.25 s, ... up to `maxMs`, never a fixed wait before the first look.
 */
export function SyncingBanner({ firstMs = 1000, maxMs = 4000 }: { firstMs?: number; maxMs?: number }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  useEffect(() => {
    let wait = firstMs;
    let t: ReturnType<typeof setTimeout>;
    const next = () => {
      t = setTimeout(() => {
        start(() => router.refresh());
        wait = Math.min(maxMs, wait * 1.5);
        next();
      }, wait);
    };
    next();
    return () => clearTimeout(t);
  }, [router, firstMs, maxMs]);
  return (
    <p role="status" className="mb-3 flex items-center gap-2 rounded-card border border-line bg-warning-soft px-4 py-2 text-sm text-ink" data-status="SYNCING">
      <span aria-hidden="true" className={`inline-block h-2 w-2 rounded-full bg-warning ${pending ? 'opacity-50' : 'motion-safe:animate-pulse'}`} />
      SYNCING: the source is still reading this wallet’s NFTs. What is known so far is shown; this page updates by itself.
    </p>
  );
}
