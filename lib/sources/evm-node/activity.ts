import 'server-only';
import type { Hex } from 'viem';
import { config } from '@/lib/config';
import { db } from '@/lib/db';
import { log } from '@/lib/log';
import { getLogsWindow, transferFilters } from './logs';
import { ChainChangedError, assertEpoch, chainHead } from './chain';
import { RpcMethodError, hexNum, inBackground, reorgDepth, rpc } from './rpc';
import { selfdestructsTo } from './selfdestructs';
import { blockPartiesOf } from './block-parties';
import { markUnsupported, nodeCapabilities } from './capabilities';
import { addSpan, gaps, loadSpans, lockScope, normalise, spanAbove, spanAt, spanBelow, type Span } from './spans';

/**
 * The per-wallet activity index behind history pages: one row per transaction that touches the wallet
 * (block, index, hash), so a page is a keyset query on evm_wallet_activity.
 *
 * The rule (docs/evm-node.md): a wallet's history holds every transaction in which it is the sender,
 * the recipient, the created contract, the `from` or `to` of any internal frame (any type, reverted or
 * not, a SELFDESTRUCT beneficiary included), or the sender or recipient of an ERC-20/721/1155 transfer
 * log. Sources, per block window [lo, hi]:
 * - `ots_searchTransactionsBefore/After` (Otterscan API: Erigon, anvil, Reth with ots): sender,
 *   recipient, created contract, internal-call parties, a page of whole blocks. It does not report
 *   SELFDESTRUCT beneficiaries (anvil), so with it comes `trace_filter` toAddress, or, on a node without
 *   trace_filter, the chain's SELFDESTRUCT frames found by tracing each block once (selfdestructs.ts);
 * - `trace_filter` (fromAddress / toAddress) instead of ots_ on nodes without it;
 * - on a node with neither (Geth), block bodies read once per chain (block-parties.ts): sender,
 *   recipient and created contract only; internal-call parties are not found, and Lantern says so;
 * - `eth_getLogs` with topic filters: ERC-20/721 Transfer and ERC-1155 TransferSingle/Batch with the
 *   wallet as sender or recipient (the log-only parties the above cannot see).
 *
 * Windows, not a full scan: a page asks for `need` rows in one direction from a block (ensureCovered),
 * and only the windows that hold them are read: the newest for a DESC first page (ots_ Before from the
 * head, then logs and beneficiaries over exactly the blocks that window spans), the oldest for an ASC one,
 * the next one down (or up) for a deep page. So a first page costs about what the node's own newest-25
 * query costs, whatever the wallet's size. The rest is read in the background (fill), newest gap first,
 * one job per wallet across instances, resumable. What is read is kept as spans (spans.ts): final blocks
 * in evm_span; the unfinal tail (head - EVM_REORG_DEPTH and above) only for this process at this head,
 * so it is read again at the next head. A deeper change (a reorg past the tail, a rollback, a restarted
 * devnet) is found by chain.ts, which drops rows and spans after the fork; a window that overlapped it
 * does not commit (assertEpoch) and is read again on the chain as it is now.
 */

interface Row {
  block: number;
  index: number;
  hash: string;
}

interface Ctx {
  chainId: number;
  address: string;
  head: number;
  epoch: number;
  /** Highest final block: head - EVM_REORG_DEPTH. */
  final: number;
}

/** Rows one page needs: from `start` (inclusive; or strictly past `after`) towards `end`, in `order`. */
export interface PageNeed {
  order: 'ASC' | 'DESC';
  /** The keyset position of the cursor: rows strictly beyond it. */
  after?: { block: number; index: number };
  /** Block range of the query (inclusive), already clamped to [1, head]. */
  from: number;
  to: number;
  /** Rows wanted (a page and one more, to know whether a next page exists). */
  need: number;
}

