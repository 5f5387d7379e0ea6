import 'server-only';
import type { Hex } from 'viem';
import { db } from '@/lib/db';
import { getLogsRange, transferFilters } from './logs';
import { ChainChangedError, assertEpoch, chainHead } from './chain';
import { RpcMethodError, hexNum, reorgDepth, rpc } from './rpc';
import { selfdestructsTo } from './selfdestructs';
import { blockPartiesOf } from './block-parties';
import { markUnsupported, nodeCapabilities } from './capabilities';

/**
 * The per-wallet activity index behind history pages: one row per transaction that touches the wallet
 * (block, index, hash), built on the first request and extended to the head on later ones, so a page
 * is a keyset query on this table and never a scan of the wallet's history.
 *
 * The rule (docs/evm-node.md): a wallet's history holds every transaction in which it is the sender,
 * the recipient, the created contract, the `from` or `to` of any internal frame (any type, reverted or
 * not, a SELFDESTRUCT beneficiary included), or the sender or recipient of an ERC-20/721/1155 transfer
 * log. Sources, per block range (from, head]:
 * - `ots_searchTransactionsAfter` (Otterscan API: Erigon, anvil, Reth with ots): sender, recipient,
 *   created contract, internal-call parties. It does not report SELFDESTRUCT beneficiaries (anvil), so
 *   with it comes `trace_filter` toAddress (a `suicide` trace matches its refundAddress), or, on a node
 *   without trace_filter, the chain's SELFDESTRUCT frames found by tracing every block once (selfdestructs.ts);
 * - `trace_filter` (fromAddress / toAddress) instead of ots_ on nodes without it: every trace the
 *   wallet is a party of, SELFDESTRUCT beneficiaries included;
 * - on a node with neither (Geth), block bodies read once per chain (block-parties.ts): sender,
 *   recipient and created contract only; internal-call parties are not found, and Lantern says so;
 * - `eth_getLogs` with topic filters: ERC-20/721 Transfer and ERC-1155 TransferSingle/Batch with the
 *   wallet as sender or recipient (the log-only parties the above cannot see).
 * `indexed_to` stops `reorgDepth()` blocks short of the head: the tail is indexed but rescanned next time.
 * A deeper change (a reorg past the tail, a rollback, a restarted devnet) is found by chain.ts, which
 * drops the rows after the fork; a scan that overlapped it does not commit (assertEpoch) and is redone.
 */

interface Row {
  block: number;
  index: number;
  hash: string;
}

const inflight = new Map<string, Promise<number>>();
/** Chain epoch and head at the last scan per wallet: no new block, no scan. */
const scannedAt = new Map<string, string>();

/** Brings the wallet's index up to the head; resolves to the head it covers. */
export function ensureWalletIndexed(chainId: number, address: string): Promise<number> {
  const key = `${chainId}:${address}`;
  let p = inflight.get(key);
  if (!p) {
    // A scan that overlapped a change of chain is redone once, on the chain as it is now.
    p = extend(chainId, address, key)
      .catch((e) => (e instanceof ChainChangedError ? extend(chainId, address, key) : Promise.reject(e)))
      .finally(() => inflight.delete(key));
    inflight.set(key, p);
  }
  return p;
}

