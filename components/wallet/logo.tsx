'use client';

import { useState } from 'react';

/** A source-supplied entity logo; gone without a trace when it does not load. */
export function Logo({ src }: { src: string }) {
  const [failed, setFailed] = useState(false);
  if (failed || !/^https?:\/\//.test(src)) return null;
  return (
    // eslint-disable-next-line @next/next/no-img-element -- third-party logos of any host, no optimisation wanted
    <img src={src} alt="" width={16} height={16} loading="lazy" referrerPolicy="no-referrer" onError={() => setFailed(true)} className="h-4 w-4 shrink-0 rounded-full" />
  );
}
