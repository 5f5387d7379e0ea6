import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { userAgent } from 'next/server';
import { blockPreview, previewMetadata } from '@/app/_og/previews';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { Suspense } from 'react';
import { BlockSummary } from '@/components/ledger/block-summary';
import { ErrorState } from '@/components/ui/error-state';
import { toBlockView } from '@/lib/view/ledger-block';
import { LocalBanner, NetworkSwitch } from '@/components/ledger/network-switch';
import { TransactionsTable } from '@/components/ledger/transactions-table';
import { VersionSearch } from '@/components/ledger/version-search';
import { ledgerNetworkSchema, ledgerVersionSchema, type LedgerBlock, type LedgerNetworkName } from '@/lib/interface/ledger';
import { queryBoolean } from '@/lib/interface/common';
import { getBlockByVersion } from '@/lib/operations/ledger-block';
import { renderTime, safeDecode, toErrorInfo } from '@/lib/server/page';
import type { ErrorInfo } from '@/lib/view/error-copy';
import { ledgerErrorCopy, ledgerErrorKind } from '@/lib/view/ledger-error-copy';
import { card } from '@/components/ui/card';
import { pulse } from '@/components/ui/skeleton';
import { PageShell } from '@/components/layout/page-shell';

type Props = {
  params: Promise<{ network: string; version: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/**
 * A link-preview bot waits for the head, so it gets the block read from its node; a person's browser is
 * given the head from the block cache only (else the version asked for): the router waits for the head
 * before a navigation lands, and a prefetch renders it too, so a slow node would hold the click and every
 * link to a block would ask the node for it.
 */
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { network, version } = await params;
  const { isBot } = userAgent({ headers: await headers() });
  return previewMetadata(await blockPreview(network, version, { cachedOnly: !isBot }));
}

/** On the page transactions are shown unless `?with_transactions=false` (the API's default is the opposite). */
function pageWithTransactions(raw: string | string[] | undefined): boolean {
  if (raw === undefined || Array.isArray(raw)) return true;
  const r = queryBoolean.safeParse(raw);
  return r.success ? (r.data ?? true) : true;
}

export default async function LedgerVersionPage({ params, searchParams }: Props) {
  const { network: rawNetwork, version: rawVersion } = await params;
  const sp = await searchParams;
  const withTransactions = pageWithTransactions(sp.with_transactions);
  const query = withTransactions ? '' : '?with_transactions=false';
  const versionText = safeDecode(rawVersion);

  const network = ledgerNetworkSchema.safeParse(rawNetwork);
  const version = ledgerVersionSchema.safeParse(versionText);
  if (network.success && version.success && version.data !== versionText) {
    redirect(`/ledger/${network.data}/versions/${version.data}${query}`); // one URL per version (007 -> 7)
  }
  const net = network.success ? network.data : 'local';
  const path = (n: string) => `/ledger/${n}/versions/${version.success ? version.data : encodeURIComponent(versionText)}${query}`;

  let failure: ErrorInfo | undefined;
  if (!network.success) failure = { code: 'invalid_parameter', parameter: 'network', status: 400, message: `“${rawNetwork.slice(0, 80)}” is not a ledger network Lantern knows.` };
  else if (!version.success) failure = { code: 'invalid_parameter', parameter: 'version', status: 400, message: `“${versionText.slice(0, 80)}” is not a valid version.` };

  // The header answers at once; the block streams in below it (a mainnet node can take a moment).
  return (
    <PageShell className="space-y-5">
      <header className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div>
            <p className="text-xs uppercase tracking-wide text-ink-muted">Move ledger · block by version</p>
            <h1 className="text-2xl font-medium">
              Version <span className="break-all font-mono">{version.success ? version.data : versionText.slice(0, 80)}</span>
            </h1>
          </div>
          <NetworkSwitch current={network.success ? network.data : ''} path={path} />
        </div>
        <VersionSearch network={net} initial={version.success ? version.data : versionText.slice(0, 80)} query={query} />
        {net === 'local' && network.success && <LocalBanner />}
      </header>

      {failure && <LedgerError error={failure} />}
      {!failure && network.success && version.success && (
        <Suspense key={`${net}/${version.data}/${withTransactions}`} fallback={<BlockSkeleton />}>
          <BlockSection network={network.data} version={version.data} withTransactions={withTransactions} query={query} />
        </Suspense>
      )}
    </PageShell>
  );
}

async function BlockSection({ network, version, withTransactions, query }: { network: LedgerNetworkName; version: string; withTransactions: boolean; query: string }) {
  let block: LedgerBlock;
  try {
    block = await getBlockByVersion(network, version, withTransactions);
  } catch (e) {
    return <LedgerError error={await toErrorInfo(e)} />;
  }
  const view = toBlockView(block);
  return (
    <>
      <BlockSummary block={view} network={network} query={query} now={renderTime()} />
      <section aria-labelledby="tx-heading" className="space-y-2">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="tx-heading" className="text-lg font-medium">
            Transactions
          </h2>
          {withTransactions ? (
            <Link href={`/ledger/${network}/versions/${version}?with_transactions=false`} className="text-sm">
              Hide transactions
            </Link>
          ) : (
            <Link href={`/ledger/${network}/versions/${version}`} className="text-sm">
              Show transactions
            </Link>
          )}
        </div>
        {view.rows ? (
          <>
            <p className="text-sm text-ink-muted">
              {view.count.toLocaleString('en-US')} transactions; version {version} is highlighted. Open a row for its payload, signature
              and events.
            </p>
            <TransactionsTable network={network} rows={view.rows} highlight={version} />
          </>
        ) : (
          <p className="text-sm text-ink-muted">Transactions are not loaded for this view.</p>
        )}
      </section>
    </>
  );
}

function BlockSkeleton() {
  return (
    <div aria-busy="true" className="space-y-3">
      <div className={`h-40 ${pulse} ${card}`} />
      <p className="text-sm text-ink-muted">Loading the block…</p>
    </div>
  );
}

/** Every failure of this page, in the app's one error vocabulary, with the ledger's ways on. */
function LedgerError({ error }: { error: ErrorInfo }) {
  return (
    <ErrorState
      error={error}
      copy={ledgerErrorCopy(error)}
      data-testid={`ledger-error-${ledgerErrorKind(error)}`}
      actions={
        <>
          <span className="text-ink-muted">Look up another version in the box above, or</span>
          <Link href="/">go to the home page</Link>
        </>
      }
    />
  );
}
