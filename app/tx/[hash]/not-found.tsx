import { Link } from '@/components/ui/link';
import { PageShell } from '@/components/layout/page-shell';
import { TxNotFoundDetails } from '@/components/tx/tx-not-found';
import { chainOptions, defaultChainName } from '@/lib/server/page';

/** An unknown or malformed transaction hash: a real 404 that says so, and the ways on. */
export default async function TransactionNotFound() {
  const [chains, defaultChain] = await Promise.all([chainOptions('history'), defaultChainName('history')]);
  return (
    <PageShell>
      <div className="max-w-prose">
        <h1 className="text-xl font-semibold">Transaction not found</h1>
        <TxNotFoundDetails chains={chains} defaultChain={defaultChain} />
        <p className="mt-4">
          <Link href="/">Go to the home page</Link>
        </p>
      </div>
    </PageShell>
  );
}
