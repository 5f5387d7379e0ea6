'use client';

import Link from 'next/link';

/** The last resort for a page that failed unexpectedly: it has been logged; retry or go home. */
export default function PageError({ reset }: { error: Error; reset: () => void }) {
  return (
    <main className="mx-auto max-w-page px-4 py-10">
      <section role="alert" className="max-w-prose rounded-card border border-line bg-surface p-6">
        <h1 className="text-lg font-semibold">This page could not be shown</h1>
        <p className="mt-2 text-sm text-ink-muted">
          Something went wrong on this server while building the page; it has been logged. Trying again often helps when a source
          was briefly unavailable.
        </p>
        <div className="mt-4 flex flex-wrap items-center gap-4">
          <button
            type="button"
            onClick={reset}
            className="rounded-card border border-line bg-sunken px-3 py-1.5 text-sm font-medium hover:border-accent"
          >
            Try again
          </button>
          <Link href="/" className="text-sm">
            Go to the home page
          </Link>
        </div>
      </section>
    </main>
  );
}
