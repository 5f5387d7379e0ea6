export default function Loading() {
  return (
    <main className="mx-auto max-w-page space-y-5 px-4 py-8" aria-busy="true">
      <p className="text-xs uppercase tracking-wide text-ink-muted">Move ledger · block by version</p>
      <div className="h-8 w-72 animate-pulse rounded bg-sunken" />
      <div className="h-40 animate-pulse rounded-card border border-line bg-surface" />
      <p className="text-sm text-ink-muted">Loading the block…</p>
    </main>
  );
}
