import 'server-only';
import { getContractAddress, type Hex } from 'viem';
import { db } from '@/lib/db';
import { coverChainScan, type ChainScan } from './chain-scan';
import { hexNum, rpc } from './rpc';

/**
 * Rule 1 of a wallet's history (sender, recipient, created contract) on a node that offers neither
 * `ots_*` nor `trace_filter` (Geth): each block body a wallet's windows reach is read once per chain
 * (`eth_getBlockByNumber` with full transactions, which every node serves, pruned or not) and its
 * parties kept in evm_tx_party, so a wallet's lookup is a query (chain-scan.ts). The calls of a chunk
 * travel in one batched HTTP request. A created contract's address is derived from its creator and
 * nonce (CREATE), so no receipt is needed. Internal-call parties are not in a block body: on such a node
 * they are not found at all (capabilities.ts says so in health and on the wallet page).
 */

interface BodyTx {
  hash: string;
  from: string;
  to: string | null;
  nonce: Hex;
  transactionIndex: Hex;
}

type Party = [address: string, block: number, index: number, hash: string];

const scan: ChainScan<Party> = {
  kind: 'parties',
  async read(chainId, start, end) {
    const numbers = Array.from({ length: end - start + 1 }, (_, i) => start + i);
    const blocks = await Promise.all(numbers.map((n) => rpc<{ transactions: BodyTx[] } | null>(chainId, 'eth_getBlockByNumber', [hexNum(n), true])));
    const found: Party[] = [];
    blocks.forEach((b, i) => {
      for (const t of b?.transactions ?? []) {
        const hash = t.hash.toLowerCase();
        const index = Number(t.transactionIndex);
        const party = new Set([t.from.toLowerCase()]);
        if (t.to) party.add(t.to.toLowerCase());
        else party.add(getContractAddress({ from: t.from as Hex, nonce: BigInt(t.nonce) }).toLowerCase());
        for (const a of party) found.push([a, numbers[i]!, index, hash]);
      }
    });
    return found;
  },
  async write(tx, chainId, start, end, rows) {
    await tx.query('DELETE FROM evm_tx_party WHERE chain_id = $1 AND block_number >= $2 AND block_number <= $3', [chainId, start, end]);
    for (let i = 0; i < rows.length; i += 500) {
      const chunk = rows.slice(i, i + 500);
      const values = chunk.map((_, j) => `($1, $${j * 4 + 2}, $${j * 4 + 3}, $${j * 4 + 4}, $${j * 4 + 5})`).join(',');
      await tx.query(`INSERT INTO evm_tx_party (chain_id, address, block_number, tx_index, tx_hash) VALUES ${values} ON CONFLICT DO NOTHING`, [chainId, ...chunk.flat()]);
    }
  },
};

/** Transactions in [lo, hi] whose sender, recipient or created contract is `address`. */
export async function blockPartiesOf(chainId: number, address: string, lo: number, hi: number): Promise<{ block: number; index: number; hash: string }[]> {
  await coverChainScan(chainId, scan, lo, hi);
  const { rows } = await (await db()).query<{ block_number: string; tx_index: number; tx_hash: string }>(
    'SELECT block_number, tx_index, tx_hash FROM evm_tx_party WHERE chain_id = $1 AND address = $2 AND block_number >= $3 AND block_number <= $4',
    [chainId, address, lo, hi],
  );
  return rows.map((r) => ({ block: Number(r.block_number), index: r.tx_index, hash: r.tx_hash }));
}