/** Blocks in the first window on a node without ots_ (then 4 times more per window that finds too little). */
const RANGE_WINDOW = 2_000;
/** The fewest transactions a window asks for: a page of 25 and one more, so a wallet page's small queries (its newest and oldest row) read the window its first page needs. */
const MIN_WANT = 26;
/** A window finding nothing this many times in a row is a bug: stop rather than loop. */
const MAX_STEPS = 10_000;
const STALE_FILL_SECONDS = 60;
/** Wallets whose unfinal blocks this process remembers (the oldest is forgotten: it is read again). */
const FRESH_MAX = 10_000;

const g = globalThis as unknown as {
  __lanternActivity?: {
    /** Unfinal blocks read at this head, per wallet: trusted until the head moves. */
    fresh: Map<string, { mark: string; spans: Span[] }>;
    /** One foreground coverage run per wallet at a time in this process. */
    queue: Map<string, Promise<unknown>>;
    fills: Map<string, Promise<void>>;
    /** Pages of a wallet being read in the foreground in this process, and a promise of none. */
    reading: Map<string, { pages: number; idle: Promise<void>; done: () => void }>;
  };
};
const st = (g.__lanternActivity ??= { fresh: new Map(), queue: new Map(), fills: new Map(), reading: new Map() });

/**
 * Reads a page of the wallet's history in the foreground, then starts the background fill of the rest.
 * The fill reads no window while a page of the same wallet is being read here (the wallet page asks for
 * three at once): a person's page never waits behind the node reads of the wallet's older history.
 */
export async function readingPage<T>(chainId: number, address: string, read: () => Promise<T>): Promise<T> {
  // Counted for the wallet and for its chain (`chainId:*`): any wallet's fill on the chain yields to it.
  const keys = [`${chainId}:${address}`, `${chainId}:*`];
  const held = keys.map((key) => {
    let r = st.reading.get(key);
    if (!r) {
      let done!: () => void;
      const idle = new Promise<void>((resolve) => (done = resolve));
      r = { pages: 0, idle, done };
      st.reading.set(key, r);
    }
    r.pages++;
    return [key, r] as const;
  });
  try {
    return await read();
  } finally {
    for (const [key, r] of held) {
      if (--r.pages === 0) {
        st.reading.delete(key);
        r.done();
      }
    }
    startBackgroundFill(chainId, address);
  }
}

/** The longest a fill waits, before each window, for another wallet's pages on its chain to be read. */
const YIELD_TO_OTHERS_MS = 2_000;

/**
 * Resolves once no page of the wallet is being read in the foreground in this process, and no page of
 * another wallet on the chain either (for at most YIELD_TO_OTHERS_MS: steady traffic slows a fill, never
 * stops it). A window is a large read (a thousand transactions, their rows written), so one started
 * beside a person's first visit would slow it, whatever the node-call budget (call-budget.ts) allows.
 */
async function pagesIdle(chainId: number, address: string): Promise<void> {
  for (let r = st.reading.get(`${chainId}:${address}`); r; r = st.reading.get(`${chainId}:${address}`)) await r.idle;
  const deadline = performance.now() + YIELD_TO_OTHERS_MS;
  for (let r = st.reading.get(`${chainId}:*`); r; r = st.reading.get(`${chainId}:*`)) {
    const left = deadline - performance.now();
    if (left <= 0) return;
    await Promise.race([r.idle, new Promise((t) => setTimeout(t, left))]);
  }
}

/** The head and epoch a page of the chain is computed at (the chain checked, chain.ts). */
export async function activityHead(chainId: number): Promise<{ head: number; epoch: number }> {
  const { head, epoch } = await chainHead(chainId);
  return { head, epoch };
}

/**
 * Reads the windows a page needs (see above). Afterwards the page's keyset query over
 * evm_wallet_activity returns exactly the wallet's transactions. Called within readingPage, which
 * starts the background fill of the rest once the page has read what it shows.
 */
