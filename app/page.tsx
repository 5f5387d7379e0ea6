import { SearchBox } from '@/components/layout/search-box';
import { SavedWallets } from '@/components/auth/saved-wallets';
import { describeSources, sourcesInUse } from '@/lib/operations/sources';
import { servedChains } from '@/lib/operations/chains';
import { DevnetShowcase } from '@/components/home/devnet-showcase';
import { RecentSearches } from '@/components/home/recent-searches';
import { card } from '@/components/ui/card';
import { PageShell } from '@/components/layout/page-shell';

// The sources depend on runtime configuration, never on what was set at build time.
export const dynamic = 'force-dynamic';

export default async function Home() {
  const [inUse, sources, served] = await Promise.all([sourcesInUse(), describeSources(), servedChains('history')]);
  return (
    <>
      <PageShell>
        <section aria-labelledby="intro" className="max-w-prose">
          <h1 id="intro" className="text-2xl font-semibold">
            Read any wallet, and any ledger block.
          </h1>
          <p className="mt-3 text-ink-muted">
            Lantern shows the full history of an EVM wallet (native, token, NFT and internal transfers), the NFTs it owns, and
            blocks of the Aptos ledger by version. Every view is a link you can share. It answers from a hosted data API when
            this server has a key, or reads nodes itself.
          </p>
          <div className="mt-6">
            <SearchBox />
          </div>
        </section>

        {inUse.devnet && <DevnetShowcase secondChain={served.some((c) => c.name === 'devnet2')} />}

        <div className="mt-10 grid gap-8 md:grid-cols-2">
          <SavedWallets />
          <RecentSearches />
        </div>

        <section id="sources" aria-labelledby="sources-title" className="mt-12">
          <h2 id="sources-title" className="text-lg font-semibold">
            Sources in use
          </h2>
          <p className="mt-1 text-sm text-ink-muted">
            Mode:{' '}
            {inUse.kind === 'hosted'
              ? inUse.nodes
                ? 'each chain with a node is read from it, every other chain from the hosted data API (DATA_API_KEY is set)'
                : 'hosted data API (DATA_API_KEY is set)'
              : 'Lantern’s own sources (no DATA_API_KEY)'}
          </p>
          {/* Focusable so the table can be scrolled from the keyboard where a phone is too narrow for it. */}
          <div className={`mt-4 overflow-x-auto ${card}`} tabIndex={0} role="region" aria-labelledby="sources-title">
            <table className="w-full text-left text-sm">
              <thead className="bg-sunken text-ink-muted">
                <tr>
                  <th scope="col" className="px-4 py-2 font-medium">Operation</th>
                  <th scope="col" className="px-4 py-2 font-medium">Chain</th>
                  <th scope="col" className="px-4 py-2 font-medium">Source</th>
                  <th scope="col" className="px-4 py-2 font-medium">Host</th>
                </tr>
              </thead>
              <tbody>
                {sources.map((s) => (
                  <tr key={`${s.operation}:${s.chain}`} className="border-t border-line">
                    <td className="px-4 py-2">{s.operation}</td>
                    <td className="px-4 py-2">{s.chain}</td>
                    <td className="px-4 py-2">{s.source}</td>
                    <td className="break-all px-4 py-2 font-mono text-ink-muted">{s.host}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      </PageShell>
    </>
  );
}
