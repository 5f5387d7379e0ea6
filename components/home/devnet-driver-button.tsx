'use client';

import { useState, useTransition } from 'react';
import { switchDevnetDriver } from '@/lib/actions/devnet-driver';
import type { DevnetDriverState } from '@/lib/devnet/driver';

/** Starts and stops the devnet's live driver (`npm run dev` only), and says what it is doing. */
export function DevnetDriverButton({ initial }: { initial: DevnetDriverState }) {
  const [state, setState] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const toggle = () =>
    start(async () => {
      const r = await switchDevnetDriver(!state.running);
      if (r.ok) {
        setState(r.state);
        setError(null);
      } else setError(r.error);
    });
  return (
    <div className="mt-4 flex flex-wrap items-center gap-3 text-sm" data-testid="devnet-driver" data-running={state.running}>
      <button
        type="button"
        onClick={toggle}
        disabled={pending}
        aria-pressed={state.running}
        className="rounded-card border border-line bg-sunken px-3 py-1.5 font-medium text-ink hover:border-accent disabled:opacity-60"
      >
        {state.running ? 'Stop the devnet' : 'Keep the devnet moving'}
      </button>
      <span role="status" className="text-ink-muted" data-testid="devnet-driver-state">
        {error ??
          (state.running
            ? `A scenario transaction every ${state.interval_s} s among alice, bob, carol and erin: open one of their wallets to watch it arrive.`
            : 'The devnet only changes when someone sends a transaction.')}
      </span>
    </div>
  );
}
