import { Link } from '@/components/ui/link';
import { Amount } from '@/components/ui/amount';
import { card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { truncateMiddle } from '@/lib/format';
import { tokensPath, type TokensData, type TokensView } from '@/lib/server/tokens-page';
import { serializeTokensParams } from '@/lib/server/view-params';
import type { ErrorInfo } from '@/lib/view/error-copy';

/** What the wallet holds now (streamed in behind a skeleton): the native coin first, then each ERC-20. */
export async function TokensTable({
  tokens,
  address,
  view,
  chainLabel,
  historyChain,
}: {
  tokens: Promise<TokensData | { error: ErrorInfo }>;
  address: string;
  view: TokensView;
  chainLabel: string;
  /** The chain whose history each token row links to, filtered on the token; null where the history has no token filter (hosted mode). */
  historyChain: string | null;
}) {
  const data = await tokens;
  const base = tokensPath(address);
  if ('error' in data) return <ErrorState error={data.error} resetHref={base} />;
  const chainQs = view.chain ? `?chain=${encodeURIComponent(view.chain)}` : '';
  const showSpam = serializeTokensParams(base, { ...view, spam: true });
  // The native coin is always listed; a wallet holds "nothing" when it has none of it and no token.
  const holdsNothing = data.rows.every((r) => r.native && r.raw === '0') && data.unreadable.length === 0;

  return (
    <section aria-labelledby="tokens-heading" className="mt-4" data-block={data.block ?? undefined}>
      <h2 id="tokens-heading" className="sr-only">
        Tokens held
      </h2>
      {holdsNothing ? (
        <EmptyState title={`Nothing held on ${chainLabel}`} next={data.hiddenSpam > 0 ? <Link className="underline" href={showSpam}>Show {data.hiddenSpam} possible spam</Link> : undefined}>
          This wallet holds no {chainLabel} coin and no tokens there{data.hiddenSpam > 0 ? ' (possible spam hidden)' : ''}.
        </EmptyState>
      ) : (
        <div className={`${card} overflow-hidden`}>
          <table className="w-full table-fixed text-sm">
            <caption className="sr-only">Tokens this wallet holds on {chainLabel}{data.block ? `, at block ${data.block}` : ''}</caption>
            <thead className="border-b border-line bg-sunken text-left text-xs text-ink-muted">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">
                  Token
                </th>
                <th scope="col" className="w-[45%] px-3 py-2 text-right font-medium">
                  Balance
                </th>
              </tr>
            </thead>
            <tbody>
              {data.rows.map((r) => (
                <tr key={r.address} className="border-b border-line last:border-b-0" data-token={r.address.toLowerCase()} data-raw={r.raw} data-spam={r.spam ? 'true' : undefined}>
                  <td className="min-w-0 px-3 py-2 align-top">
                    <div className="flex min-w-0 flex-wrap items-baseline gap-x-2">
                      <span className="min-w-0 break-words font-medium" data-role="token-name">
                        {r.name ?? (r.native ? 'Native coin' : 'Unnamed token')}
                      </span>
                      {r.symbol && <span className="text-ink-muted" data-role="token-symbol">{r.symbol}</span>}
                      {r.spam && (
                        <span className="rounded bg-warning-soft px-1 text-xs font-medium text-warning" data-role="spam-mark">
                          Possible spam
                        </span>
                      )}
                    </div>
                    {r.native ? (
                      <p className="text-xs text-ink-muted">{chainLabel}&apos;s own coin</p>
                    ) : (
                      <p className="text-xs text-ink-muted">
                        <Link href={`/wallet/${r.address}${chainQs}`} className="font-mono" title={r.address} aria-label={`Token contract ${r.address}`}>
                          {truncateMiddle(r.address)}
                        </Link>
                        {historyChain && (
                          <>
                            {' · '}
                            <Link
                              href={`/wallet/${address}?token=${encodeURIComponent(r.address)}&chain=${encodeURIComponent(historyChain)}`}
                              aria-label={`Transfers of ${r.symbol ?? r.name ?? r.address} in the history`}
                              data-role="token-history"
                            >
                              Transfers
                            </Link>
                          </>
                        )}
                      </p>
                    )}
                    {r.note && <p className="text-xs text-warning">{r.note}</p>}
                  </td>
                  <td className="px-3 py-2 text-right align-top">
                    <Amount value={r.balance} symbol={r.decimals === null ? null : r.symbol} className="break-all" data-testid="token-balance" />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {data.hiddenSpam > 0 && !holdsNothing && (
        <p className="mt-2 text-sm text-ink-muted">
          {data.hiddenSpam} possible spam {data.hiddenSpam === 1 ? 'token' : 'tokens'} hidden. <Link href={showSpam}>Show them</Link>
        </p>
      )}
      {data.truncated && <p className="mt-2 text-sm text-ink-muted">This wallet holds more tokens than one page lists; the first 500 are shown.</p>}
      {data.unreadable.length > 0 && (
        <div className="mt-4">
          <h3 className="text-sm font-semibold">Balances that could not be read</h3>
          <ul className="mt-1 space-y-1 text-sm" aria-label="Tokens whose balance could not be read">
            {data.unreadable.map((u) => (
              <li key={u.address} data-unreadable={u.address.toLowerCase()} className="min-w-0 break-words">
                <span className="font-medium">{u.name ?? truncateMiddle(u.address)}</span>
                {u.symbol && <span className="text-ink-muted"> {u.symbol}</span>}: <span className="text-ink-muted">{u.reason}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
