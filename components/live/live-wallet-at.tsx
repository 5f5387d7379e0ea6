import { Suspense } from 'react';
import type { LivePanelProps } from './live-panel';
import { LiveWallet } from './live-wallet';

/** The live bar once its starting point is read; the line it takes is held meanwhile, so nothing moves. */
export function LiveWalletAt({ since, ...props }: Omit<LivePanelProps, 'since'> & { since: Promise<string | null> }) {
  return (
    <Suspense fallback={<div className="mt-3 h-6" />}>
      <Resolved since={since} {...props} />
    </Suspense>
  );
}

async function Resolved({ since, ...props }: Omit<LivePanelProps, 'since'> & { since: Promise<string | null> }) {
  return <LiveWallet {...props} since={await since} />;
}
