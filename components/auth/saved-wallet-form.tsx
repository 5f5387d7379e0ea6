'use client';

import { useActionState, useEffect, useId } from 'react';
import { field } from '@/components/ui/card';
import { deleteWalletAction, saveWalletAction, type SavedWalletFormState } from '@/lib/actions/saved-wallets';

const input = `w-full ${field}`;

/**
 * Label and note for one address. With `address` fixed (wallet page, edit) the address is a hidden
 * field; without it (home page "Add") the person types it. The server action takes the profile from
 * the session, never from these fields.
 */
export function SavedWalletForm({
  address,
  label = '',
  note = '',
  submitText = 'Save',
  onDone,
}: {
  address?: string;
  label?: string;
  note?: string;
  submitText?: string;
  onDone?: () => void;
}) {
  const [state, action, pending] = useActionState<SavedWalletFormState, FormData>(saveWalletAction, null);
  const id = useId();
  useEffect(() => {
    if (state?.ok) onDone?.();
  }, [state, onDone]);
  const err = state && !state.ok ? state.error : null;
  return (
    <form action={action} className="grid gap-2 text-sm" aria-label={address ? `Label for ${address}` : 'Save a wallet'}>
      {address ? (
        <input type="hidden" name="address" value={address} />
      ) : (
        <div>
          <label htmlFor={`${id}-address`} className="block text-ink-muted">
            Address
          </label>
          <input id={`${id}-address`} name="address" required spellCheck={false} autoComplete="off" className={`${input} font-mono`} placeholder="0x…" />
        </div>
      )}
      <div>
        <label htmlFor={`${id}-label`} className="block text-ink-muted">
          Label
        </label>
        <input id={`${id}-label`} name="label" required maxLength={64} defaultValue={label} className={input} />
      </div>
      <div>
        <label htmlFor={`${id}-note`} className="block text-ink-muted">
          Note <span className="text-xs">(optional, private)</span>
        </label>
        <textarea id={`${id}-note`} name="note" maxLength={500} rows={2} defaultValue={note} className={input} />
      </div>
      <div className="flex items-center gap-3">
        <button type="submit" disabled={pending} className="rounded-card border border-accent px-3 py-1 font-medium text-accent hover:bg-accent-soft disabled:opacity-60">
          {pending ? 'Saving…' : submitText}
        </button>
        {err && (
          <span role="alert" className="text-negative">
            {err.message}
          </span>
        )}
        {state?.ok && (
          <span role="status" className="text-positive">
            Saved as “{state.label}”.
          </span>
        )}
      </div>
    </form>
  );
}

export function DeleteSavedWallet({ address, label }: { address: string; label: string }) {
  const [state, action, pending] = useActionState<SavedWalletFormState, FormData>(deleteWalletAction, null);
  return (
    <form action={action} className="inline">
      <input type="hidden" name="address" value={address} />
      <button type="submit" disabled={pending} className="text-sm text-negative hover:underline" aria-label={`Delete ${label}`}>
        Delete
      </button>
      {state && !state.ok && (
        <span role="alert" className="ml-2 text-sm text-negative">
          {state.error.message}
        </span>
      )}
    </form>
  );
}
