import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { previewMetadata, txPreview } from '@/app/_og/previews';
import { AddressLink } from '@/components/ui/address-link';
import { CopyButton } from '@/components/ui/copy-button';
import { ErrorState } from '@/components/ui/error-state';
import { listSavedWallets } from '@/lib/auth/saved-wallets';
import type { Chain } from '@/lib/chains';
import { badParameter } from '@/lib/errors';
import { transactionHashSchema, type TransactionDetail } from '@/lib/interface/transaction';
import { getTokenFacts, getTransaction, type TokenFacts } from '@/lib/operations/transaction';
import { formatUnits, formatUtc } from '@/lib/format';
import { chainForView, toErrorInfo } from '@/lib/server/page';
import { callTree, fee, methodOf, nativeMoves, tokenMoves, type CallNode } from '@/lib/view/tx-page';
import { card } from '@/components/ui/card';
import { PageShell } from '@/components/layout/page-shell';
import { PendingTxLive } from '@/components/live/pending-tx';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ hash: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { hash } = await params;
  return previewMetadata(txPreview(hash), { image: false });
}

/**
 * One transaction, linkable: `/tx/{hash}?chain=`. Everything shown comes from the transaction operation
 * (node or hosted, verbose, with internal calls), so both modes show the same page.
 */
export default async function TransactionPage({ params, searchParams }: Props) {
  const [{ hash: param }, sp] = await Promise.all([params, searchParams]);
  const chainParam = typeof sp.chain === 'string' ? sp.chain : null;
  const chainResult = chainForView(chainParam, 'history');
  const loaded = 'error' in chainResult ? { error: chainResult.error } : await load(param, chainResult.chain);
  // An unknown or malformed hash is a real 404 (./not-found.tsx says which, and what to try); a pending
  // transaction is a 200 that says pending.
  if (loaded.error && (loaded.error.code === 'transaction_not_found' || (loaded.error.code === 'invalid_parameter' && loaded.error.parameter === 'hash'))) notFound();
  const body = loaded.error ? (
    <>
      <ErrorState error={loaded.error} />
      {loaded.error.code === 'transaction_pending' && 'chain' in chainResult && <PendingTxLive chain={chainResult.chain.name} />}
    </>
  ) : 'tx' in loaded && loaded.tx ? (
    <TxView tx={loaded.tx} chain={loaded.chain} labels={loaded.labels} tokens={loaded.tokens} />
  ) : null;
  return (
    <PageShell>
      <p className="text-xs font-medium uppercase tracking-wide text-ink-muted">Transaction</p>
      <h1 className="mt-1 flex min-w-0 items-start gap-1 text-lg font-semibold">
        <span className="min-w-0 break-all font-mono" data-testid="tx-hash">
          {param}
        </span>
        <CopyButton value={param} label="Copy transaction hash" />
      </h1>
      <div className="mt-4">{body}</div>
    </PageShell>
  );
}

async function load(param: string, chain: Chain) {
  try {
    const parsed = transactionHashSchema.safeParse(param);
    if (!parsed.success) throw badParameter('hash', `hash: ${parsed.error.issues[0].message}`);
    const tx = await getTransaction(parsed.data, { chain: chain.name, include: 'internal_transactions' }, true);
    // The source's own labels (hosted: entity names), then the person's saved labels over them.
    const labels: Record<string, string> = {};
    if (tx.from_address_label) labels[tx.from_address.toLowerCase()] = tx.from_address_label;
    if (tx.to_address && tx.to_address_label) labels[tx.to_address.toLowerCase()] = tx.to_address_label;
    for (const w of await listSavedWallets()) labels[w.address.toLowerCase()] = w.label;
    const moves = tokenMoves(tx);
    // Where the source reads the chain itself (node mode); else the moves show token addresses.
    const tokens = await getTokenFacts(chain.id, moves.map((m) => ({ address: m.token, hint: m.kind })));
    const info: ChainInfo = { name: chain.name, label: chain.label, symbol: chain.nativeCurrency.symbol, decimals: chain.nativeCurrency.decimals };
    return { tx, chain: info, labels, tokens };
  } catch (e) {
    return { error: await toErrorInfo(e) };
  }
}

interface ChainInfo {
  name: string;
  label: string;
  symbol: string;
  decimals: number;
}

