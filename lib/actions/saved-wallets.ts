'use server';

import { headers } from 'next/headers';
import { enforceRateLimit } from '@/lib/security/rate-limit';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { actionError, type ActionResult } from '@/lib/auth/action-result';
import { deleteSavedWallet, saveWallet } from '@/lib/auth/saved-wallets';
import { LanternError } from '@/lib/errors';

/**
 * Saved-wallet actions for forms (useActionState). The profile always comes from the session cookie
 * inside lib/auth/saved-wallets; nothing in the form can name whose list is changed.
 */

export type SavedWalletFormState = ActionResult<{ address: string; label: string }> | null;

const text = (f: FormData, k: string) => {
  const v = f.get(k);
  return typeof v === 'string' ? v : undefined;
};

export async function saveWalletAction(_prev: SavedWalletFormState, form: FormData): Promise<SavedWalletFormState> {
  try {
    await enforceRateLimit(await headers(), 'action');
    const w = await saveWallet({ address: text(form, 'address') ?? '', label: text(form, 'label') ?? '', note: text(form, 'note') ?? '' });
    revalidatePath('/', 'layout');
    return { ok: true, address: w.address, label: w.label };
  } catch (e) {
    if (e instanceof z.ZodError) {
      const issue = e.issues[0];
      return { ok: false, error: { code: 'invalid_parameter', message: issue?.message ?? 'Invalid input', field: String(issue?.path[0] ?? '') } };
    }
    return actionError(e, 'Saving the wallet');
  }
}

export async function deleteWalletAction(_prev: SavedWalletFormState, form: FormData): Promise<SavedWalletFormState> {
  try {
    await enforceRateLimit(await headers(), 'action');
    const address = text(form, 'address');
    if (!address) throw new LanternError(400, 'invalid_parameter', 'No address given', { parameter: 'address' });
    await deleteSavedWallet(address);
    revalidatePath('/', 'layout');
    return { ok: true, address, label: '' };
  } catch (e) {
    if (e instanceof z.ZodError) return { ok: false, error: { code: 'invalid_parameter', message: 'Not a valid address', field: 'address' } };
    return actionError(e, 'Deleting the wallet');
  }
}
