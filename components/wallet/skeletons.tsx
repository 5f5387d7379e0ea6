import { card } from '@/components/ui/card';
import { Skeleton as Bar } from '@/components/ui/skeleton';

/** Placeholders shaped like the rows and cards they stand for, so nothing jumps when data arrives. */

export function HistorySkeleton({ rows = 8 }: { rows?: number }) {
  return (
    <div aria-busy="true" aria-label="Loading transactions" role="status" className={`overflow-hidden ${card}`}>
      <span className="sr-only">Loading transactions…</span>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="flex items-center gap-4 border-t border-line px-4 py-3 first:border-t-0">
          <div className="min-w-0 flex-1 space-y-2">
            <Bar className="h-3.5 w-40 max-w-full" />
            <Bar className="h-3 w-28" />
          </div>
          <Bar className="hidden h-3.5 w-28 sm:block" />
          <Bar className="h-3.5 w-20" />
        </div>
      ))}
    </div>
  );
}

export function NftGridSkeleton({ cards = 8 }: { cards?: number }) {
  return (
    <div aria-busy="true" role="status" aria-label="Loading NFTs" className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
      <span className="sr-only">Loading NFTs…</span>
      {Array.from({ length: cards }, (_, i) => (
        <div key={i} className={`overflow-hidden ${card}`}>
          <Bar className="aspect-square rounded-none" />
          <div className="space-y-2 p-3">
            <Bar className="h-3.5 w-3/4" />
            <Bar className="h-3 w-1/2" />
          </div>
        </div>
      ))}
    </div>
  );
}

/** The Tokens and Approvals tabs while their rows are read. */
export function TableSkeleton({ label, rows = 5 }: { label: string; rows?: number }) {
  return (
    <div aria-busy="true" aria-label={label} role="status" className={`mt-4 overflow-hidden ${card}`}>
      <span className="sr-only">{label}…</span>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="flex items-center justify-between gap-4 border-t border-line px-4 py-3 first:border-t-0">
          <Bar className="h-3.5 w-40 max-w-full" />
          <Bar className="h-3.5 w-24" />
        </div>
      ))}
    </div>
  );
}
