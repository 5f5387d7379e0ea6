import 'server-only';
import { getAddress, type Address } from 'viem';
import { z } from 'zod';
import { db } from '@/lib/db';
import { LanternError } from '@/lib/errors';
import { addressSchema } from '@/lib/interface/common';
import { getSession } from './session';

/**
 * Saved wallets: private labels and notes a signed-in person keeps for any address, stored per
 * profile id. Every function takes the profile from the session cookie, never from its caller.
 */

export const MAX_SAVED_WALLETS = 500;

export interface SavedWallet {
  address: Address;
  label: string;
  note: string;
  createdAt: string;
  updatedAt: string;
}

export const savedWalletInput = z.object({
  address: addressSchema,
  label: z.string().trim().min(1, 'Give the wallet a label').max(64, 'A label is at most 64 characters'),
  note: z.string().trim().max(500, 'A note is at most 500 characters').default(''),
});

interface Row {
  address: string;
  label: string;
  note: string;
  created_at: Date | string;
  updated_at: Date | string;
}

const toWallet = (r: Row): SavedWallet => ({
  address: getAddress(r.address),
  label: r.label,
  note: r.note,
  createdAt: new Date(r.created_at).toISOString(),
  updatedAt: new Date(r.updated_at).toISOString(),
});

async function requireProfile(): Promise<string> {
  const s = await getSession();
  if (!s) throw new LanternError(401, 'not_signed_in', 'Sign in to save wallets.');
  return s.profileId;
}

/** The signed-in person's saved wallets, newest first; [] when signed out. */
export async function listSavedWallets(): Promise<SavedWallet[]> {
  const s = await getSession();
  if (!s) return [];
  const { rows } = await (await db()).query<Row>(
    'SELECT address, label, note, created_at, updated_at FROM saved_wallets WHERE profile_id = $1 ORDER BY updated_at DESC, address LIMIT $2',
    [s.profileId, MAX_SAVED_WALLETS],
  );
  return rows.map(toWallet);
}

/** One saved wallet of the signed-in person, or null. */
export async function getSavedWallet(address: string): Promise<SavedWallet | null> {
  const s = await getSession();
  const a = addressSchema.safeParse(address);
  if (!s || !a.success) return null;
  const { rows } = await (await db()).query<Row>(
    'SELECT address, label, note, created_at, updated_at FROM saved_wallets WHERE profile_id = $1 AND address = $2',
    [s.profileId, a.data],
  );
  return rows[0] ? toWallet(rows[0]) : null;
}

/** Saves or updates (same address) a wallet of the signed-in person. */
export async function saveWallet(input: z.input<typeof savedWalletInput>): Promise<SavedWallet> {
  const profileId = await requireProfile();
  const w = savedWalletInput.parse(input);
  const d = await db();
  const { rows: count } = await d.query<{ n: number }>('SELECT count(*)::int AS n FROM saved_wallets WHERE profile_id = $1 AND address <> $2', [
    profileId,
    w.address,
  ]);
  if ((count[0]?.n ?? 0) >= MAX_SAVED_WALLETS) {
    throw new LanternError(400, 'invalid_request', `You can save at most ${MAX_SAVED_WALLETS} wallets; delete one first.`);
  }
  const { rows } = await d.query<Row>(
    `INSERT INTO saved_wallets (profile_id, address, label, note) VALUES ($1, $2, $3, $4)
     ON CONFLICT (profile_id, address) DO UPDATE SET label = EXCLUDED.label, note = EXCLUDED.note, updated_at = now()
     RETURNING address, label, note, created_at, updated_at`,
    [profileId, w.address, w.label, w.note],
  );
  return toWallet(rows[0]);
}

export async function deleteSavedWallet(address: string): Promise<void> {
  const profileId = await requireProfile();
  const a = addressSchema.parse(address);
  await (await db()).query('DELETE FROM saved_wallets WHERE profile_id = $1 AND address = $2', [profileId, a]);
}

/** Every saved wallet of a profile (the person's own data deletion); returns how many went. */
export async function deleteAllSavedWallets(profileId: string): Promise<number> {
  const { rows } = await (await db()).query<{ address: string }>('DELETE FROM saved_wallets WHERE profile_id = $1 RETURNING address', [profileId]);
  return rows.length;
}
