'use client';

import { lazy, Suspense, useEffect, useState } from 'react';
import type { LivePanelProps } from './live-panel';

// Fetched only once the page has loaded and gone quiet (useAfterLoad): none of it is first-load code.
const LivePanel = lazy(() => import('./live-panel'));

/**
 * Where a wallet page's live bar goes (history and NFTs tabs): one reserved line, so nothing moves when
 * it fills. Its code (live-panel.tsx: the stream and the bar) loads after the page.
 */
export function LiveWallet(props: LivePanelProps) {
  const ready = useAfterLoad();
  return (
    <div className="mt-3 flex h-6 min-w-0 items-center text-xs">
      {ready && (
        <Suspense fallback={null}>
          <LivePanel {...props} />
        </Suspense>
      )}
    </div>
  );
}

/** True once the page has loaded, a second has passed and the browser is idle. */
export function useAfterLoad(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let idle: number | undefined;
    const start = () => {
      timer = setTimeout(() => {
        if ('requestIdleCallback' in window) idle = requestIdleCallback(() => setReady(true), { timeout: 2000 });
        else setReady(true);
      }, 1000);
    };
    if (document.readyState === 'complete') start();
    else window.addEventListener('load', start, { once: true });
    return () => {
      clearTimeout(timer);
      if (idle !== undefined) cancelIdleCallback(idle);
      window.removeEventListener('load', start);
    };
  }, []);
  return ready;
}
