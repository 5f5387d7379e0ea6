'use client';

import { lazy, Suspense, useEffect, useState } from 'react';

const PendingTxPanel = lazy(() => import('./pending-tx-panel'));

/** On a pending transaction's page: the page is read again at each new head until it shows the transaction mined. */
export function PendingTxLive({ chain }: { chain: string | null }) {
  const [on, setOn] = useState(false);
  useEffect(() => void setTimeout(setOn, 1000, true), []);
  return (
    <div className="mt-3 h-6 text-xs">
      {on && (
        <Suspense>
          <PendingTxPanel chain={chain} />
        </Suspense>
      )}
    </div>
  );
}
