import { Link } from '@/components/ui/link';
import { getSession } from '@/lib/auth/session';
import { listSavedWallets } from '@/lib/auth/saved-wallets';
import { SaveToggle } from './save-toggle';
import { DeleteSavedWallet, SavedWalletForm } from './saved-wallet-form';
import { YourData } from './your-data';
import { card } from '@/components/ui/card';

/** Home page section: the signed-in person's saved wallets, with an add form. Nothing when signed out. */
export async function SavedWallets() {
  const session = await getSession();
  if (!session) return null;
  const wallets = await listSavedWallets();
  return (
    <>
      <section aria-labelledby="saved-wallets" className="mt-12">
        <h2 id="saved-wallets" className="text-lg font-semibold">
          Saved wallets
        </h2>
        <p className="mt-1 text-sm text-ink-muted">Private to you: labels replace these addresses wherever a history shows them.</p>
        {wallets.length === 0 ? (
          <p className="mt-4 text-sm text-ink-muted">No saved wallets yet.</p>
        ) : (
          <ul className={`mt-4 divide-y divide-line ${card}`} aria-label="Saved wallets">
            {wallets.map((w) => (
              <li key={w.address} className="flex flex-wrap items-start gap-x-4 gap-y-2 px-4 py-3">
                <div className="min-w-0 flex-1">
                  <Link href={`/wallet/${w.address}`} className="font-medium">
                    {w.label}
                  </Link>
                  <div className="truncate font-mono text-xs text-ink-muted">{w.address}</div>
                  {w.note && <p className="mt-1 text-sm text-ink-muted">{w.note}</p>}
                </div>
                <div className="flex items-center gap-3">
                  <SaveToggle address={w.address} label={w.label} note={w.note} buttonText="Edit" />
                  <DeleteSavedWallet address={w.address} label={w.label} />
                </div>
              </li>
            ))}
          </ul>
        )}
        <details className="mt-4 max-w-md">
          <summary className="cursor-pointer text-sm font-medium text-accent">Save a wallet</summary>
          <div className="mt-3">
            <SavedWalletForm />
          </div>
        </details>
      </section>
      <section aria-labelledby="your-account" className="mt-8">
        <h2 id="your-account" className="text-lg font-semibold">
          Your account
        </h2>
        <p className="mt-1 text-sm text-ink-muted">Signing out here ends this browser’s session only; these end every session you have.</p>
        <YourData />
      </section>
    </>
  );
}
