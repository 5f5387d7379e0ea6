import 'server-only';
import type { Chain } from '@/lib/chains';
import { approvalsPageSchema, type ApprovalsPage, type ApprovalsQuery } from '@/lib/interface/approvals';
import { erc20BalancesSchema, tokenBalancesPageSchema, type Erc20Balance, type Erc20BalancesQuery, type TokenBalancesPage, type TokenBalancesQuery } from '@/lib/interface/tokens';
import { walletStatsSchema, type WalletStats } from '@/lib/interface/wallet-stats';
import { hostedRequest } from './client';

/** What a wallet holds and who may spend it, and its counts, from the hosted data API (the key is added by client.ts). */

const wallet = (address: string) => encodeURIComponent(address);

export function hostedTokenBalances(address: string, chain: Chain, q: TokenBalancesQuery): Promise<TokenBalancesPage> {
  return hostedRequest({
    service: 'data',
    path: `/api/v2.2/wallets/${wallet(address)}/tokens`,
    query: {
      chain: chain.hex,
      to_block: q.to_block,
      token_addresses: q.token_addresses,
      exclude_spam: q.exclude_spam,
      exclude_native: q.exclude_native,
      cursor: q.cursor,
      limit: q.limit,
    },
    schema: tokenBalancesPageSchema,
  });
}

export function hostedErc20Balances(address: string, chain: Chain, q: Erc20BalancesQuery): Promise<Erc20Balance[]> {
  return hostedRequest({
    service: 'data',
    path: `/api/v2.2/${wallet(address)}/erc20`,
    query: { chain: chain.hex, to_block: q.to_block, token_addresses: q.token_addresses, exclude_spam: q.exclude_spam },
    schema: erc20BalancesSchema,
  });
}

export function hostedApprovals(address: string, chain: Chain, q: ApprovalsQuery): Promise<ApprovalsPage> {
  return hostedRequest({
    service: 'data',
    path: `/api/v2.2/wallets/${wallet(address)}/approvals`,
    query: { chain: chain.hex, cursor: q.cursor, limit: q.limit },
    schema: approvalsPageSchema,
  });
}

export function hostedWalletStats(address: string, chain: Chain): Promise<WalletStats> {
  return hostedRequest({ service: 'data', path: `/api/v2.2/wallets/${wallet(address)}/stats`, query: { chain: chain.hex }, schema: walletStatsSchema });
}
