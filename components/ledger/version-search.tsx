'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';

/** Type a version, land on its block (same network, same with_transactions choice). */
export function VersionSearch({ network, initial, query }: { network: string; initial?: string; query: string }) {
  const router = useRouter();
  const [value, setValue] = useState(initial ?? '');
  return (
    <form
      role="search"
      className="flex items-center gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        const v = value.trim().replace(/[,_\s]/g, '');
        if (v) router.push(`/ledger/${network}/versions/${encodeURIComponent(v)}${query}`);
      }}
    >
      <label htmlFor="ledger-version" className="text-sm text-ink-muted">
        Version
      </label>
      <input
        id="ledger-version"
        name="version"
        inputMode="numeric"
        autoComplete="off"
        spellCheck={false}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        placeholder="e.g. 86447894"
        className="w-56 rounded border border-line bg-surface px-2 py-1 font-mono text-sm text-ink placeholder:text-ink-muted"
      />
      <button type="submit" className="rounded border border-accent bg-accent px-3 py-1 text-sm text-surface hover:opacity-90">
        Look up
      </button>
    </form>
  );
}
