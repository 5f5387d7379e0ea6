import 'server-only';
import { listSavedWallets } from '@/lib/auth/saved-wallets';
import type { SavedLabels } from '@/lib/view/tx-view';

/** The signed-in person's labels, by lower-case address (a short list; empty when signed out). */
export async function savedLabels(): Promise<SavedLabels> {
  return Object.fromEntries((await listSavedWallets()).map((w) => [w.address.toLowerCase(), w.label]));
}
