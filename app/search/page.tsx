import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { SearchBox } from '@/components/layout/search-box';
import { servesLocalDevnet } from '@/lib/operations/chains';
import { resolveName } from '@/lib/operations/names';
import { classifySearch } from '@/lib/search/classify';
import { PageShell } from '@/components/layout/page-shell';

export const metadata: Metadata = { title: 'Search' };

export default async function SearchPage({ searchParams }: { searchParams: Promise<{ q?: string | string[] }> }) {
  const { q } = await searchParams;
  const input = (Array.isArray(q) ? q[0] : q ?? '').slice(0, 256);
  const target = classifySearch(input);
  let problem: string;
  switch (target.kind) {
    case 'address':
      redirect(`/wallet/${target.address}`);
    case 'version': {
      const network = (await servesLocalDevnet()) ? 'local' : 'mainnet';
      redirect(`/ledger/${network}/versions/${target.version}`);
    }
    case 'ens': {
      const resolved = await resolveName(target.name);
      if (resolved.ok) redirect(`/wallet/${resolved.address}`);
      problem = resolved.reason;
      break;
    }
    default:
      problem = input
        ? `“${input}” is not an EVM address (0x followed by 40 hex characters), an ENS name (like vitalik.eth) or a ledger version (digits).`
        : 'Type an EVM address, an ENS name or a ledger version.';
  }
  return (
    <>
      <PageShell>
        <h1 className="text-xl font-semibold">Nothing to open</h1>
        <p role="alert" className="mt-3 max-w-prose text-ink-muted">
          {problem}
        </p>
        <div className="mt-5 max-w-prose">
          <SearchBox />
        </div>
        <p className="mt-4">
          <Link href="/">Go to the home page</Link>
        </p>
      </PageShell>
    </>
  );
}
