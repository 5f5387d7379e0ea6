'use client';

import { ErrorPanel } from '@/components/ui/error-panel';

/** Unexpected failures only; the known ones (400/404/410/502/504) are rendered by the page itself. */
export default function LedgerPageError({ reset }: { error: Error; reset: () => void }) {
  return (
    <main className="mx-auto max-w-page px-4 py-8">
      <ErrorPanel heading="h1" title="The block could not be shown" retry={reset} data-testid="ledger-error-unexpected">
        <p>Something went wrong while reading this block. It has been logged.</p>
      </ErrorPanel>
    </main>
  );
}
