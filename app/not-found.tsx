import { Link } from '@/components/ui/link';
import { SearchBox } from '@/components/layout/search-box';
import { PageShell } from '@/components/layout/page-shell';

/** Any URL Lantern has no page for: say so, and offer the two ways on. */
export default function NotFound() {
  return (
    <PageShell>
      <div className="max-w-prose">
        <h1 className="text-xl font-semibold">No page here</h1>
        <p className="mt-3 text-ink-muted">
          Lantern has no page at this address. Wallets live at <span className="font-mono text-ink">/wallet/0x…</span> and ledger
          blocks at <span className="font-mono text-ink">/ledger/mainnet/versions/…</span>; search for what you were looking for, or
          start again from the home page.
        </p>
        <div className="mt-5">
          <SearchBox />
        </div>
        <p className="mt-4">
          <Link href="/">Go to the home page</Link>
        </p>
      </div>
    </PageShell>
  );
}
