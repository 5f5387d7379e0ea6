import { Link } from '@/components/ui/link';
import { sourcesInUse } from '@/lib/operations/sources';

/** Says in one line which sources answer on this server, so a reader knows what the pages are built from. */
export async function SiteFooter() {
  const inUse = await sourcesInUse();
  const answers =
    inUse.kind === 'hosted'
      ? inUse.nodes
        ? 'Answers come from this server’s own nodes for their chains, and from the hosted data API for the rest.'
        : 'Answers come from the hosted data API, through this server.'
      : inUse.devnet
        ? 'Answers come from the embedded devnets: a local EVM chain and a simulated ledger, read by this server.'
        : 'Answers come from this server’s own nodes (EVM JSON-RPC and ledger REST).';
  return (
    <footer className="mt-16 border-t border-line">
      <div className="mx-auto flex max-w-page flex-wrap items-center justify-between gap-x-6 gap-y-2 px-4 py-6 text-sm text-ink-muted">
        <p>{answers}</p>
        <p>
          <Link href="/#sources">Sources in use</Link>
        </p>
      </div>
    </footer>
  );
}
