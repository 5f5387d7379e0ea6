'use client';

import { useRouter } from 'next/navigation';
import { errorCopy, type ErrorInfo } from '@/lib/view/error-copy';

/** An error that names its cause (from the API error code) and offers a retry when one can help. */
export function ErrorState({ error, onRetry, resetHref }: { error: ErrorInfo; onRetry?: () => void; resetHref?: string }) {
  const router = useRouter();
  const copy = errorCopy(error.code, error.status);
  return (
    <div role="alert" className="rounded-card border border-line bg-surface px-4 py-5" data-error-code={error.code}>
      <h2 className="text-base font-semibold">{copy.title}</h2>
      <p className="mt-1 text-sm text-ink-muted">{copy.hint}</p>
      <p className="mt-2 break-words text-sm text-ink">{error.message}</p>
      <div className="mt-4 flex flex-wrap gap-3">
        {copy.retry && (
          <button
            type="button"
            onClick={() => (onRetry ? onRetry() : router.refresh())}
            className="rounded-card border border-line bg-sunken px-3 py-1.5 text-sm font-medium hover:border-accent"
          >
            Retry
          </button>
        )}
        {resetHref && (
          <a href={resetHref} className="px-1 py-1.5 text-sm">
            Reset filters
          </a>
        )}
      </div>
    </div>
  );
}
