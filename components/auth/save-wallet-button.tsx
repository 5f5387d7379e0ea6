import { getSession } from '@/lib/auth/session';
import { getSavedWallet } from '@/lib/auth/saved-wallets';
import { SaveToggle } from './save-toggle';

/**
 * "Save wallet" for the wallet page: `<SaveWalletButton address={address} />`. Signed out it shows a
 * hint; signed in it saves or edits this address's private label and note.
 */
export async function SaveWalletButton({ address }: { address: string }) {
  const session = await getSession();
  if (!session) return <span className="text-sm text-ink-muted">Sign in to save this wallet with a private label.</span>;
  const saved = await getSavedWallet(address);
  return saved ? (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <span>
        Saved as <strong>{saved.label}</strong>
      </span>
      <SaveToggle address={address} label={saved.label} note={saved.note} buttonText="Edit label" />
    </div>
  ) : (
    <SaveToggle address={address} buttonText="Save wallet" />
  );
}
