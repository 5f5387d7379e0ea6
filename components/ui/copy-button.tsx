'use client';

import { useState } from 'react';

/**
 * Copies a full value (address, hash) that the page shows truncated; the one copy button of every page.
 * Announces the result to screen readers, and never toggles a row it sits in.
 */
export function CopyButton({ value, label = `Copy ${value}` }: { value: string; label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  async function copy(e: React.MouseEvent) {
    e.stopPropagation();
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      setState('failed');
    }
    setTimeout(() => setState('idle'), 1500);
  }
  return (
    <button
      type="button"
      onClick={copy}
      aria-label={label}
      title={label}
      className="inline-flex h-6 w-6 shrink-0 items-center justify-center rounded text-ink-muted hover:bg-sunken hover:text-ink"
    >
      {state === 'copied' ? (
        <svg aria-hidden="true" width="14" height="14" viewBox="0 0 16 16"><path d="M3 8.5l3 3 7-7" fill="none" stroke="currentColor" strokeWidth="1.6" /></svg>
      ) : (
        <svg aria-hidden="true" width="14" height="14" viewBox="0 0 16 16"><rect x="5" y="5" width="8" height="9" rx="1.5" fill="none" stroke="currentColor" strokeWidth="1.3" /><path d="M3 11V3.5A1.5 1.5 0 0 1 4.5 2H10" fill="none" stroke="currentColor" strokeWidth="1.3" /></svg>
      )}
      <span className="sr-only" aria-live="polite">{state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : ''}</span>
    </button>
  );
}
