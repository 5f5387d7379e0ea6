import type { Metadata } from 'next';
import { Link } from '@/components/ui/link';
import { PageShell } from '@/components/layout/page-shell';
import { SearchBox } from '@/components/layout/search-box';
import { searchTarget } from '@/lib/server/search-page';

export const metadata: Metadata = { title: 'Search' };

/**
 * `/search?q=`: opens what was typed (lib/server/search-page.ts redirects), or says why it cannot, beside
 * a search box that still holds what was typed (keyed by it, so a second failed search shows its own).
 */
export default async function SearchPage({ searchParams }: { searchParams: Promise<{ q?: string | string[] }> }) {
  const { input, problem } = await searchTarget((await searchParams).q);
  return (
    <>
      <PageShell>
        <h1 className="text-xl font-semibold">Nothing to open</h1>
        <div className="mt-5 max-w-prose">
          <SearchBox key={input} defaultValue={input} describedBy="search-problem" autoFocus />
        </div>
        <p id="search-problem" role="alert" className="mt-3 max-w-prose text-ink-muted">
          {problem}
        </p>
        <p className="mt-4">
          <Link href="/">Go to the home page</Link>
        </p>
      </PageShell>
    </>
  );
}
