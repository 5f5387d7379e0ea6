import type { LedgerPageRoute } from '@/lib/server/ledger-page';
import { LocalBanner, NetworkSwitch } from './network-switch';
import { VersionSearch } from './version-search';

/** The ledger page's header: the version asked for, the network switch and the version search. It answers at once. */
export function LedgerHeader({ route }: { route: LedgerPageRoute }) {
  return (
    <header className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <p className="text-xs uppercase tracking-wide text-ink-muted">Move ledger · block by version</p>
          <h1 className="text-2xl font-medium">
            Version <span className="break-all font-mono">{route.shown}</span>
          </h1>
        </div>
        <NetworkSwitch current={route.current} path={route.path} />
      </div>
      <VersionSearch network={route.net} initial={route.shown} query={route.query} />
      {route.current === 'local' && <LocalBanner />}
    </header>
  );
}
