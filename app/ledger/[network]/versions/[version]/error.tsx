'use client';

import { Link } from '@/components/ui/link';
import { PageShell } from '@/components/layout/page-shell';
import { ErrorPanel } from '@/components/ui/error-panel';

/** Unexpected failures only; the known ones (400/404/410/502/504) are rendered by the page itself. */
export default function LedgerPageError({ reset }: { error: Error; reset: () => void }) {
  return (
    <PageShell>
      <ErrorPanel
        heading="h1"
        title="The block could not be shown"
        retry={reset}
        actions={
          <>
            <span className="text-ink-muted">Look up another version with the search box above, or</span>
            <Link href="/">go to the home page</Link>
          </>
        }
        data-testid="ledger-error-unexpected"
      >
        <p>Something went wrong while reading this block. It has been logged.</p>
      </ErrorPanel>
    </PageShell>
  );
}
