'use client';

import { useActionState } from 'react';
import { deleteMyDataAction, signOutEverywhereAction } from '@/lib/actions/auth';
import type { ActionResult } from '@/lib/auth/action-result';

/** The person's own data: end every session, or delete every saved wallet (which also ends them). */
export function YourData() {
  const [state, deleteAll, pending] = useActionState<ActionResult<{ deleted: number }> | null>(deleteMyDataAction, null);
  return (
    <div className="mt-3 flex flex-wrap items-center gap-3 text-sm">
      <form action={signOutEverywhereAction}>
        <button type="submit" className="rounded-card border border-line px-3 py-1 font-medium text-ink hover:border-accent">
          Sign out on every device
        </button>
      </form>
      <form
        action={deleteAll}
        onSubmit={(e) => {
          if (!window.confirm('Delete all your saved wallets and sign out on every device?')) e.preventDefault();
        }}
      >
        <button type="submit" disabled={pending} className="rounded-card border border-line px-3 py-1 font-medium text-negative hover:border-negative">
          Delete my saved data
        </button>
      </form>
      {state && !state.ok && (
        <span role="alert" className="text-negative">
          {state.error.message}
        </span>
      )}
    </div>
  );
}
