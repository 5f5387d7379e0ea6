import { Link } from '@/components/ui/link';
import { ErrorState } from '@/components/ui/error-state';
import type { ErrorInfo } from '@/lib/view/error-copy';
import { ledgerErrorCopy, ledgerErrorKind } from '@/lib/view/ledger-error-copy';

/** Every failure of the ledger page, in the app's one error vocabulary, with the ledger's ways on. */
export function LedgerError({ error }: { error: ErrorInfo }) {
  return (
    <ErrorState
      error={error}
      copy={ledgerErrorCopy(error)}
      data-testid={`ledger-error-${ledgerErrorKind(error)}`}
      actions={
        <>
          <span className="text-ink-muted">Look up another version in the box above, or</span>
          <Link href="/">go to the home page</Link>
        </>
      }
    />
  );
}
