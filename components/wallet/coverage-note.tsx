/** What this wallet's history cannot hold on the node Lantern reads (evm-node/capabilities.ts), in words. */
export function CoverageNote({ missing }: { missing: string }) {
  return (
    <p role="note" className="mb-3 rounded-card border border-line bg-warning-soft px-4 py-2 text-sm text-ink" data-coverage="incomplete">
      {missing}
    </p>
  );
}