export async function ensureCovered(chainId: number, address: string, at: { head: number; epoch: number }, need: PageNeed): Promise<void> {
  const ctx: Ctx = { chainId, address, head: at.head, epoch: at.epoch, final: at.head - reorgDepth() };
  if (need.from > need.to) return;
  const key = `${chainId}:${address}:${need.order}`;
  // Queued behind this wallet's running page in the same direction: the windows it reads are usually the
  // ones this one needs (the wallet page asks for its newest row and its newest page at once).
  const run = (st.queue.get(key) ?? Promise.resolve()).then(() => cover(ctx, need));
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  st.queue.set(key, settled);
  void settled.then(() => {
    if (st.queue.get(key) === settled) st.queue.delete(key);
  });
  try {
    await run;
  } catch (e) {
    // A window that overlapped a change of chain is read again, once, on the chain as it is now.
    if (!(e instanceof ChainChangedError)) throw e;
    const now = await chainHead(chainId);
    await cover({ ...ctx, head: now.head, epoch: now.epoch, final: now.head - reorgDepth() }, { ...need, to: Math.min(need.to, now.head) });
  }
}

/** Stored spans, and the unfinal blocks this process read at this head. */
async function coverage(ctx: Ctx): Promise<Span[]> {
  const stored = await loadSpans(await db(), ctx.chainId, ctx.address);
  const fresh = st.fresh.get(`${ctx.chainId}:${ctx.address}`);
  return fresh && fresh.mark === `${ctx.epoch}@${ctx.head}` ? normalise([...stored, ...fresh.spans]) : stored;
}

async function cover(ctx: Ctx, need: PageNeed): Promise<void> {
  for (let step = 0; step < MAX_STEPS; step++) {
    const spans = await coverage(ctx);
    if (need.order === 'DESC') {
      const top = need.after ? Math.min(need.after.block, need.to) : need.to;
      if (top < need.from) return;
      const s = spanAt(spans, top);
      if (!s) {
        await reachDown(ctx, top, spanBelow(spans, top), need);
        continue;
      }
      if (s.lo <= need.from) return;
      const n = await countRows(ctx, need, s.lo, top);
      if (n >= need.need) return;
      await windowDown(ctx, s.lo - 1, Math.max(need.from, (spanBelow(spans, s.lo)?.hi ?? 0) + 1), Math.max(MIN_WANT, need.need - n));
    } else {
      const bottom = need.after ? Math.max(need.after.block, need.from) : need.from;
      if (bottom > need.to) return;
      const s = spanAt(spans, bottom);
      if (!s) {
        await reachUp(ctx, bottom, spanAbove(spans, bottom), need);
        continue;
      }
      if (s.hi >= need.to) return;
      const n = await countRows(ctx, need, bottom, s.hi);
      if (n >= need.need) return;
      await windowUp(ctx, s.hi + 1, Math.min(need.to, (spanAbove(spans, s.hi)?.lo ?? Infinity) - 1), Math.max(MIN_WANT, need.need - n));
    }
  }
  throw new Error(`history of ${ctx.address}: the windows did not converge`);
}

/**
 * DESC from `top`, which no span holds. When a span lies below and the blocks between are few in
 * transactions (the usual case: the new blocks since the wallet was last read), one upward window
 * reads them all and joins that span; else (or when nothing is known) a window down from `top`.
 */
async function reachDown(ctx: Ctx, top: number, below: Span | undefined, need: PageNeed): Promise<void> {
  const floor = Math.max(need.from, (below?.hi ?? 0) + 1);
  if (below && below.hi >= need.from - 1) {
    const reached = await windowUp(ctx, below.hi + 1, top, Math.max(MIN_WANT, need.need));
    if (reached >= top) return;
  }
  await windowDown(ctx, top, floor, Math.max(MIN_WANT, need.need));
}

/** ASC from `bottom`, which no span holds: the mirror of reachDown. */
async function reachUp(ctx: Ctx, bottom: number, above: Span | undefined, need: PageNeed): Promise<void> {
  const ceil = Math.min(need.to, (above?.lo ?? Infinity) - 1);
  if (above && above.lo <= need.to + 1) {
    const reached = await windowDown(ctx, above.lo - 1, bottom, Math.max(MIN_WANT, need.need));
    if (reached <= bottom) return;
  }
  await windowUp(ctx, bottom, ceil, Math.max(MIN_WANT, need.need));
}

