import Link from 'next/link';
import { U64_MAX } from '@/lib/interface/ledger';
import { RetryButton } from './retry-button';

export type LedgerErrorKind = 'invalid_version' | 'invalid_network' | 'not_found' | 'pruned' | 'unavailable' | 'failed';

const TITLES: Record<LedgerErrorKind, string> = {
  invalid_version: 'That is not a ledger version',
  invalid_network: 'Unknown ledger network',
  not_found: 'Beyond the head of the ledger',
  pruned: 'This version has been pruned',
  unavailable: 'The ledger node is not answering',
  failed: 'The block could not be loaded',
};

/** The page's error states: each says what happened and what to do next. */
export function LedgerError({ kind, message }: { kind: LedgerErrorKind; message?: string }) {
  return (
    <section role="alert" data-testid={`ledger-error-${kind}`} className="rounded-card border border-line bg-surface p-6">
      <h2 className="text-lg font-medium">{TITLES[kind]}</h2>
      {message && <p className="mt-2 text-ink">{message}</p>}
      <div className="mt-3 space-y-2 text-sm text-ink-muted">
        {kind === 'invalid_version' && (
          <p>
            A version is the position of a transaction in the ledger: a whole number from 0 to {U64_MAX.toString()} (an unsigned
            64-bit integer), written in decimal digits only, with no sign, spaces, decimal point or hex prefix.
          </p>
        )}
        {kind === 'invalid_network' && <p>Choose mainnet, testnet or local.</p>}
        {kind === 'not_found' && <p>No transaction has been committed at this version yet. Try a lower version, or come back once the ledger has grown.</p>}
        {kind === 'pruned' && (
          <p>
            Ledger nodes keep only recent history: to bound their storage they delete (&ldquo;prune&rdquo;) old transactions and blocks
            below a moving floor. The block still exists in the ledger&apos;s history, but this node no longer serves it. Try a newer
            version, or point Lantern at an archival node.
          </p>
        )}
        {kind === 'unavailable' && <p>This is usually temporary. Nothing about the version is wrong.</p>}
      </div>
      <div className="mt-4 flex flex-wrap items-center gap-4 text-sm">
        {(kind === 'unavailable' || kind === 'failed') && <RetryButton />}
        <span className="text-ink-muted">Look up another version in the box above, or</span>
        <Link href="/">go to the home page</Link>
      </div>
    </section>
  );
}
