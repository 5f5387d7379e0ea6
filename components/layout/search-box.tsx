'use client';

import { useRouter } from 'next/navigation';
import { useId } from 'react';
import { quietButton } from '@/components/ui/card';
import { rememberSearch } from '@/lib/browser/recent-searches';

/**
 * A GET form to /search, which decides where the input leads (works before JavaScript loads; with it,
 * the router navigates without a full reload). A plain form, not next/form: this sits on every page, and
 * next/form's prefetching code would be a tenth of the app's own first-load JavaScript. Each search is
 * remembered in this browser for the home page's "Recent searches". `defaultValue` lets a failed search
 * come back with what was typed, so a typo is fixed rather than retyped.
 */
export function SearchBox({ autoFocus = false, defaultValue, describedBy }: { autoFocus?: boolean; defaultValue?: string; describedBy?: string }) {
  const id = useId();
  const router = useRouter();
  return (
    <form
      action="/search"
      method="get"
      role="search"
      className="flex min-w-0 flex-1 basis-72 items-center gap-2"
      onSubmit={(e) => {
        const q = new FormData(e.currentTarget).get('q');
        if (typeof q !== 'string') return;
        e.preventDefault();
        rememberSearch(q);
        router.push(`/search?${new URLSearchParams({ q })}`);
      }}
    >
      <label htmlFor={id} className="sr-only">
        Search by address, ENS name or ledger version
      </label>
      <input
        id={id}
        name="q"
        type="search"
        required
        autoFocus={autoFocus}
        defaultValue={defaultValue}
        aria-describedby={describedBy}
        autoComplete="off"
        spellCheck={false}
        placeholder="Address, ENS name or ledger version"
        className="min-w-0 flex-1 rounded-card border border-line bg-canvas px-3 py-1.5 font-mono text-sm text-ink placeholder:font-sans placeholder:text-ink-muted"
      />
      <button type="submit" className={quietButton}>
        Search
      </button>
    </form>
  );
}