/** Rows of the page's range in [lo, hi], beyond its cursor, up to need.need (a bounded count). */
async function countRows(ctx: Ctx, need: PageNeed, lo: number, hi: number): Promise<number> {
  const params: unknown[] = [ctx.chainId, ctx.address, lo, hi, need.need];
  let keyset = '';
  if (need.after) {
    params.push(need.after.block, need.after.index);
    keyset = `AND (block_number, tx_index) ${need.order === 'DESC' ? '<' : '>'} ($6, $7)`;
  }
  const { rows } = await (await db()).query<{ n: string }>(
    `SELECT count(*) AS n FROM (SELECT 1 FROM evm_wallet_activity WHERE chain_id = $1 AND address = $2 AND block_number BETWEEN $3 AND $4 ${keyset} LIMIT $5) t`,
    params,
  );
  return Number(rows[0]!.n);
}

/**
 * Reads a window down from `top` (inclusive) holding at least `want` transactions, or down to `floor`;
 * commits it and returns its lowest block.
 */
async function windowDown(ctx: Ctx, top: number, floor: number, want: number): Promise<number> {
  if (top < floor) return floor;
  const caps = await nodeCapabilities(ctx.chainId);
  let lo: number;
  let direct: Row[];
  if (caps.ots) {
    const page = await otsPage(ctx.chainId, ctx.address, 'ots_searchTransactionsBefore', top + 1, want).catch((e) => otsFallback(ctx.chainId, e));
    if (page) {
      direct = page.rows.filter((r) => r.block >= floor && r.block <= top);
      lo = page.edge || page.rows.length === 0 ? floor : Math.max(floor, Math.min(...page.rows.map((r) => r.block)));
      return commitWindow(ctx, lo, top, direct, want, 'desc');
    }
  }
  // By block ranges: each window RANGE_WINDOW blocks, 4 times more while it finds too little.
  direct = [];
  lo = top + 1;
  for (let size = RANGE_WINDOW; lo > floor; size *= 4) {
    const start = Math.max(floor, lo - size);
    direct.push(...(await rangeActivity(ctx, start, lo - 1)));
    lo = start;
    if (direct.length >= want) break;
  }
  return commitWindow(ctx, lo, top, direct, want, 'desc');
}

/** The mirror of windowDown: up from `bottom` towards `ceil`; returns the window's highest block. */
async function windowUp(ctx: Ctx, bottom: number, ceil: number, want: number): Promise<number> {
  if (bottom > ceil) return ceil;
  const caps = await nodeCapabilities(ctx.chainId);
  let hi: number;
  let direct: Row[];
  if (caps.ots) {
    const page = await otsPage(ctx.chainId, ctx.address, 'ots_searchTransactionsAfter', bottom - 1, want).catch((e) => otsFallback(ctx.chainId, e));
    if (page) {
      direct = page.rows.filter((r) => r.block >= bottom && r.block <= ceil);
      hi = page.edge || page.rows.length === 0 ? ceil : Math.min(ceil, Math.max(...page.rows.map((r) => r.block)));
      return commitWindow(ctx, bottom, hi, direct, want, 'asc');
    }
  }
  direct = [];
  hi = bottom - 1;
  for (let size = RANGE_WINDOW; hi < ceil; size *= 4) {
    const end = Math.min(ceil, hi + size);
    direct.push(...(await rangeActivity(ctx, hi + 1, end)));
    hi = end;
    if (direct.length >= want) break;
  }
  return commitWindow(ctx, bottom, hi, direct, want, 'asc');
}

/**
 * The window [lo, hi] as far as its direct rows reach: token transfer logs are read from the window's
 * starting end and may stop early (a wallet with many transfers), which shortens the window; then
 * SELFDESTRUCT beneficiaries (with ots_) over what remains; then one commit. Returns the far end.
 */
