'use client';

import { RetryButton } from '@/components/ledger/retry-button';

/** Unexpected failures only; the known ones (400/404/410/502/504) are rendered by the page itself. */
export default function LedgerPageError({ reset }: { error: Error; reset: () => void }) {
  return (
    <main className="mx-auto max-w-page px-4 py-8">
      <section role="alert" className="rounded-card border border-line bg-surface p-6" data-testid="ledger-error-unexpected">
        <h1 className="text-lg font-medium">The block could not be shown</h1>
        <p className="mt-2 text-sm text-ink-muted">Something went wrong while reading this block. It has been logged.</p>
        <div className="mt-4">
          <RetryButton onRetry={reset} />
        </div>
      </section>
    </main>
  );
}
