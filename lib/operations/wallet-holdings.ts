import 'server-only';
import { cachedFor, type Keep, type KeptText } from '@/lib/cache';
import type { Chain, ChainOperation } from '@/lib/chains';
import { serializeApprovalsPage, type ApprovalsPage, type ApprovalsQuery } from '@/lib/interface/approvals';
import { serializeTokenBalancesPage, type Erc20Balance, type Erc20BalancesQuery, type TokenBalancesPage, type TokenBalancesQuery } from '@/lib/interface/tokens';
import type { WalletStats, WalletStatsQuery } from '@/lib/interface/wallet-stats';
import { sources, type EvmSources } from '@/lib/sources';
import { requestChain } from './chains';
import { markStill } from './sources';
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

async function plan<T>(kind: string, address: string, chainValue: string | undefined, query: object, load: (s: EvmSources, chain: Chain) => Promise<T>): Promise<{ value: T; keep: Keep }> {
  const chain = await requestChain(chainValue, CHAINS);
  const s = sources().evm(chain);
  const mark = await s.chain.mark();
  const key = `${kind}:${s.kind}:${chain.hex}:${mark ? `${mark.epoch}:` : ''}${address.toLowerCase()}:${stableKey(query)}${mark ? `@${mark.head}` : ''}`;
  const { value, expires } = await cachedFor(key, { ttl: mark ? NODE_TTL_S : HOSTED_TTL_S }, () => load(s, chain));
  return { value, keep: { until: expires, fresh: markStill(s.chain, mark) } };
}

/** The published API's answer: the value's JSON text, and while the same request gets it (lib/api/answer-cache.ts). */
async function body<T>(planned: Promise<{ value: T; keep: Keep }>, wire: (value: T) => unknown = (v) => v): Promise<KeptText> {
  const { value, keep } = await planned;
  return { text: JSON.stringify(wire(value)), keep };
}

const tokens = (address: string, query: TokenBalancesQuery) => plan('tokens', address, query.chain, query, (s, chain) => s.holdings.tokens(address, chain, query));
const erc20 = (address: string, query: Erc20BalancesQuery) => plan('erc20', address, query.chain, query, (s, chain) => s.holdings.erc20(address, chain, query));
const approvals = (address: string, query: ApprovalsQuery) => plan('approvals', address, query.chain, query, (s, chain) => s.holdings.approvals(address, chain, query));
const stats = (address: string, query: WalletStatsQuery) => plan('stats', address, query.chain, query, (s, chain) => s.holdings.stats(address, chain));

/** GET /wallets/{address}/tokens, as the interface's JSON value. */
export async function getWalletTokens(address: string, query: TokenBalancesQuery): Promise<TokenBalancesPage> {
  return (await tokens(address, query)).value;
}

/** GET /wallets/{address}/tokens for the published API. */
export function getWalletTokensBody(address: string, query: TokenBalancesQuery) {
  return body(tokens(address, query), serializeTokenBalancesPage);
}

/** GET /{address}/erc20: the legacy bare array. */
export async function getWalletErc20(address: string, query: Erc20BalancesQuery): Promise<Erc20Balance[]> {
  return (await erc20(address, query)).value;
}

/** GET /{address}/erc20 for the published API. */
export function getWalletErc20Body(address: string, query: Erc20BalancesQuery) {
  return body(erc20(address, query));
}

/** GET /wallets/{address}/approvals. */
export async function getWalletApprovals(address: string, query: ApprovalsQuery): Promise<ApprovalsPage> {
  return (await approvals(address, query)).value;
}

/** GET /wallets/{address}/approvals for the published API. */
export function getWalletApprovalsBody(address: string, query: ApprovalsQuery) {
  return body(approvals(address, query), serializeApprovalsPage);
}

/** GET /wallets/{address}/stats. */
export async function getWalletStats(address: string, query: WalletStatsQuery): Promise<WalletStats> {
  return (await stats(address, query)).value;
}

/** GET /wallets/{address}/stats for the published API. */
export function getWalletStatsBody(address: string, query: WalletStatsQuery) {
  return body(stats(address, query));
}
