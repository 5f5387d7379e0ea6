'use client';

import { useRouter } from 'next/navigation';
import { useTransition } from 'react';

export function RetryButton({ onRetry }: { onRetry?: () => void }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  return (
    <button
      type="button"
      disabled={pending}
      onClick={() => start(() => (onRetry ? onRetry() : router.refresh()))}
      className="rounded border border-accent px-3 py-1 text-sm text-accent hover:bg-accent-soft disabled:opacity-60"
    >
      {pending ? 'Retrying…' : 'Retry'}
    </button>
  );
}
