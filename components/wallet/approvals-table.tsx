import { Link } from '@/components/ui/link';
import { AddressLink } from '@/components/ui/address-link';
import { card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { Time } from '@/components/ui/time';
import { truncateMiddle } from '@/lib/format';
import { approvalsPath, type ApprovalsData } from '@/lib/server/approvals-page';
import { renderTime } from '@/lib/server/page';
import type { ErrorInfo } from '@/lib/view/error-copy';
import { RevokeButton } from './revoke-button';

/**
 * Who may spend the wallet's tokens now: each standing ERC-20 allowance (amount or "Unlimited", what it
 * can take now) and each NFT operator, when and in which transaction it was granted. The owner, signed
 * in, may revoke each from here.
 */
export async function ApprovalsTable({
  approvals,
  address,
  chain,
}: {
  approvals: Promise<ApprovalsData | { error: ErrorInfo }>;
  address: string;
  chain: { name: string; label: string; id: number; query: string };
}) {
  const data = await approvals;
  if ('error' in data) return <ErrorState error={data.error} resetHref={approvalsPath(address)} />;
  const now = renderTime();
  return (
    <section aria-labelledby="approvals-heading" className="mt-4" data-block={data.block ?? undefined}>
      <h2 id="approvals-heading" className="text-base font-semibold">
        Who may spend this wallet&apos;s tokens
      </h2>
      {!data.owner && data.rows.length > 0 && <p className="mt-1 text-sm text-ink-muted">Sign in as this wallet to revoke an approval from here.</p>}
      {data.rows.length === 0 ? (
        <div className="mt-2">
          <EmptyState title={`No approvals on ${chain.label}`}>Nobody may spend this wallet&apos;s tokens or NFTs on {chain.label}: it has no standing allowance and no operator.</EmptyState>
        </div>
      ) : (
        <ul className="mt-2 space-y-2" aria-label={`Approvals on ${chain.label}`}>
          {data.rows.map((r) => (
            <li
              key={r.key}
              className={`${card} grid min-w-0 grid-cols-1 gap-x-4 gap-y-2 px-4 py-3 text-sm sm:grid-cols-[1fr_1fr_auto]`}
              data-approval={r.kind}
              data-token={r.token.address.toLowerCase()}
              data-spender={r.spender.address.toLowerCase()}
              data-raw={r.raw ?? undefined}
            >
              <div className="min-w-0">
                <p className="text-xs text-ink-muted">{r.kind === 'erc20' ? 'Token' : 'NFT collection'}</p>
                <p className="min-w-0 break-words">
                  <Link href={`/wallet/${r.token.address}${chain.query}`} title={r.token.address} className="font-medium">
                    {r.token.name ?? truncateMiddle(r.token.address)}
                  </Link>
                  {r.token.symbol && <span className="text-ink-muted"> {r.token.symbol}</span>}
                  {r.token.spam && <span className="ml-1 rounded bg-warning-soft px-1 text-xs font-medium text-warning">Possible spam</span>}
                </p>
                <p className="mt-1 text-xs text-ink-muted">{r.kind === 'erc20' ? 'Spender' : 'Operator'}</p>
                <AddressLink address={r.spender.address} label={r.spender.label} chain={chain.name} data-testid="spender" />
              </div>
              <div className="min-w-0">
                <p className="text-xs text-ink-muted">{r.kind === 'erc20' ? 'Allowance' : 'May move'}</p>
                <p className="break-all font-semibold" data-role="allowance">
                  {r.kind === 'erc20' ? `${r.amount ?? '?'}${r.token.symbol ? ` ${r.token.symbol}` : ''}` : 'Every NFT of the collection'}
                </p>
                {r.atRisk !== null && (
                  <p className="text-xs text-ink-muted">
                    At risk now: <span data-role="at-risk">{r.atRisk}{r.token.symbol ? ` ${r.token.symbol}` : ''}</span>
                  </p>
                )}
                {r.grantedAt && (
                  <p className="text-xs text-ink-muted">
                    Granted <Time at={r.grantedAt} now={now} show="age" />
                    {r.tx && (
                      <>
                        {' '}
                        in <Link href={`/tx/${r.tx}${chain.query}`} className="font-mono" aria-label={`Transaction ${r.tx}`}>{truncateMiddle(r.tx)}</Link>
                      </>
                    )}
                  </p>
                )}
              </div>
              {data.owner && (
                <div className="sm:self-center">
                  <RevokeButton
                    owner={address}
                    chainId={chain.id}
                    chainName={chain.name}
                    kind={r.kind}
                    token={r.token.address}
                    tokenName={r.token.symbol ?? r.token.name ?? truncateMiddle(r.token.address)}
                    spender={r.spender.address}
                    wallet={data.wallet}
                  />
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {data.truncated && <p className="mt-2 text-sm text-ink-muted">This wallet has more approvals than one page lists; the first 500 are shown.</p>}
    </section>
  );
}