async function extend(chainId: number, address: string, key: string): Promise<number> {
  const { head, epoch } = await chainHead();
  const mark = `${epoch}@${head}`;
  if (scannedAt.get(key) === mark) return head;
  const d = await db();
  const { rows } = await d.query<{ indexed_to: string }>('SELECT indexed_to FROM evm_wallet_index WHERE chain_id = $1 AND address = $2', [chainId, address]);
  const from = rows[0] ? Number(rows[0].indexed_to) : 0; // exclusive; block 0 (genesis) holds no transactions
  if (from >= head) {
    scannedAt.set(key, mark);
    return head;
  }
  const [direct, logs] = await Promise.all([directActivity(chainId, address, from, head), getLogsRange(transferFilters(address), from + 1, head)]);
  const found = new Map<string, Row>();
  for (const r of direct) found.set(r.hash, r);
  for (const l of logs) {
    const h = l.transactionHash.toLowerCase();
    if (!found.has(h)) found.set(h, { block: Number(l.blockNumber), index: Number(l.transactionIndex), hash: h });
  }
  const safe = Math.max(from, head - reorgDepth());
  await d.transaction(async (tx) => {
    await assertEpoch(tx, chainId, epoch);
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
  scannedAt.set(key, mark);
  return head;
}

const OTS_PAGE = 100;

/**
 * Transactions in (from, to] where the wallet is sender, recipient, created contract or internal-frame
 * party: ots_ where the node has it, else trace_filter, else (Geth) block bodies, which see no internal
 * frame (capabilities.ts says so in health and on the wallet page).
 */
async function directActivity(chainId: number, address: string, from: number, to: number): Promise<Row[]> {
  const caps = await nodeCapabilities();
  if (caps.ots) {
    try {
      const [calls, beneficiary] = await Promise.all([otsAfter(address, from, to), beneficiaryActivity(chainId, address, from, to, caps.traceFilter)]);
      return [...calls, ...beneficiary];
    } catch (e) {
      if (!(e instanceof RpcMethodError && e.unsupported && e.method === 'ots_searchTransactionsAfter')) throw e;
      markUnsupported(e.method);
    }
  }
  if (caps.traceFilter) {
    try {
      return await traceFilter(address, from, to, ['fromAddress', 'toAddress']);
    } catch (e) {
      if (!(e instanceof RpcMethodError && e.unsupported)) throw e;
      markUnsupported('trace_filter');
    }
  }
  return blockPartiesOf(chainId, address, from, to);
}

/**
 * What ots_ misses: transactions in which the wallet received a SELFDESTRUCT's balance. `trace_filter`
 * toAddress where the node has it (one call per span of up to 10,000 blocks per wallet scan; on Erigon and Reth an
 * index lookup), else the chain's own SELFDESTRUCT index (selfdestructs.ts: every block traced once
 * per chain, shared by all wallets).
 */
async function beneficiaryActivity(chainId: number, address: string, from: number, to: number, traceFilterOffered: boolean): Promise<Row[]> {
  if (traceFilterOffered) {
    try {
      return await traceFilter(address, from, to, ['toAddress']);
    } catch (e) {
      if (!(e instanceof RpcMethodError && e.unsupported)) throw e;
      markUnsupported('trace_filter');
    }
  }
  return selfdestructsTo(chainId, address, from, to);
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

/** Blocks per trace_filter call: nodes limit the range (anvil: 300), so a refused range shrinks it, for good. */
let traceSpan = 10_000;

async function traceFilter(address: string, from: number, to: number, sides: ('fromAddress' | 'toAddress')[]): Promise<Row[]> {
  const out: Row[] = [];
  for (let start = from + 1; start <= to; ) {
    const end = Math.min(to, start + traceSpan - 1);
    const range = { fromBlock: hexNum(start), toBlock: hexNum(end) };
    let results: TraceRow[][];
    try {
      results = await Promise.all(sides.map((side) => rpc<TraceRow[]>('trace_filter', [{ ...range, [side]: [address] }])));
    } catch (e) {
      if (!(e instanceof RpcMethodError) || e.unsupported || traceSpan <= 10) throw e;
      const limit = /limited to (\d+)/i.exec(e.message);
      traceSpan = limit && Number(limit[1]) > 0 && Number(limit[1]) < traceSpan ? Number(limit[1]) : Math.max(10, Math.floor(traceSpan / 4));
      continue;
    }
    for (const list of results) {
      for (const t of list) if (t.transactionHash) out.push({ block: t.blockNumber, index: t.transactionPosition ?? 0, hash: t.transactionHash.toLowerCase() });
    }
    start = end + 1;
  }
  return out;
}

interface TraceRow {
  blockNumber: number;
  transactionHash?: string;
  transactionPosition?: number;
}