async function commitWindow(ctx: Ctx, lo: number, hi: number, direct: Row[], want: number, dir: 'asc' | 'desc'): Promise<number> {
  const enough = (reached: number, txs: ReadonlySet<string>) => {
    let n = txs.size;
    for (const r of direct) if ((dir === 'desc' ? r.block >= reached : r.block <= reached) && !txs.has(r.hash)) n++;
    return n >= want;
  };
  const { logs, reached } = await getLogsWindow(ctx.chainId, transferFilters(ctx.address), lo, hi, dir, enough);
  if (dir === 'desc') lo = reached;
  else hi = reached;
  const found = new Map<string, Row>();
  for (const r of direct) if (r.block >= lo && r.block <= hi) found.set(r.hash, r);
  for (const l of logs) {
    const h = l.transactionHash.toLowerCase();
    const block = Number(l.blockNumber);
    if (!found.has(h) && block >= lo && block <= hi) found.set(h, { block, index: Number(l.transactionIndex), hash: h });
  }
  const caps = await nodeCapabilities(ctx.chainId);
  if (caps.ots) for (const r of await beneficiaryActivity(ctx, lo, hi, caps.traceFilter)) found.set(r.hash, r);
  await commit(ctx, lo, hi, [...found.values()]);
  return dir === 'desc' ? lo : hi;
}

/** Replaces the wallet's rows of blocks [lo, hi] with `rows`; the final part becomes a span, the rest fresh. */
async function commit(ctx: Ctx, lo: number, hi: number, rows: Row[]): Promise<void> {
  const d = await db();
  await d.transaction(async (tx) => {
    await assertEpoch(tx, ctx.chainId, ctx.epoch);
    await lockScope(tx, ctx.chainId, ctx.address);
    await tx.query('DELETE FROM evm_wallet_activity WHERE chain_id = $1 AND address = $2 AND block_number BETWEEN $3 AND $4', [ctx.chainId, ctx.address, lo, hi]);
    for (let i = 0; i < rows.length; i += 500) {
      const chunk = rows.slice(i, i + 500);
      const values = chunk.map((_, j) => `($1, $2, $${j * 3 + 3}, $${j * 3 + 4}, $${j * 3 + 5})`).join(',');
      await tx.query(
        `INSERT INTO evm_wallet_activity (chain_id, address, block_number, tx_index, tx_hash) VALUES ${values} ON CONFLICT DO NOTHING`,
        [ctx.chainId, ctx.address, ...chunk.flatMap((r) => [r.block, r.index, r.hash])],
      );
    }
    await addSpan(tx, ctx.chainId, ctx.address, { lo, hi: Math.min(hi, ctx.final) });
  });
  if (hi > ctx.final) {
    const key = `${ctx.chainId}:${ctx.address}`;
    const mark = `${ctx.epoch}@${ctx.head}`;
    const cur = st.fresh.get(key);
    const spans = cur && cur.mark === mark ? cur.spans : [];
    if (!cur && st.fresh.size >= FRESH_MAX) st.fresh.delete(st.fresh.keys().next().value!);
    st.fresh.set(key, { mark, spans: normalise([...spans, { lo: Math.max(lo, ctx.final + 1), hi }]) });
  }
}

/** An ots_ page: whole blocks; `edge` says it reached the end of the chain in its direction. */
async function otsPage(chainId: number, address: string, method: 'ots_searchTransactionsBefore' | 'ots_searchTransactionsAfter', block: number, size: number) {
  const page = await rpc<{ txs: { hash: string; blockNumber: Hex; transactionIndex: Hex }[]; firstPage: boolean; lastPage: boolean }>(chainId, method, [
    address,
    block,
    size,
  ]);
  return {
    rows: page.txs.map((t) => ({ block: Number(t.blockNumber), index: Number(t.transactionIndex), hash: t.hash.toLowerCase() })),
    // Before walks down (lastPage: reached genesis); After walks up (firstPage: reached the head).
    edge: method === 'ots_searchTransactionsBefore' ? page.lastPage : page.firstPage,
  };
}

