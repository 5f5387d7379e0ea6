import 'server-only';
import { resolveChain, type Chain } from '@/lib/chains';
import { cached } from '@/lib/cache';
import { config } from '@/lib/config';
import { db } from '@/lib/db';
import type { BalanceQuery, NativeBalance } from '@/lib/interface/balance';
import { historyQuerySchema } from '@/lib/interface/history';
import { nodeRequestChain } from '@/lib/sources/evm-node';
import { nodeNativeBalance } from '@/lib/sources/evm-node/balance';
import { chainHead } from '@/lib/sources/evm-node/chain';
import { hostedNativeBalance } from '@/lib/sources/hosted/balance';
import { getWalletHistory } from './wallet-history';

/**
 * A wallet's native balance. Node mode reads eth_getBalance at the node's head and caches the answer
 * under that head block (60 s, to bound memory): a new block is a new key, so an answer is never older
 * than the head Lantern has seen (itself shared for 1 s). Hosted mode cannot see the head: its answers
 * are kept 10 s.
 */
export const HOSTED_BALANCE_TTL_S = 10;
export const NODE_BALANCE_TTL_S = 60;

async function balanceChain(value: string | undefined): Promise<Chain> {
  const c = config();
  return c.mode === 'hosted' ? resolveChain(value ?? c.defaultChain, 'history', { devnet: c.acceptDevnet }) : nodeRequestChain(value, 'history');
}

export async function getNativeBalance(address: string, query: BalanceQuery): Promise<NativeBalance & { chain: Chain }> {
  const chain = await balanceChain(query.chain);
  const wallet = address.toLowerCase();
  if (config().mode === 'hosted') {
    const answer = await cached(`balance:hosted:${chain.hex}:${wallet}`, { ttl: HOSTED_BALANCE_TTL_S }, () => hostedNativeBalance(address, chain));
    return { ...answer, chain };
  }
  // Keyed by epoch and head: a head replaced at the same height (a reorg) is a new key too.
  const { head, epoch } = await chainHead();
  const balance = await cached(`balance:node:${chain.hex}:${wallet}:e${epoch}@${head}`, { ttl: NODE_BALANCE_TTL_S }, () => nodeNativeBalance(address, chain, head));
  return { balance, chain };
}

export interface WalletSummary {
  balance: string;
  chain: Chain;
  /** Transactions touching the wallet, where the source knows it (node mode's activity index). */
  transactionCount?: number;
  /** ISO times of the wallet's first and latest transaction, when it has any. */
  firstActivity?: string;
  lastActivity?: string;
}

/** What the balance header shows: the balance, and from the history the first and latest activity. */
export async function getWalletSummary(address: string, chainValue: string | undefined): Promise<WalletSummary> {
  const edge = (order: 'ASC' | 'DESC') => getWalletHistory(address, historyQuerySchema.parse({ chain: chainValue, limit: '1', order }));
  const [{ balance, chain }, oldest, newest] = await Promise.all([getNativeBalance(address, { chain: chainValue }), edge('ASC'), edge('DESC')]);
  const summary: WalletSummary = {
    balance,
    chain,
    firstActivity: oldest.result[0]?.block_timestamp,
    lastActivity: newest.result[0]?.block_timestamp,
  };
  if (config().mode === 'node') {
    // The history calls above brought the wallet's activity index up to the head.
    const d = await db();
    const { rows } = await d.query<{ n: string }>('SELECT count(*) AS n FROM evm_wallet_activity WHERE chain_id = $1 AND address = $2', [
      chain.id,
      address.toLowerCase(),
    ]);
    summary.transactionCount = Number(rows[0].n);
  }
  return summary;
}
