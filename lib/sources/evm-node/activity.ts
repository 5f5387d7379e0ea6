import 'server-only';
import type { Hex } from 'viem';
import { db } from '@/lib/db';
import { getLogsRange, transferFilters } from './logs';
import { RpcMethodError, headBlock, hexNum, reorgDepth, rpc } from './rpc';

/**
 * The per-wallet activity index behind history pages: one row per transaction that touches the wallet
 * (block, index, hash), built on the first request and extended to the head on later ones, so a page
 * is a keyset query on this table and never a scan of the wallet's history.
 *
 * Sources, per block range (from, head]:
 * - `ots_searchTransactionsAfter` (Otterscan API: Erigon, anvil, Reth with ots): transactions where the
 *   wallet is sender, recipient, created contract or a party of an internal call;
 *   falls back to `trace_filter` (fromAddress / toAddress) on nodes without ots_;
 * - `eth_getLogs` with topic filters: ERC-20/721 Transfer and ERC-1155 TransferSingle/Batch with the
 *   wallet as sender or recipient (the log-only parties the above cannot see).
 * `indexed_to` stops `reorgDepth()` blocks short of the head: the tail is indexed but rescanned next time.
 */

interface Row {
  block: number;
  index: number;
  hash: string;
}

const inflight = new Map<string, Promise<number>>();
/** Head at the last scan per wallet: no new block, no scan. */
const scannedAt = new Map<string, number>();

/** Brings the wallet's index up to the head; resolves to the head it covers. */
export function ensureWalletIndexed(chainId: number, address: string): Promise<number> {
  const key = `${chainId}:${address}`;
  let p = inflight.get(key);
  if (!p) {
    p = extend(chainId, address, key).finally(() => inflight.delete(key));
    inflight.set(key, p);
  }
  return p;
}

async function extend(chainId: number, address: string, key: string): Promise<number> {
  const head = await headBlock();
  if (scannedAt.get(key) === head) return head;
  const d = await db();
  const { rows } = await d.query<{ indexed_to: string }>('SELECT indexed_to FROM evm_wallet_index WHERE chain_id = $1 AND address = $2', [chainId, address]);
  const from = rows[0] ? Number(rows[0].indexed_to) : 0; // exclusive; block 0 (genesis) holds no transactions
  if (from >= head) {
    scannedAt.set(key, head);
    return head;
  }
  const [direct, logs] = await Promise.all([directActivity(address, from, head), getLogsRange(transferFilters(address), from + 1, head)]);
  const found = new Map<string, Row>();
  for (const r of direct) found.set(r.hash, r);
  for (const l of logs) {
    const h = l.transactionHash.toLowerCase();
    if (!found.has(h)) found.set(h, { block: Number(l.blockNumber), index: Number(l.transactionIndex), hash: h });
  }
  const safe = Math.max(from, head - reorgDepth());
  await d.transaction(async (tx) => {
    // The unconfirmed tail of the previous scan is replaced by what the node says now.
    await tx.query('DELETE FROM evm_wallet_activity WHERE chain_id = $1 AND address = $2 AND block_number > $3', [chainId, address, from]);
    const all = [...found.values()];
    for (let i = 0; i < all.length; i += 500) {
      const chunk = all.slice(i, i + 500);
      const values = chunk.map((_, j) => `($1, $2, $${j * 3 + 3}, $${j * 3 + 4}, $${j * 3 + 5})`).join(',');
      await tx.query(
        `INSERT INTO evm_wallet_activity (chain_id, address, block_number, tx_index, tx_hash) VALUES ${values} ON CONFLICT DO NOTHING`,
        [chainId, address, ...chunk.flatMap((r) => [r.block, r.index, r.hash])],
      );
    }
    await tx.query(
      `INSERT INTO evm_wallet_index (chain_id, address, indexed_to) VALUES ($1, $2, $3)
       ON CONFLICT (chain_id, address) DO UPDATE SET indexed_to = GREATEST(evm_wallet_index.indexed_to, EXCLUDED.indexed_to), updated_at = now()`,
      [chainId, address, safe],
    );
  });
  scannedAt.set(key, head);
  return head;
}

const OTS_PAGE = 100;
let directSource: 'ots' | 'trace_filter' = 'ots';

/** Transactions in (from, to] where the wallet is sender, recipient, created contract or internal-call party. */
async function directActivity(address: string, from: number, to: number): Promise<Row[]> {
  if (directSource === 'ots') {
    try {
      return await otsAfter(address, from, to);
    } catch (e) {
      if (!(e instanceof RpcMethodError && e.unsupported)) throw e;
      directSource = 'trace_filter';
    }
  }
  return traceFilter(address, from, to);
}

async function otsAfter(address: string, from: number, to: number): Promise<Row[]> {
  const out: Row[] = [];
  for (let cursor = from; cursor < to; ) {
    const page = await rpc<{ txs: { hash: string; blockNumber: Hex; transactionIndex: Hex }[]; firstPage: boolean }>('ots_searchTransactionsAfter', [
      address,
      cursor,
      OTS_PAGE,
    ]);
    let top = cursor;
    for (const t of page.txs) {
      const block = Number(t.blockNumber);
      top = Math.max(top, block);
      if (block <= to) out.push({ block, index: Number(t.transactionIndex), hash: t.hash.toLowerCase() });
    }
    // Pages hold whole blocks, newest first; `firstPage` means nothing newer is left.
    if (page.firstPage || page.txs.length === 0 || top === cursor) break;
    cursor = top;
  }
  return out;
}

const TRACE_SPAN = 10_000;

async function traceFilter(address: string, from: number, to: number): Promise<Row[]> {
  const out: Row[] = [];
  for (let start = from + 1; start <= to; start += TRACE_SPAN) {
    const end = Math.min(to, start + TRACE_SPAN - 1);
    const range = { fromBlock: hexNum(start), toBlock: hexNum(end) };
    const results = await Promise.all([
      rpc<TraceRow[]>('trace_filter', [{ ...range, fromAddress: [address] }]),
      rpc<TraceRow[]>('trace_filter', [{ ...range, toAddress: [address] }]),
    ]);
    for (const list of results) {
      for (const t of list) if (t.transactionHash) out.push({ block: t.blockNumber, index: t.transactionPosition ?? 0, hash: t.transactionHash.toLowerCase() });
    }
  }
  return out;
}

interface TraceRow {
  blockNumber: number;
  transactionHash?: string;
  transactionPosition?: number;
}
