'use client';

import dynamic from 'next/dynamic';
import { useState } from 'react';
import { card } from '@/components/ui/card';

// The form (and the server actions it posts to) loads when a person opens it, not with every wallet page.
const SavedWalletForm = dynamic(() => import('./saved-wallet-form').then((m) => m.SavedWalletForm), {
  loading: () => <p className="text-sm text-ink-muted">Loading…</p>,
});

/** A toggle that shows the form in place (wallet page "Save wallet", list "Edit"). */
export function SaveToggle({ address, label, note, buttonText }: { address: string; label?: string; note?: string; buttonText: string }) {
  const [open, setOpen] = useState(false);
  return open ? (
    <div className={`${card} p-3`}>
      <SavedWalletForm address={address} label={label} note={note} onDone={() => setOpen(false)} />
    </div>
  ) : (
    <button type="button" onClick={() => setOpen(true)} className="rounded-card border border-line px-3 py-1 text-sm font-medium text-ink hover:border-accent">
      {buttonText}
    </button>
  );
}

