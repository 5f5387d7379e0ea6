import 'server-only';
import type { Chain } from '@/lib/chains';
import { cached } from '@/lib/cache';
import type { BalanceQuery, NativeBalance } from '@/lib/interface/balance';
import { historyQuerySchema } from '@/lib/interface/history';
import { sources } from '@/lib/sources';
import { requestChain } from './chains';
import { getWalletHistoryFirstSight } from './wallet-history';

/**
 * A wallet's native balance. Node mode reads eth_getBalance at the node's head and caches the answer
 * under that head block (60 s, to bound memory): a new block is a new key, so an answer is never older
 * than the head Lantern has seen (itself shared for 1 s). Hosted mode cannot see the head: its answers
 * are kept 10 s.
 */
export const HOSTED_BALANCE_TTL_S = 10;
export const NODE_BALANCE_TTL_S = 60;

export async function getNativeBalance(address: string, query: BalanceQuery): Promise<NativeBalance & { chain: Chain }> {
  const chain = await requestChain(query.chain, 'history');
  const s = sources().evm(chain);
  const wallet = address.toLowerCase();
  const mark = await s.chain.mark();
  const head = mark === null ? null : await s.chain.head();
  const load = () => s.balance.nativeBalance(address, chain, head);
  // Node: keyed by epoch and head, so a head replaced at the same height (a reorg) is a new key too.
  const balance =
    mark === null
      ? await cached(`balance:${s.kind}:${chain.hex}:${wallet}`, { ttl: HOSTED_BALANCE_TTL_S }, load)
      : await cached(`balance:${s.kind}:${chain.hex}:${wallet}:${mark.head}`, { ttl: NODE_BALANCE_TTL_S }, load);
  return { balance, chain };
}

export interface WalletSummary {
  balance: string;
  chain: Chain;
  /** Transactions touching the wallet, where the source knows it (node mode's activity index, once complete). */
  transactionCount?: number;
  /** The source is still reading the wallet's older transactions (node mode), so the count is not known yet. */
  indexing?: boolean;
  /** ISO times of the wallet's first and latest transaction, when it has any. */
  firstActivity?: string;
  lastActivity?: string;
}

/**
 * What the balance header shows: the balance, and from the history the first and latest activity.
 * `after`: the page's own first page of the history. A node source reads a never-seen wallet's history
 * windows itself, and the header's two reads (its oldest and newest rows) beside that first page take the
 * node from it: they start once it is read (the balance at once). The hosted API is asked at once.
 */
export async function getWalletSummary(address: string, chainValue: string | undefined, after?: Promise<unknown>): Promise<WalletSummary> {
  // One chain for the three reads: the one the request means (the chain rule), named explicitly.
  const asked = await requestChain(chainValue, 'history');
  const { name } = asked;
  const balanceRead = getNativeBalance(address, { chain: name });
  balanceRead.catch(() => undefined);
  if (after && sources().evm(asked).kind === 'node') await after.catch(() => undefined);
  // The rows' times only: read as a first sight (rows before their internal transfers), so the header never
  // waits for a block's trace the first page is still reading (issue 22: rows first, details after).
  const edge = (order: 'ASC' | 'DESC') => getWalletHistoryFirstSight(address, historyQuerySchema.parse({ chain: name, limit: '1', order })).then((r) => r.page);
  // The newest first: an oldest-first read of the node source waits for a newest-first one in flight (the rows come first).
  const newestRead = edge('DESC');
  const [{ balance, chain }, oldest, newest] = await Promise.all([balanceRead, edge('ASC'), newestRead]);
  const summary: WalletSummary = {
    balance,
    chain,
    firstActivity: oldest.result[0]?.block_timestamp,
    lastActivity: newest.result[0]?.block_timestamp,
  };
  const activity = sources().evm(chain).activity;
  // The history calls above read the wallet's newest and oldest windows; the count needs all of them.
  if (activity) {
    const state = await activity.state(chain, address);
    if (state.transactionCount !== null) summary.transactionCount = state.transactionCount;
    else summary.indexing = !state.complete;
  }
  return summary;
}
