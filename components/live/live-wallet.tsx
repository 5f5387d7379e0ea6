'use client';

import { lazy, Suspense, useEffect, useState } from 'react';
import type { LivePanelProps } from './live-panel';

// The stream and the bar (live-panel.tsx) load a little after the page: none of it is first-load code.
const LivePanel = lazy(() => import('./live-panel'));

/** A wallet page's live bar (history and NFTs tabs), on one reserved line so nothing moves when it fills. */
export function LiveWallet(props: LivePanelProps) {
  const on = useLater();
  return (
    <div className="mt-3 h-6 text-xs">
      {on && (
        <Suspense>
          <LivePanel {...props} />
        </Suspense>
      )}
    </div>
  );
}

/** True 2.5 s after hydration, once the page's own loading is over. */
export function useLater(): boolean {
  const [on, setOn] = useState(false);
  useEffect(() => {
    const t = setTimeout(() => setOn(true), 2500);
    return () => clearTimeout(t);
  }, []);
  return on;
}
