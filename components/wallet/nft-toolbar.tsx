'use client';

import { useQueryStates } from 'nuqs';
import { card, field, quietButtonCompact } from '@/components/ui/card';
import { ChainSelect } from './toolbar-fields';
import { useState, useTransition } from 'react';
import { MAX_CONTRACT_FILTERS } from '@/lib/view/search-params';
import { nftParsers } from '@/lib/browser/view-params';
import { ADDRESS_RE, truncateMiddle } from '@/lib/format';


/** NFT filters: every change re-renders the grid on the server (shallow: false) from the new URL. */
export function NftToolbar({ address, chains, defaultChain }: { address: string; chains: { name: string; label: string }[]; defaultChain: string }) {
  const [pending, startTransition] = useTransition();
  const [v, setV] = useQueryStates(nftParsers, { shallow: false, history: 'push', scroll: false, startTransition });
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const reset = { cursor: null };

  function addContract(e: React.FormEvent) {
    e.preventDefault();
    const a = draft.trim();
    if (!ADDRESS_RE.test(a)) return setProblem('A contract address is 0x followed by 40 hex characters.');
    if (v.contract.some((c) => c.toLowerCase() === a.toLowerCase())) return setProblem('That contract is already in the filter.');
    if (v.contract.length >= MAX_CONTRACT_FILTERS) return setProblem(`At most ${MAX_CONTRACT_FILTERS} contracts at once.`);
    setProblem(null);
    setDraft('');
    void setV({ contract: [...v.contract, a], ...reset });
  }

  return (
    <div className={`mt-4 ${card} px-4 py-3`} aria-busy={pending}>
      <div className="flex flex-wrap items-end gap-x-4 gap-y-3">
        <ChainSelect address={address} chains={chains} value={v.chain} defaultChain={defaultChain} onChange={(chain) => void setV({ chain, ...reset })} />
        <label className="flex flex-col gap-1 text-xs text-ink-muted">
          Token id
          <select className={field} value={v.format} onChange={(e) => void setV({ format: e.target.value === 'hex' ? 'hex' : null })}>
            <option value="decimal">Decimal</option>
            <option value="hex">Hex</option>
          </select>
        </label>
        <label className="flex items-center gap-2 py-1 text-sm">
          <input type="checkbox" checked={v.spam} onChange={(e) => void setV({ spam: e.target.checked || null, ...reset })} className="h-4 w-4 accent-accent" />
          Show possible spam
        </label>
        {pending && <span className="py-1 text-xs text-ink-muted" role="status">Updating…</span>}
      </div>
      <form onSubmit={addContract} className="mt-3 flex flex-wrap items-end gap-2 border-t border-line pt-3">
        <label className="flex min-w-0 flex-1 basis-64 flex-col gap-1 text-xs text-ink-muted">
          Filter by contract (up to {MAX_CONTRACT_FILTERS})
          <input
            className={`${field} font-mono`}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            placeholder="0x…"
            spellCheck={false}
            autoComplete="off"
            aria-describedby={problem ? 'contract-problem' : undefined}
            aria-invalid={problem ? true : undefined}
          />
        </label>
        <button type="submit" className={quietButtonCompact}>
          Add filter
        </button>
        {problem && (
          <p id="contract-problem" role="alert" className="basis-full text-xs text-negative">
            {problem}
          </p>
        )}
      </form>
      {v.contract.length > 0 && (
        <ul aria-label="Contract filters" className="mt-2 flex flex-wrap gap-2">
          {v.contract.map((c) => (
            <li key={c} className="inline-flex items-center gap-1 rounded-card border border-line bg-sunken py-0.5 pl-2 pr-1 font-mono text-xs">
              <span title={c}>{truncateMiddle(c)}</span>
              <button
                type="button"
                aria-label={`Remove filter ${c}`}
                className="rounded px-1 text-ink-muted hover:text-ink"
                onClick={() => void setV({ contract: v.contract.filter((x) => x !== c), ...reset })}
              >
                ×
              </button>
            </li>
          ))}
          <li>
            <button type="button" className="px-1 text-xs text-accent hover:underline" onClick={() => void setV({ contract: null, ...reset })}>
              Clear all
            </button>
          </li>
        </ul>
      )}
    </div>
  );
}
