import { card } from '@/components/ui/card';
import { formatUnits, formatUtc } from '@/lib/format';
import type { TxPageData } from '@/lib/server/tx-page';
import { fee, nativeMoves, tokenMoves } from '@/lib/view/tx-page';
import { rawText, shownArgs } from '@/lib/view/tx-receipt';
import { statusWord } from '@/lib/view/tx-status';
import { ArgsList, RawDetails } from './tx-args';
import { TxLogs } from './tx-logs';
import { TxCalls } from './tx-calls';
import { TxParty } from './tx-party';

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

/** One transaction in full, like a receipt: its facts, the method with its arguments, what it moved, its internal calls, its logs and its input. */
export function TxDetails(data: TxPageData) {
  const { tx, chain, labels, tokens, readable, erc20 } = data;
  const ok = tx.receipt_status === '1';
  const method = readable.method;
  const args = shownArgs(method.args, tx.to_address && erc20.includes(tx.to_address.toLowerCase()) ? tokens.get(tx.to_address.toLowerCase()) : null);
  const natives = nativeMoves(tx);
  const moves = tokenMoves(tx);
  const tokenName = (a: string) => tokens.get(a)?.symbol ?? tokens.get(a)?.name ?? a;
  return (
    <div className="space-y-6">
      <dl className={`overflow-hidden ${card}`}>
        <Row term="Status">
          <span data-testid="tx-status" data-status={tx.receipt_status} className={ok ? 'font-semibold text-positive' : 'font-semibold text-negative'}>
            {statusWord(!ok)}
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
          <TxParty address={tx.from_address} chain={chain} labels={labels} testId="tx-from" />
        </Row>
        <Row term={tx.to_address ? 'To' : 'Created contract'}>
          <TxParty address={tx.to_address ?? tx.receipt_contract_address} chain={chain} labels={labels} testId="tx-to" />
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
          <span className="font-mono" data-testid="tx-method" data-method-state={method.state} data-method-trust={method.trust ?? undefined}>
            {method.text}
          </span>
          {args && args.length > 0 && <ArgsList args={args} chain={chain} labels={labels} />}
          {(method.state === 'named' || method.state === 'ambiguous') && <RawDetails signature={method.signature} text={rawText(method)} testId="tx-method-raw" />}
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
                {n.internal ? ' (internal)' : ''} from <TxParty address={n.from} chain={chain} labels={labels} /> to <TxParty address={n.to} chain={chain} labels={labels} />
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
                from <TxParty address={mv.from} chain={chain} labels={labels} /> to <TxParty address={mv.to} chain={chain} labels={labels} />
              </li>
            ))}
          </ul>
        )}
      </section>

      <TxCalls internal={tx.internal_transactions} methods={readable.calls.map((c) => c.method)} chain={chain} labels={labels} />

      <TxLogs {...data} />

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
