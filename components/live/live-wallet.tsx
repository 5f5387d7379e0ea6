'use client';

import { lazy, Suspense, useEffect, useState } from 'react';
import type { LivePanelProps } from './live-panel';

// The stream and the bar (live-panel.tsx) load 2.5 s after hydration, once the page's own loading is
// over: none of it is first-load code. This loader is all the page carries (about 0.1 kB).
const LivePanel = lazy(() => import('./live-panel'));

/** A wallet page's live bar (history and NFTs tabs), on one reserved line so nothing moves when it fills. */
export function LiveWallet(props: LivePanelProps) {
  const [on, setOn] = useState(false);
  useEffect(() => void setTimeout(setOn, 2500, true), []);
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
