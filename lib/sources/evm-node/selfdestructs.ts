import 'server-only';
import { db } from '@/lib/db';
import { hexNum, reorgDepth, rpc } from './rpc';

/**
 * SELFDESTRUCT beneficiaries on a node without `trace_filter`: each block is traced once per chain
 * (`debug_traceBlockByNumber` with callTracer) and its SELFDESTRUCT frames are kept in evm_selfdestruct,
 * so a wallet's lookup is a query, not a trace. Cost: one trace per block of the chain, once, shared
 * by every wallet. Blocks are traced one request at a time: a block of a busy chain is already a long
 * trace, and a batch of several would outlast the node timeout. Blocks within the reorg depth
 * are scanned but not counted as done, so they are scanned again next time.
 */

const CHUNK = 100;
const inflight = new Map<number, Promise<void>>();

interface Frame {
  type: string;
  to?: string;
  calls?: Frame[];
}

/** Transactions in (from, to] that sent a SELFDESTRUCT's balance to `address`. */
export async function selfdestructsTo(chainId: number, address: string, from: number, to: number): Promise<{ block: number; index: number; hash: string }[]> {
  await scanTo(chainId, to);
  const { rows } = await (await db()).query<{ block_number: string; tx_index: number; tx_hash: string }>(
    'SELECT block_number, tx_index, tx_hash FROM evm_selfdestruct WHERE chain_id = $1 AND beneficiary = $2 AND block_number > $3 AND block_number <= $4',
    [chainId, address, from, to],
  );
  return rows.map((r) => ({ block: Number(r.block_number), index: r.tx_index, hash: r.tx_hash }));
}

function scanTo(chainId: number, to: number): Promise<void> {
  const running = inflight.get(chainId);
  // One scan per chain at a time; a caller that needs further than the running scan goes next.
  const p = (running ?? Promise.resolve()).then(() => scan(chainId, to)).finally(() => {
    if (inflight.get(chainId) === p) inflight.delete(chainId);
  });
  inflight.set(chainId, p);
  return p;
}

async function scan(chainId: number, to: number): Promise<void> {
  const d = await db();
  const { rows } = await d.query<{ scanned_to: string }>("SELECT scanned_to FROM evm_chain_scan WHERE chain_id = $1 AND kind = 'selfdestruct'", [chainId]);
  const done = rows[0] ? Number(rows[0].scanned_to) : 0;
  if (done >= to) return;
  // Progress is committed every CHUNK blocks, so a long first scan resumes where it stopped.
  for (let start = done + 1; start <= to; start += CHUNK) {
    const end = Math.min(to, start + CHUNK - 1);
    const found: { beneficiary: string; block: number; index: number; hash: string }[] = [];
    for (let n = start; n <= end; n++) {
      const list = await rpc<{ txHash?: string; result?: Frame }[]>('debug_traceBlockByNumber', [hexNum(n), { tracer: 'callTracer' }]);
      list.forEach((t, index) => {
        const walk = (f: Frame) => {
          if (f.type.toUpperCase() === 'SELFDESTRUCT' && f.to && t.txHash) found.push({ beneficiary: f.to.toLowerCase(), block: n, index, hash: t.txHash.toLowerCase() });
          for (const c of f.calls ?? []) walk(c);
        };
        if (t.result) walk(t.result);
      });
    }
    await d.transaction(async (tx) => {
      // What an earlier scan found in these blocks (the unconfirmed tail) is replaced by what the node says now.
      await tx.query('DELETE FROM evm_selfdestruct WHERE chain_id = $1 AND block_number >= $2 AND block_number <= $3', [chainId, start, end]);
      for (const f of found) {
        await tx.query(
          'INSERT INTO evm_selfdestruct (chain_id, beneficiary, block_number, tx_index, tx_hash) VALUES ($1,$2,$3,$4,$5) ON CONFLICT DO NOTHING',
          [chainId, f.beneficiary, f.block, f.index, f.hash],
        );
      }
      await tx.query(
        `INSERT INTO evm_chain_scan (chain_id, kind, scanned_to) VALUES ($1, 'selfdestruct', $2)
         ON CONFLICT (chain_id, kind) DO UPDATE SET scanned_to = GREATEST(evm_chain_scan.scanned_to, EXCLUDED.scanned_to)`,
        [chainId, Math.max(done, Math.min(end, to - reorgDepth()))],
      );
    });
  }
}
