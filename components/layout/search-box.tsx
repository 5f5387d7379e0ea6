/** A plain GET form, so search works before any JavaScript loads; /search decides where it leads. */
export function SearchBox({ autoFocus = false, id = 'site-search' }: { autoFocus?: boolean; id?: string }) {
  return (
    <form action="/search" method="get" role="search" className="flex min-w-0 flex-1 basis-72 items-center gap-2">
      <label htmlFor={id} className="sr-only">
        Search by address, ENS name or ledger version
      </label>
      <input
        id={id}
        name="q"
        type="search"
        required
        autoFocus={autoFocus}
        autoComplete="off"
        spellCheck={false}
        placeholder="Address, ENS name or ledger version"
        className="min-w-0 flex-1 rounded-card border border-line bg-canvas px-3 py-1.5 font-mono text-sm text-ink placeholder:font-sans placeholder:text-ink-muted"
      />
      <button type="submit" className="rounded-card border border-line bg-sunken px-3 py-1.5 text-sm font-medium text-ink hover:border-accent">
        Search
      </button>
    </form>
  );
}
