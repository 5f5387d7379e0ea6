'use client';

import { Link } from '@/components/ui/link';
import { ErrorPanel } from '@/components/ui/error-panel';
import { PageShell } from '@/components/layout/page-shell';

/** The last resort for a page that failed unexpectedly: it has been logged; retry or go home. */
export default function PageError({ reset }: { error: Error; reset: () => void }) {
  return (
    <PageShell>
      <div className="max-w-prose">
        <ErrorPanel heading="h1" title="This page could not be shown" retry={reset} actions={<Link href="/">Go to the home page</Link>}>
          <p>
            Something went wrong on this server while building the page; it has been logged. Trying again often helps when a source was
            briefly unavailable.
          </p>
        </ErrorPanel>
      </div>
    </PageShell>
  );
}
