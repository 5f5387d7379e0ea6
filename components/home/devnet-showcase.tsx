import Link from 'next/link';
import { SHOWCASE_WALLETS, showcaseVersions } from '@/lib/devnet/showcase';
import { card } from '@/components/ui/card';

/** The devnet home's "where to click": only rendered when Lantern runs on its embedded devnets. */
export function DevnetShowcase() {
  return (
    <section aria-labelledby="devnet-showcase" className="mt-10">
      <h2 id="devnet-showcase" className="text-lg font-semibold">
        Start here: the devnets’ story
      </h2>
      <p className="mt-1 max-w-prose text-sm text-ink-muted">
        This server runs on its embedded devnets: a local EVM chain seeded with a few months of activity, and a simulated
        ledger. Each link below opens a page with data.
      </p>
      <div className="mt-4 grid gap-6 md:grid-cols-2">
        <div className={`${card} p-4`}>
          <h3 className="font-medium">Devnet wallets</h3>
          <ul className="mt-2 divide-y divide-line">
            {SHOWCASE_WALLETS.map((w) => (
              <li key={w.name} className="py-2">
                <Link href={w.tab === 'nfts' ? `/wallet/${w.address}/nfts` : `/wallet/${w.address}`} className="font-medium">
                  {w.name}
                </Link>
                <p className="text-sm text-ink-muted">{w.shows}</p>
              </li>
            ))}
          </ul>
        </div>
        <div className={`${card} p-4`}>
          <h3 className="font-medium">Local ledger versions</h3>
          <ul className="mt-2 divide-y divide-line">
            {showcaseVersions().map((v) => (
              <li key={v.label} className="py-2">
                <Link href={`/ledger/local/versions/${v.version}`} className="font-medium">
                  {v.label} · version {v.version}
                </Link>
                <p className="text-sm text-ink-muted">{v.shows}</p>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}
