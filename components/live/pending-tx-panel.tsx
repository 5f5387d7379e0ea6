'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { LiveStream, type LiveStreamState } from '@/lib/browser/live-stream';
import type { LiveHello } from '@/lib/view/live';

/**
 * Follows the chain's heads (`/api/live/heads`) and reads the page again at each: once the transaction is
 * in a block the page shows it mined, and this goes away with the pending state. Where Lantern polls
 * instead of following heads (hosted), the page is read again at the stated interval.
 */
export default function PendingTxPanel({ chain }: { chain: string | null }) {
  const router = useRouter();
  const [state, setState] = useState<LiveStreamState>('connecting');
  const [interval, setIntervalS] = useState<number | null>(null);
  useEffect(() => {
    let poll: ReturnType<typeof setInterval> | undefined;
    const stream = new LiveStream({
      url: () => (chain ? `/api/live/heads?chain=${encodeURIComponent(chain)}` : '/api/live/heads'),
      since: null,
      onState: setState,
      onEvent: (name, data) => {
        if (name === 'head') router.refresh();
        if (name === 'hello' && !(data as LiveHello).follows) {
          const s = (data as LiveHello).interval_s ?? 15;
          setIntervalS(s);
          clearInterval(poll);
          poll = setInterval(() => router.refresh(), s * 1000);
        }
      },
    });
    stream.start();
    return () => {
      clearInterval(poll);
      stream.close();
    };
  }, [chain, router]);
  const label = state === 'open' ? (interval ? `Waiting for its block · checked every ${interval} s` : 'Waiting for its block · live') : state === 'reconnecting' ? 'Reconnecting…' : 'Connecting…';
  return (
    <span className="flex h-full items-center gap-1.5 text-ink-muted" data-testid="pending-live" data-state={state}>
      <span aria-hidden="true" className={`inline-block h-2 w-2 rounded-full ${state === 'open' ? 'bg-positive' : 'bg-ink-muted'}`} />
      {label}
    </span>
  );
}
