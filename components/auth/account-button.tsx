'use client';

import { lazy, Suspense, useActionState, useState, useSyncExternalStore } from 'react';
import { signOutAction } from '@/lib/actions/auth';
import type { ActionResult } from '@/lib/auth/action-result';
import { truncateMiddle } from '@/lib/format';
import type { WalletOptions } from './wagmi';

// The wallet code (wagmi, viem, react-query, connectors) is one lazily loaded chunk: fetched when a
// person opens the sign-in dialog, or after hydration when signed in (to end the session if the wallet
// switches account or disconnects). A signed-out visitor's first load never includes it. React.lazy
// rather than next/dynamic, whose loader would be in every first load; browser-only, hence `hydrated`.
const WalletConnectionRoot = lazy(() => import('./wallet-connection-root'));
const noSubscription = () => () => undefined;

export interface AccountButtonProps {
  session: { address: string; chainId: number } | null;
  options: WalletOptions;
  walletCookie?: string;
}

export function AccountButton({ session, options, walletCookie }: AccountButtonProps) {
  const [open, setOpen] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  // Signed out in this browser even when the end could not be recorded; then the page says so.
  const [signedOut, signOut] = useActionState<ActionResult | null>(() => signOutAction(), null);
  const shown = notice ?? (signedOut && !signedOut.ok ? signedOut.error.message : null);
  // False on the server and while hydrating, true after: the wallet code never renders on the server.
  const hydrated = useSyncExternalStore(noSubscription, () => true, () => false);

  return (
    <div className="ml-auto flex items-center gap-3 text-sm" data-testid="account">
      {session ? (
        <>
          <a href={`/wallet/${session.address}`} className="font-mono text-ink" title={session.address} aria-label={`Signed in as ${session.address}`}>
            {truncateMiddle(session.address)}
          </a>
          <form action={signOut}>
            <button type="submit" className="rounded-card border border-line px-3 py-1.5 font-medium text-ink hover:border-accent">
              Sign out
            </button>
          </form>
        </>
      ) : (
        <>
          {shown && (
            <span role="status" className="text-warning">
              {shown}
            </span>
          )}
          <button
            type="button"
            onClick={() => {
              setNotice(null);
              setOpen(true);
            }}
            className="rounded-card border border-accent bg-accent px-3 py-1.5 font-medium text-canvas hover:opacity-90"
          >
            Sign in
          </button>
        </>
      )}
      {hydrated && (open || session) && (
        <Suspense
          fallback={
            <span role="status" className="text-sm text-ink-muted">
              Loading wallets…
            </span>
          }
        >
          <WalletConnectionRoot
            options={options}
            walletCookie={walletCookie}
            sessionAddress={session?.address ?? null}
            dialogOpen={open && !session}
            onClose={() => setOpen(false)}
            onSessionEnded={(why) => {
              setNotice(why);
              setOpen(false);
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
