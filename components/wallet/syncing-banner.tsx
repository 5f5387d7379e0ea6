'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useTransition } from 'react';

/** Shown while the source is still indexing this wallet: re-renders the page every few seconds until SYNCED. */
export function SyncingBanner({ intervalMs = 4000 }: { intervalMs?: number }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  useEffect(() => {
    const t = setInterval(() => start(() => router.refresh()), intervalMs);
    return () => clearInterval(t);
  }, [router, intervalMs]);
  return (
    <p role="status" className="mb-3 flex items-center gap-2 rounded-card border border-line bg-warning-soft px-4 py-2 text-sm text-ink" data-status="SYNCING">
      <span aria-hidden="true" className={`inline-block h-2 w-2 rounded-full bg-warning ${pending ? 'opacity-50' : 'motion-safe:animate-pulse'}`} />
      SYNCING: the source is still reading this wallet’s NFTs. What is known so far is shown; this page updates by itself.
    </p>
  );
}
