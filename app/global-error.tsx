'use client';

import { PageShell } from '@/components/layout/page-shell';
import { card, quietButton } from '@/components/ui/card';
import './globals.css';

/**
 * The last resort: the root layout itself failed, so there is no site header or footer to stand in.
 * It draws its own document, says what happened, and offers the two ways on (retry, the home page).
 * A plain <a>, not next/link: the router that failed may be what a link would need.
 */
export default function GlobalError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="en">
      <head>
        <title>Lantern could not be shown</title>
      </head>
      <body className="flex min-h-screen flex-col">
        <PageShell>
          <section role="alert" className={`max-w-prose ${card} px-4 py-5 sm:px-6`}>
            <h1 className="text-lg font-semibold">Lantern could not be shown</h1>
            <p className="mt-2 text-sm text-ink-muted">
              Something went wrong on this server while building every page; it has been logged. Trying again often helps when a source
              was briefly unavailable.
            </p>
            <div className="mt-4 flex flex-wrap items-center gap-3 text-sm">
              <button type="button" onClick={reset} className={quietButton}>
                Retry
              </button>
              {/* eslint-disable-next-line @next/next/no-html-link-for-pages -- the router may be what failed */}
              <a href="/">Go to the home page</a>
            </div>
          </section>
        </PageShell>
      </body>
    </html>
  );
}
