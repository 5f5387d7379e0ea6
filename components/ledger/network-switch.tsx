import { Link } from '@/components/ui/link';
import { LEDGER_NETWORKS } from '@/lib/interface/ledger';

/** mainnet / testnet / local as links: the choice lives in the URL, so it can be shared. */
export function NetworkSwitch({ current, path }: { current: string; path: (network: string) => string }) {
  return (
    <nav aria-label="Ledger network" className="inline-flex overflow-hidden rounded border border-line text-sm">
      {LEDGER_NETWORKS.map((n) => (
        <Link
          key={n}
          href={path(n)}
          aria-current={n === current ? 'page' : undefined}
          className={`px-3 py-1 no-underline hover:no-underline ${n === current ? 'bg-accent text-surface' : 'bg-surface text-ink hover:bg-sunken'} ${n !== 'mainnet' ? 'border-l border-line' : ''}`}
        >
          {n}
        </Link>
      ))}
    </nav>
  );
}

export function LocalBanner() {
  return (
    <p role="note" className="rounded-card border border-warning/40 bg-warning-soft px-4 py-2 text-sm text-ink">
      <strong className="font-medium text-warning">Simulated ledger.</strong> <code>local</code> is Lantern&apos;s own devnet: a
      deterministic chain generated on this machine. Its blocks, accounts and signatures are not from mainnet or testnet.
    </p>
  );
}
