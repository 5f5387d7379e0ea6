import Link from 'next/link';
import { U64_MAX } from '@/lib/interface/ledger';
import { ErrorPanel } from '@/components/ui/error-panel';

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
    <ErrorPanel
      title={TITLES[kind]}
      message={message}
      retry={kind === 'unavailable' || kind === 'failed'}
      actions={
        <>
          <span className="text-ink-muted">Look up another version in the box above, or</span>
          <Link href="/">go to the home page</Link>
        </>
      }
      data-testid={`ledger-error-${kind}`}
    >
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
    </ErrorPanel>
  );
}
