import { SavedWallets } from '@/components/auth/saved-wallets';
import { servedChains } from '@/lib/operations/chains';
import { DevnetShowcase } from '@/components/home/devnet-showcase';
import { RecentSearches } from '@/components/home/recent-searches';
import { SourcesInUse } from '@/components/home/sources-in-use';
import { PageShell } from '@/components/layout/page-shell';
import { SearchBox } from '@/components/layout/search-box';
import { describeSources, sourcesInUse } from '@/lib/operations/sources';
import { devnetDriver } from '@/lib/devnet/driver';

// The sources depend on runtime configuration, never on what was set at build time.
export const dynamic = 'force-dynamic';

export default async function Home() {
  const [inUse, sources, served, driver] = await Promise.all([sourcesInUse(), describeSources(), servedChains('history'), devnetDriver()]);
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

        {inUse.devnet && <DevnetShowcase secondChain={served.some((c) => c.name === 'devnet2')} driver={driver} />}

        <div className="mt-10 grid gap-8 md:grid-cols-2">
          <SavedWallets />
          <RecentSearches />
        </div>

        <SourcesInUse inUse={inUse} sources={sources} />
      </PageShell>
    </>
  );
}
