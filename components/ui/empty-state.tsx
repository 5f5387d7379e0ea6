import type { ReactNode } from 'react';
import { card } from './card';

/**
 * A list with nothing in it (no transactions, no NFTs): what is empty, why, and the next step (clear
 * a filter, try another chain, go back to the first page). Every empty list of the app uses it.
 */
export function EmptyState({ title, children, next }: { title: string; children: ReactNode; next?: ReactNode }) {
  return (
    <div className={`${card} px-4 py-6`} data-empty-state="">
      <h3 className="font-semibold">{title}</h3>
      <p className="mt-1 text-sm text-ink-muted">{children}</p>
      {next && <div className="mt-3 flex flex-wrap gap-x-3 gap-y-1 text-sm">{next}</div>}
    </div>
  );
}