/** A node that turns out not to offer ots_ falls back to block ranges (null); anything else is thrown. */
function otsFallback(chainId: number, e: unknown): null {
  if (!(e instanceof RpcMethodError && e.unsupported && e.method.startsWith('ots_'))) throw e;
  markUnsupported(chainId, e.method);
  return null;
}

/** Direct activity of blocks [lo, hi] on a node without ots_: trace_filter, else block bodies (Geth). */
async function rangeActivity(ctx: Ctx, lo: number, hi: number): Promise<Row[]> {
  const caps = await nodeCapabilities(ctx.chainId);
  if (caps.traceFilter) {
    try {
      return await traceFilter(ctx.chainId, ctx.address, lo, hi, ['fromAddress', 'toAddress']);
    } catch (e) {
      if (!(e instanceof RpcMethodError && e.unsupported)) throw e;
      markUnsupported(ctx.chainId, 'trace_filter');
    }
  }
  return blockPartiesOf(ctx.chainId, ctx.address, lo, hi);
}

/**
 * What ots_ misses: transactions in which the wallet received a SELFDESTRUCT's balance. `trace_filter`
 * toAddress where the node has it (on Erigon and Reth an index lookup), else the chain's own
 * SELFDESTRUCT index (selfdestructs.ts: each block traced once per chain, shared by all wallets).
 */
async function beneficiaryActivity(ctx: Ctx, lo: number, hi: number, traceFilterOffered: boolean): Promise<Row[]> {
  if (traceFilterOffered) {
    try {
      return await traceFilter(ctx.chainId, ctx.address, lo, hi, ['toAddress']);
    } catch (e) {
      if (!(e instanceof RpcMethodError && e.unsupported)) throw e;
      markUnsupported(ctx.chainId, 'trace_filter');
    }
  }
  return selfdestructsTo(ctx.chainId, ctx.address, lo, hi);
}

/** Per chain, blocks per trace_filter call: nodes limit the range (anvil: 300), so a refused range shrinks it, for good. */
const traceSpans = new Map<number, number>();

