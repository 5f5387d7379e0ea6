/** What this wallet's history cannot hold on the node Lantern reads (evm-node/capabilities.ts), in words. */
export function CoverageNote({ missing }: { missing: string }) {
  return (
    <p role="note" className="mb-3 rounded-card border border-line bg-warning-soft px-4 py-2 text-sm text-ink" data-coverage="incomplete">
      {missing}
    </p>
  );
}

/** Lantern reads a wallet's newest transactions first and the older ones in the background (evm-node/activity.ts). */
export function IndexingNote() {
  return (
    <p role="status" className="mb-3 rounded-card border border-line bg-sunken px-4 py-2 text-sm text-ink" data-indexing="older">
      Older transactions are still being read from the node. The newest are shown; paging back reads older ones as you go.
    </p>
  );
}
