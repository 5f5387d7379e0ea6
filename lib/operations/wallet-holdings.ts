import 'server-only';
import { cached } from '@/lib/cache';
import type { Chain, ChainOperation } from '@/lib/chains';
import { serializeApprovalsPage, type ApprovalsPage, type ApprovalsQuery } from '@/lib/interface/approvals';
import { serializeTokenBalancesPage, type Erc20Balance, type Erc20BalancesQuery, type TokenBalancesPage, type TokenBalancesQuery } from '@/lib/interface/tokens';
import type { WalletStats, WalletStatsQuery } from '@/lib/interface/wallet-stats';
import { sources, type EvmSources } from '@/lib/sources';
import { requestChain } from './chains';
import { stableKey } from './wallet-history';

/**
 * What a wallet holds, who may spend it, and its counts: each chain's sources (its node's, else the hosted
 * data API's, lib/sources). A source that reads at a head (node mode) answers are kept under the
 * chain's epoch and the head block they were read at (a new block is a new key), NODE_TTL_S to bound
 * memory; the hosted API does not say its head, so its answers are kept HOSTED_TTL_S.
 */
const NODE_TTL_S = 60;
const HOSTED_TTL_S = 10;
/** The token operations accept the chains of the wider of the interface's two chain tables. */
const CHAINS: ChainOperation = 'nfts';

async function plan<T>(kind: string, address: string, chainValue: string | undefined, query: object, load: (s: EvmSources, chain: Chain) => Promise<T>): Promise<T> {
  const chain = await requestChain(chainValue, CHAINS);
  const s = sources().evm(chain);
  const mark = await s.chain.mark();
  const key = `${kind}:${s.kind}:${chain.hex}:${mark ? `${mark.epoch}:` : ''}${address.toLowerCase()}:${stableKey(query)}${mark ? `@${mark.head}` : ''}`;
  return cached(key, { ttl: mark ? NODE_TTL_S : HOSTED_TTL_S }, () => load(s, chain));
}

/** GET /wallets/{address}/tokens, as the interface's JSON value. */
export async function getWalletTokens(address: string, query: TokenBalancesQuery): Promise<TokenBalancesPage> {
  return plan('tokens', address, query.chain, query, (s, chain) => s.holdings.tokens(address, chain, query));
}

export async function getWalletTokensWire(address: string, query: TokenBalancesQuery) {
  return serializeTokenBalancesPage(await getWalletTokens(address, query));
}

/** GET /{address}/erc20: the legacy bare array. */
export function getWalletErc20(address: string, query: Erc20BalancesQuery): Promise<Erc20Balance[]> {
  return plan('erc20', address, query.chain, query, (s, chain) => s.holdings.erc20(address, chain, query));
}

/** GET /wallets/{address}/approvals. */
export function getWalletApprovals(address: string, query: ApprovalsQuery): Promise<ApprovalsPage> {
  return plan('approvals', address, query.chain, query, (s, chain) => s.holdings.approvals(address, chain, query));
}

export async function getWalletApprovalsWire(address: string, query: ApprovalsQuery) {
  return serializeApprovalsPage(await getWalletApprovals(address, query));
}

/** GET /wallets/{address}/stats. */
export function getWalletStats(address: string, query: WalletStatsQuery): Promise<WalletStats> {
  return plan('stats', address, query.chain, query, (s, chain) => s.holdings.stats(address, chain));
}
