import { Link } from '@/components/ui/link';
import { SHOWCASE_SECOND_CHAIN, SHOWCASE_WALLETS, showcaseVersions, type ShowcaseWallet } from '@/lib/devnet/showcase';
import { card } from '@/components/ui/card';
import type { DevnetDriverState } from '@/lib/devnet/driver';
import { DevnetDriverButton } from './devnet-driver-button';

const walletHref = (w: ShowcaseWallet, chain?: string) => `/wallet/${w.address}${w.tab === 'nfts' ? '/nfts' : ''}${chain ? `?chain=${chain}` : ''}`;

/**
 * The devnet home's "where to click": only rendered when Lantern runs on its embedded devnets. With the
 * second devnet served (`secondChain`), its wallets too, each linked on that chain. Under `npm run dev`
 * (`driver`: its live driver's state), a button keeps the devnet moving.
 */
export function DevnetShowcase({ secondChain, driver = null }: { secondChain: boolean; driver?: DevnetDriverState | null }) {
  return (
    <section aria-labelledby="devnet-showcase" className="mt-10">
      <h2 id="devnet-showcase" className="text-lg font-semibold">
        Start here: the devnets’ story
      </h2>
      <p className="mt-1 max-w-prose text-sm text-ink-muted">
        This server runs on its embedded devnets: a local EVM chain seeded with a few months of activity
        {secondChain ? ', a second one (devnet 2, chain 31338) where some of the same wallets are active too,' : ''} and a simulated
        ledger. Each link below opens a page with data.
      </p>
      {driver && <DevnetDriverButton initial={driver} />}
      <div className="mt-4 grid gap-6 md:grid-cols-2">
        <div className={`${card} p-4`}>
          <h3 className="font-medium">Devnet wallets</h3>
          <ul className="mt-2 divide-y divide-line">
            {SHOWCASE_WALLETS.map((w) => (
              <li key={w.name} className="py-2">
                <Link href={walletHref(w)} className="font-medium">
                  {w.name}
                </Link>
                <p className="text-sm text-ink-muted">{w.shows}</p>
              </li>
            ))}
          </ul>
          {secondChain && (
            <>
              <h3 className="mt-4 font-medium">On devnet 2</h3>
              <ul className="mt-2 divide-y divide-line" data-testid="showcase-devnet2">
                {SHOWCASE_SECOND_CHAIN.map((w) => (
                  <li key={w.name} className="py-2">
                    <Link href={walletHref(w, 'devnet2')} className="font-medium">
                      {w.name} on devnet 2
                    </Link>
                    <p className="text-sm text-ink-muted">{w.shows}</p>
                  </li>
                ))}
              </ul>
            </>
          )}
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