/** A party of this transaction: the kit's address link in full, with the labels known for it. */
function Party({ address, chain, labels, testId }: { address: string | null; chain: ChainInfo; labels: Record<string, string>; testId?: string }) {
  return <AddressLink address={address} label={address ? labels[address.toLowerCase()] : null} chain={chain.name} form="full" data-testid={testId} />;
}

function Row({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1 border-t border-line px-4 py-2.5 first:border-t-0 sm:grid-cols-[10rem_1fr]">
      <dt className="text-sm text-ink-muted">{term}</dt>
      <dd className="min-w-0 text-sm">{children}</dd>
    </div>
  );
}

function amountOf(raw: string, decimals: number | null | undefined): string {
  return decimals === null || decimals === undefined ? raw : formatUnits(raw, decimals).text;
}

function TxView({ tx, chain, labels, tokens }: { tx: TransactionDetail; chain: ChainInfo; labels: Record<string, string>; tokens: Map<string, TokenFacts> }) {
  const ok = tx.receipt_status === '1';
  const natives = nativeMoves(tx);
  const moves = tokenMoves(tx);
  const calls = callTree(tx.internal_transactions ?? []);
  const tokenName = (a: string) => tokens.get(a)?.symbol ?? tokens.get(a)?.name ?? a;
  return (
    <div className="space-y-6">
      <dl className={`overflow-hidden ${card}`}>
        <Row term="Status">
          <span data-testid="tx-status" data-status={tx.receipt_status} className={ok ? 'font-semibold text-positive' : 'font-semibold text-negative'}>
            {ok ? 'Success' : 'Failed (reverted)'}
          </span>
        </Row>
        <Row term="Block">
          <span data-testid="tx-block">{tx.block_number}</span>
        </Row>
        <Row term="Time">
          <time dateTime={tx.block_timestamp} data-testid="tx-time">
            {formatUtc(tx.block_timestamp)}
          </time>
        </Row>
        <Row term="From">
          <Party address={tx.from_address} chain={chain} labels={labels} testId="tx-from" />
        </Row>
        <Row term={tx.to_address ? 'To' : 'Created contract'}>
          <Party address={tx.to_address ?? tx.receipt_contract_address} chain={chain} labels={labels} testId="tx-to" />
        </Row>
        <Row term="Value">
          <span data-testid="tx-value" data-wei={tx.value}>
            {formatUnits(tx.value, chain.decimals).text} {chain.symbol}
          </span>
        </Row>
        <Row term="Fee">
          <span data-testid="tx-fee" data-wei={fee(tx)}>
            {formatUnits(fee(tx), chain.decimals).text} {chain.symbol}
          </span>
        </Row>
        <Row term="Method">
          <span className="font-mono" data-testid="tx-method">
            {methodOf(tx)}
          </span>
        </Row>
      </dl>

      <section aria-labelledby="transfers-heading">
        <h2 id="transfers-heading" className="text-base font-semibold">
          Transfers
        </h2>
        {natives.length + moves.length === 0 ? (
          <p className="mt-2 text-sm text-ink-muted">No value or tokens moved.</p>
        ) : (
          <ul className={`mt-2 divide-y divide-line overflow-hidden ${card}`}>
            {natives.map((n, i) => (
              <li key={`n${i}`} className="px-4 py-2.5 text-sm" data-transfer="native" data-internal={n.internal} data-from={n.from.toLowerCase()} data-to={n.to.toLowerCase()} data-wei={n.value}>
                <span className="font-semibold">
                  {formatUnits(n.value, chain.decimals).text} {chain.symbol}
                </span>
                {n.internal ? ' (internal)' : ''} from <Party address={n.from} chain={chain} labels={labels} /> to <Party address={n.to} chain={chain} labels={labels} />
              </li>
            ))}
            {moves.map((mv, i) => (
              <li
                key={`t${i}`}
                className="px-4 py-2.5 text-sm"
                data-transfer={mv.kind}
                data-log-index={mv.logIndex}
                data-token={mv.token}
                data-from={mv.from}
                data-to={mv.to}
                data-amount={mv.amount}
                data-token-id={mv.tokenId ?? undefined}
              >
                <span className="font-semibold">
                  {mv.kind === 'erc20' ? `${amountOf(mv.amount, tokens.get(mv.token)?.decimals)} ` : mv.kind === 'erc1155' ? `${mv.amount} × ` : ''}
                  <span className="break-all">{tokenName(mv.token)}</span>
                  {mv.tokenId !== null ? ` #${mv.tokenId}` : ''}
                </span>{' '}
                from <Party address={mv.from} chain={chain} labels={labels} /> to <Party address={mv.to} chain={chain} labels={labels} />
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="calls-heading">
        <h2 id="calls-heading" className="text-base font-semibold">
          Internal calls
        </h2>
        {tx.internal_transactions == null ? (
          <p className="mt-2 text-sm text-ink-muted">The source does not say.</p>
        ) : calls.nodes.length === 0 ? (
          <p className="mt-2 text-sm text-ink-muted">None.</p>
        ) : calls.nested ? (
          <div className={`mt-2 ${card} px-4 py-2.5`} data-testid="tx-calls" data-nested="true">
            <CallList nodes={calls.nodes} chain={chain} labels={labels} />
          </div>
        ) : (
          <div className="mt-2" data-testid="tx-calls" data-nested="false">
            <p className="text-sm text-ink-muted" data-testid="tx-calls-flat-note">
              The data provider lists these calls without saying which call made which, so they are shown as a list in its order, not as a
              tree.
            </p>
            <ol className={`mt-2 space-y-1.5 ${card} px-4 py-2.5 text-sm`}>
              {calls.nodes.map((n, i) => (
                <li key={i} data-call>
                  <Call call={n.call} chain={chain} labels={labels} />
                </li>
              ))}
            </ol>
          </div>
        )}
      </section>

      <section aria-labelledby="logs-heading">
        <h2 id="logs-heading" className="text-base font-semibold">
          Logs
        </h2>
        {tx.logs.length === 0 ? (
          <p className="mt-2 text-sm text-ink-muted">None.</p>
        ) : (
          <ol className={`mt-2 divide-y divide-line overflow-hidden ${card}`}>
            {tx.logs.map((l) => (
              <li key={l.log_index} className="px-4 py-2.5 text-sm" data-log={l.log_index} data-decoded={!!l.decoded_event}>
                <p>
                  <span className="text-ink-muted">#{l.log_index}</span> <span className="break-all font-mono">{tokenName(l.address.toLowerCase())}</span>
                </p>
                {l.decoded_event ? (
                  <p className="mt-1 break-all font-mono" data-testid="log-decoded">
                    {l.decoded_event.label}({l.decoded_event.params.map((p) => `${p.name}: ${p.value}`).join(', ')})
                  </p>
                ) : (
                  <p className="mt-1 break-all font-mono text-ink-muted" data-testid="log-raw">
                    {[l.topic0, l.topic1, l.topic2, l.topic3].filter(Boolean).join(' ')} {l.data}
                  </p>
                )}
              </li>
            ))}
          </ol>
        )}
      </section>

      <section aria-labelledby="input-heading">
        <h2 id="input-heading" className="text-base font-semibold">
          Input data
        </h2>
        {/* Scrollable when long: focusable so keyboard users can scroll it too. */}
        <pre
          tabIndex={0}
          aria-labelledby="input-heading"
          className="mt-2 max-h-64 overflow-auto whitespace-pre-wrap break-all rounded-card border border-line bg-sunken px-4 py-2.5 font-mono text-xs"
          data-testid="tx-input"
        >
          {tx.input}
        </pre>
      </section>
    </div>
  );
}

function CallList({ nodes, chain, labels }: { nodes: CallNode[]; chain: ChainInfo; labels: Record<string, string> }) {
  return (
    <ul className="space-y-1.5 text-sm">
      {nodes.map((n, i) => (
        <li key={i} data-call data-call-depth={n.call.depth}>
          <Call call={n.call} chain={chain} labels={labels} />
          {n.children.length > 0 && (
            <div className="ml-4 mt-1.5 border-l border-line pl-3">
              <CallList nodes={n.children} chain={chain} labels={labels} />
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}

function Call({ call, chain, labels }: { call: CallNode['call']; chain: ChainInfo; labels: Record<string, string> }) {
  return (
    <>
      <span className="font-mono text-ink-muted">{call.type}</span> <Party address={call.from} chain={chain} labels={labels} /> →{' '}
      <Party address={call.to} chain={chain} labels={labels} />
      {call.value !== '0' ? ` ${formatUnits(call.value, chain.decimals).text} ${chain.symbol}` : ''}
      {call.reverted ? <span className="text-negative"> (reverted)</span> : null}
    </>
  );
}
