'use client';

import { lazy, Suspense } from 'react';
import { useLater } from './live-wallet';

const PendingTxPanel = lazy(() => import('./pending-tx-panel'));

/** On a pending transaction's page: the page is read again at each new head until it shows the transaction mined. */
export function PendingTxLive({ chain }: { chain: string | null }) {
  const ready = useLater();
  return (
    <div className="mt-3 h-6 text-xs">
      {ready && (
        <Suspense>
          <PendingTxPanel chain={chain} />
        </Suspense>
      )}
    </div>
  );
}
