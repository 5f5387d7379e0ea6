'use client';

import { useQueryStates } from 'nuqs';
import { useTransition } from 'react';
import { card } from '@/components/ui/card';
import { tokensParsers, serializeTokensParams } from '@/lib/browser/view-params';
import { ChainSelect } from './toolbar-fields';

/**
 * The Tokens and Approvals tabs' controls, in the URL (nuqs) so a link shows the same view: the chain,
 * and on Tokens the history's "Show possible spam" toggle and the CSV of what is shown.
 */
export function TokensToolbar({
  address,
  chains,
  defaultChain,
  withSpam,
}: {
  address: string;
  chains: { name: string; label: string }[];
  defaultChain: string;
  /** The Tokens tab: the spam toggle and the CSV link. */
  withSpam: boolean;
}) {
  const [pending, startTransition] = useTransition();
  const [v, setV] = useQueryStates(tokensParsers, { shallow: false, history: 'push', scroll: false, startTransition });
  const csvHref = serializeTokensParams(`/wallet/${address}/tokens.csv`, v);
  return (
    <div className={`mt-4 ${card} px-4 py-3`} aria-busy={pending}>
      <div className="flex flex-wrap items-end gap-x-4 gap-y-3">
        <ChainSelect address={address} chains={chains} value={v.chain} defaultChain={defaultChain} onChange={(chain) => void setV({ chain })} />
        {withSpam && (
          <label className="flex items-center gap-2 py-1 text-sm">
            <input type="checkbox" checked={v.spam} onChange={(e) => void setV({ spam: e.target.checked || null })} className="h-4 w-4 accent-accent" />
            Show possible spam
          </label>
        )}
        {pending && (
          <span className="py-1 text-xs text-ink-muted" role="status">
            Updating…
          </span>
        )}
        {withSpam && (
          <a href={csvHref} className="ml-auto py-1 text-sm" download>
            Download CSV
          </a>
        )}
      </div>
    </div>
  );
}
