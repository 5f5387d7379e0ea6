import 'server-only';
import { getContractAddress, type Hex } from 'viem';
import { db } from '@/lib/db';
import { hexNum, reorgDepth, rpc } from './rpc';

/**
 * Rule 1 of a wallet's history (sender, recipient, created contract) on a node that offers neither
 * `ots_*` nor `trace_filter` (Geth): each block body is read once per chain (`eth_getBlockByNumber`
 * with full transactions, which every node serves, pruned or not) and its parties kept in evm_tx_party,
 * so a wallet's lookup is a query. Cost: one call per block of the chain, once, shared by every wallet;
 * CHUNK calls travel in one batched HTTP request. A created contract's address is derived from its
 * creator and nonce (CREATE), so no receipt is needed. Internal-call parties are not in a block body:
 * on such a node they are not found at all (capabilities.ts says so in health and on the wallet page).
 * Blocks within the reorg depth are read but not counted as done, so they are read again next time.
 */

const CHUNK = 100;
const inflight = new Map<number, Promise<void>>();

interface BodyTx {
  hash: string;
  from: string;
  to: string | null;
  nonce: Hex;
  transactionIndex: Hex;
}

/** Transactions in (from, to] whose sender, recipient or created contract is `address`. */
export async function blockPartiesOf(chainId: number, address: string, from: number, to: number): Promise<{ block: number; index: number; hash: string }[]> {
  await scanTo(chainId, to);
  const { rows } = await (await db()).query<{ block_number: string; tx_index: number; tx_hash: string }>(
    'SELECT block_number, tx_index, tx_hash FROM evm_tx_party WHERE chain_id = $1 AND address = $2 AND block_number > $3 AND block_number <= $4',
    [chainId, address, from, to],
  );
  return rows.map((r) => ({ block: Number(r.block_number), index: r.tx_index, hash: r.tx_hash }));
}

function scanTo(chainId: number, to: number): Promise<void> {
  // One scan per chain at a time; a caller that needs further than the running scan goes next.
  const p = (inflight.get(chainId) ?? Promise.resolve()).then(() => scan(chainId, to)).finally(() => {
    if (inflight.get(chainId) === p) inflight.delete(chainId);
  });
  inflight.set(chainId, p);
  return p;
}

async function scan(chainId: number, to: number): Promise<void> {
  const d = await db();
  const { rows } = await d.query<{ scanned_to: string }>("SELECT scanned_to FROM evm_chain_scan WHERE chain_id = $1 AND kind = 'parties'", [chainId]);
  const done = rows[0] ? Number(rows[0].scanned_to) : 0;
  if (done >= to) return;
  // Progress is committed every CHUNK blocks, so a long first scan resumes where it stopped.
  for (let start = done + 1; start <= to; start += CHUNK) {
    const end = Math.min(to, start + CHUNK - 1);
    const numbers = Array.from({ length: end - start + 1 }, (_, i) => start + i);
    const blocks = await Promise.all(numbers.map((n) => rpc<{ transactions: BodyTx[] } | null>('eth_getBlockByNumber', [hexNum(n), true])));
    const found: [string, number, number, string][] = [];
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
    await d.transaction(async (tx) => {
      // What an earlier scan found in these blocks (the unconfirmed tail) is replaced by what the node says now.
      await tx.query('DELETE FROM evm_tx_party WHERE chain_id = $1 AND block_number >= $2 AND block_number <= $3', [chainId, start, end]);
      for (let i = 0; i < found.length; i += 500) {
        const chunk = found.slice(i, i + 500);
        const values = chunk.map((_, j) => `($1, $${j * 4 + 2}, $${j * 4 + 3}, $${j * 4 + 4}, $${j * 4 + 5})`).join(',');
        await tx.query(`INSERT INTO evm_tx_party (chain_id, address, block_number, tx_index, tx_hash) VALUES ${values} ON CONFLICT DO NOTHING`, [chainId, ...chunk.flat()]);
      }
      await tx.query(
        `INSERT INTO evm_chain_scan (chain_id, kind, scanned_to) VALUES ($1, 'parties', $2)
         ON CONFLICT (chain_id, kind) DO UPDATE SET scanned_to = GREATEST(evm_chain_scan.scanned_to, EXCLUDED.scanned_to)`,
        [chainId, Math.max(done, Math.min(end, to - reorgDepth()))],
      );
    });
  }
}
