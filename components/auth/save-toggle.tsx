'use client';

import { lazy, Suspense, useState } from 'react';
import { card } from '@/components/ui/card';

// The form (and the server actions it posts to) loads when a person opens it, not with every wallet page.
// React.lazy rather than next/dynamic, whose loader would be in every first load.
const SavedWalletForm = lazy(() => import('./saved-wallet-form').then((m) => ({ default: m.SavedWalletForm })));

/** A toggle that shows the form in place (wallet page "Save wallet", list "Edit"). */
export function SaveToggle({ address, label, note, buttonText }: { address: string; label?: string; note?: string; buttonText: string }) {
  const [open, setOpen] = useState(false);
  return open ? (
    <div className={`${card} p-3`}>
      <Suspense fallback={<p className="text-sm text-ink-muted">Loading…</p>}>
        <SavedWalletForm address={address} label={label} note={note} onDone={() => setOpen(false)} />
      </Suspense>
    </div>
  ) : (
    <button type="button" onClick={() => setOpen(true)} className="rounded-card border border-line px-3 py-1 text-sm font-medium text-ink hover:border-accent">
      {buttonText}
    </button>
  );
}

