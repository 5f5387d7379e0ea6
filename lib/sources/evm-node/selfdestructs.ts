import 'server-only';
import { db } from '@/lib/db';
import { coverChainScan, type ChainScan } from './chain-scan';
import { hexNum, rpc } from './rpc';

/**
 * SELFDESTRUCT beneficiaries on a node without `trace_filter`: each block is traced once per chain
 * (`debug_traceBlockByNumber` with callTracer) and its SELFDESTRUCT frames are kept in evm_selfdestruct,
 * so a wallet's lookup is a query, not a trace. Cost: one trace per block a wallet's windows reach, once,
 * shared by every wallet (chain-scan.ts). Blocks are traced one request at a time: a block of a busy chain
 * is already a long trace, and a batch of several would outlast the node timeout.
 */

interface Frame {
  type: string;
  to?: string;
  calls?: Frame[];
}

interface Found {
  beneficiary: string;
  block: number;
  index: number;
  hash: string;
}

const scan: ChainScan<Found> = {
  kind: 'selfdestruct',
  async read(chainId, start, end) {
    const found: Found[] = [];
    for (let n = start; n <= end; n++) {
      const list = await rpc<{ txHash?: string; result?: Frame }[]>(chainId, 'debug_traceBlockByNumber', [hexNum(n), { tracer: 'callTracer' }]);
      list.forEach((t, index) => {
        const walk = (f: Frame) => {
          if (f.type.toUpperCase() === 'SELFDESTRUCT' && f.to && t.txHash) found.push({ beneficiary: f.to.toLowerCase(), block: n, index, hash: t.txHash.toLowerCase() });
          for (const c of f.calls ?? []) walk(c);
        };
        if (t.result) walk(t.result);
      });
    }
    return found;
  },
  async write(tx, chainId, start, end, rows) {
    await tx.query('DELETE FROM evm_selfdestruct WHERE chain_id = $1 AND block_number >= $2 AND block_number <= $3', [chainId, start, end]);
    for (const f of rows) {
      await tx.query('INSERT INTO evm_selfdestruct (chain_id, beneficiary, block_number, tx_index, tx_hash) VALUES ($1,$2,$3,$4,$5) ON CONFLICT DO NOTHING', [
        chainId, f.beneficiary, f.block, f.index, f.hash,
      ]);
    }
  },
};

/** Transactions in [lo, hi] that sent a SELFDESTRUCT's balance to `address`. */
export async function selfdestructsTo(chainId: number, address: string, lo: number, hi: number): Promise<{ block: number; index: number; hash: string }[]> {
  await coverChainScan(chainId, scan, lo, hi);
  const { rows } = await (await db()).query<{ block_number: string; tx_index: number; tx_hash: string }>(
    'SELECT block_number, tx_index, tx_hash FROM evm_selfdestruct WHERE chain_id = $1 AND beneficiary = $2 AND block_number >= $3 AND block_number <= $4',
    [chainId, address, lo, hi],
  );
  return rows.map((r) => ({ block: Number(r.block_number), index: r.tx_index, hash: r.tx_hash }));
}
