'use client';

import { useRouter } from 'next/navigation';
import { useTransition } from 'react';
import { quietButton } from './card';

/** Tries again: the caller's retry (an error boundary's reset, a query's refetch), else the page's data. */
export function RetryButton({ onRetry }: { onRetry?: () => void }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  return (
    <button type="button" disabled={pending} onClick={() => start(() => (onRetry ? onRetry() : router.refresh()))} className={quietButton}>
      {pending ? 'Retrying…' : 'Retry'}
    </button>
  );
}