async function traceFilter(chainId: number, address: string, lo: number, hi: number, sides: ('fromAddress' | 'toAddress')[]): Promise<Row[]> {
  const out: Row[] = [];
  for (let start = lo; start <= hi; ) {
    const traceSpan = traceSpans.get(chainId) ?? 10_000;
    const end = Math.min(hi, start + traceSpan - 1);
    const range = { fromBlock: hexNum(start), toBlock: hexNum(end) };
    let results: TraceRow[][];
    try {
      results = await Promise.all(sides.map((side) => rpc<TraceRow[]>(chainId, 'trace_filter', [{ ...range, [side]: [address] }])));
    } catch (e) {
      if (!(e instanceof RpcMethodError) || e.unsupported || traceSpan <= 10) throw e;
      const limit = /limited to (\d+)/i.exec(e.message);
      traceSpans.set(chainId, limit && Number(limit[1]) > 0 && Number(limit[1]) < traceSpan ? Number(limit[1]) : Math.max(10, Math.floor(traceSpan / 4)));
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

// ---------------------------------------------------------------------------------------------------
// Background fill: the older windows, newest gap first, one job per wallet across instances.

/**
 * How far the wallet's index reaches at the head: complete when what is read (final spans, and the
 * unfinal blocks this process read at this head) runs from block 1 without a gap.
 */
export async function walletIndexState(chainId: number, address: string): Promise<{ complete: boolean }> {
  const { head, epoch } = await chainHead(chainId);
  const cov = await coverage({ chainId, address, head, epoch, final: head - reorgDepth() });
  return { complete: cov.length > 0 && cov[0]!.lo === 1 && fillGaps(cov).length === 0 };
}

/**
 * The number of transactions in the wallet's history (wallet stats): its newest window is read as a
 * first page reads it, the rest by the background fill, which this waits for (up to `waitMs`; null when
 * the history is still being read then, on this instance or another).
 */
export async function walletTransactionCount(chainId: number, address: string, waitMs: number): Promise<number | null> {
  const at = await activityHead(chainId);
  await readingPage(chainId, address, () => ensureCovered(chainId, address, at, { order: 'DESC', from: 1, to: at.head, need: MIN_WANT }));
  const deadline = Date.now() + waitMs;
  while (!(await walletIndexState(chainId, address)).complete) {
    if (Date.now() > deadline) return null;
    const job = st.fills.get(`${chainId}:${address}`);
    // Another instance's job (or one that just ended): look again shortly.
    await (job ?? new Promise((r) => setTimeout(r, 250)));
    if (!job) startBackgroundFill(chainId, address);
  }
  const { rows } = await (await db()).query<{ n: string }>('SELECT count(*) AS n FROM evm_wallet_activity WHERE chain_id = $1 AND address = $2', [chainId, address]);
  return Number(rows[0]!.n);
}

/** The gaps below the newest span read, newest first: what the background job reads. */
function fillGaps(cov: Span[]): Span[] {
  const top = cov[cov.length - 1];
  return top ? gaps(cov, 1, top.hi).reverse() : [];
}

/** Starts reading the wallet's older windows in the background, unless this process already is. */
function startBackgroundFill(chainId: number, address: string): void {
  const key = `${chainId}:${address}`;
  if (st.fills.has(key)) return;
  const job = inBackground(() => fill(chainId, address))
    .catch(async (e) => {
      if (e instanceof ChainChangedError) return; // the next page starts it again on the new chain
      log().warn({ chainId, address, code: (e as { code?: string }).code, err: e instanceof Error ? e.message : String(e) }, 'history fill stopped; the next page resumes it');
      await (await db()).query("UPDATE evm_wallet_fill SET status = 'failed' WHERE chain_id = $1 AND address = $2", [chainId, address]).catch(() => undefined);
    })
    .finally(() => st.fills.delete(key));
  st.fills.set(key, job);
}

const contextNow = async (chainId: number, address: string): Promise<Ctx> => {
  const { head, epoch } = await chainHead(chainId);
  return { chainId, address, head, epoch, final: head - reorgDepth() };
};

async function fill(chainId: number, address: string): Promise<void> {
  const d = await db();
  if (fillGaps(await coverage(await contextNow(chainId, address))).length === 0) return;
  // Claimed with its row: one job per wallet across instances; a job whose process died (no heartbeat) is taken over.
  const claimed = await d.query(
    `INSERT INTO evm_wallet_fill (chain_id, address, status) VALUES ($1, $2, 'running')
     ON CONFLICT (chain_id, address) DO UPDATE SET status = 'running', jobs_started = evm_wallet_fill.jobs_started + 1,
       started_at = now(), heartbeat_at = now(), finished_at = NULL
     WHERE evm_wallet_fill.status <> 'running' OR evm_wallet_fill.heartbeat_at < now() - interval '${STALE_FILL_SECONDS} seconds'
     RETURNING address`,
    [chainId, address],
  );
  if (claimed.rows.length === 0) return;
  for (;;) {
    // At the head of the moment: unfinal blocks this process read stay read only while it holds.
    await pagesIdle(chainId, address);
    const ctx = await contextNow(chainId, address);
    const gap = fillGaps(await coverage(ctx))[0];
    if (!gap) break;
    await windowDown(ctx, gap.hi, gap.lo, config().evmHistoryWindow);
    await d.query('UPDATE evm_wallet_fill SET heartbeat_at = now(), windows = windows + 1 WHERE chain_id = $1 AND address = $2', [chainId, address]);
  }
  await d.query("UPDATE evm_wallet_fill SET status = 'done', finished_at = now() WHERE chain_id = $1 AND address = $2", [chainId, address]);
}
