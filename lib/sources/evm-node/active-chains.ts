import 'server-only';
import type { Chain } from '@/lib/chains';
import { db } from '@/lib/db';
import type { ActiveChain } from '@/lib/interface/active-chains';
import { activityHead, ensureCovered, readingPage } from './activity';
import { blockTimestamp } from './tx-facts';

/**
 * Where a wallet is active on one chain, from that chain's node: its first and last transaction as its
 * history lists them (the same rule, docs/evm-node.md). Only the oldest and the newest window of the
 * wallet's activity index are read: on a node with ots_, one ots_searchTransactionsAfter and one
 * ots_searchTransactionsBefore page (plus the token-transfer logs and SELFDESTRUCT beneficiaries of
 * those blocks); without ots_, the block ranges trace_filter or the block-body scan covers (which, on a
 * node with neither, cannot see a wallet that only ever took part through internal calls).
 */
export async function nodeActiveChain(address: string, chain: Chain): Promise<ActiveChain> {
  const wallet = address.toLowerCase();
  const at = await activityHead(chain.id);
  const [first, last] = await readingPage(chain.id, wallet, async () => {
    await Promise.all(
      (['ASC', 'DESC'] as const).map((order) => ensureCovered(chain.id, wallet, at, { order, from: 1, to: at.head, need: 1 })),
    );
    const d = await db();
    const edge = async (dir: 'ASC' | 'DESC') => {
      const { rows } = await d.query<{ block_number: string; tx_hash: string }>(
        `SELECT block_number, tx_hash FROM evm_wallet_activity WHERE chain_id = $1 AND address = $2 AND block_number BETWEEN 1 AND $3
         ORDER BY block_number ${dir}, tx_index ${dir} LIMIT 1`,
        [chain.id, wallet, at.head],
      );
      const r = rows[0];
      if (!r) return null;
      const block = Number(r.block_number);
      return { block_number: String(block), block_timestamp: new Date((await blockTimestamp(chain.id, block)) * 1000).toISOString(), transaction_hash: r.tx_hash };
    };
    return Promise.all([edge('ASC'), edge('DESC')]);
  });
  return { chain: chain.name, chain_id: chain.hex, first_transaction: first, last_transaction: last };
}
