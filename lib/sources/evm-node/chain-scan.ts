import 'server-only';
import { db, type Queryable } from '@/lib/db';
import { assertEpoch, chainHead } from './chain';
import { reorgDepth } from './rpc';
import { addSpan, gaps, loadSpans, lockScope } from './spans';

/**
 * A chain-wide scan (every block read once per chain, shared by all wallets) for nodes that lack an index
 * Lantern would otherwise ask: SELFDESTRUCT frames without trace_filter, transaction parties without ots_
 * and trace_filter. A wallet's window asks for blocks [lo, hi]; only the parts no span of the scan
 * covers are read, CHUNK blocks at a time, each chunk committed with its rows (the chunk's old rows,
 * an unfinal tail read earlier, are replaced) and, where final, as a span. So windows cost what they
 * read, a long scan resumes where it stopped, and one scan per chain and kind runs at a time here.
 */

const CHUNK = 100;
const running = new Map<string, Promise<void>>();

export interface ChainScan<R> {
  kind: 'selfdestruct' | 'parties';
  /** Reads blocks [start, end] from the chain's node. */
  read(chainId: number, start: number, end: number): Promise<R[]>;
  /** Replaces the rows of blocks [start, end] with `rows`, inside the commit's transaction. */
  write(tx: Queryable, chainId: number, start: number, end: number, rows: R[]): Promise<void>;
}

/** Makes sure blocks [lo, hi] of the scan are read and current. */
export function coverChainScan<R>(chainId: number, scan: ChainScan<R>, lo: number, hi: number): Promise<void> {
  const key = `${chainId}:${scan.kind}`;
  const p = (running.get(key) ?? Promise.resolve()).catch(() => undefined).then(() => cover(chainId, scan, lo, hi));
  const tracked = p.finally(() => {
    if (running.get(key) === tracked) running.delete(key);
  });
  running.set(key, tracked);
  return p;
}

async function cover<R>(chainId: number, scan: ChainScan<R>, lo: number, hi: number): Promise<void> {
  if (hi < lo) return;
  const { head, epoch } = await chainHead(chainId);
  const final = head - reorgDepth();
  const scope = `chain:${scan.kind}`;
  const d = await db();
  for (const gap of gaps(await loadSpans(d, chainId, scope), Math.max(1, lo), hi)) {
    for (let start = gap.lo; start <= gap.hi; start += CHUNK) {
      const end = Math.min(gap.hi, start + CHUNK - 1);
      const rows = await scan.read(chainId, start, end);
      await d.transaction(async (tx) => {
        await assertEpoch(tx, chainId, epoch);
        await lockScope(tx, chainId, scope);
        await scan.write(tx, chainId, start, end, rows);
        await addSpan(tx, chainId, scope, { lo: start, hi: Math.min(end, final) });
      });
    }
  }
}
