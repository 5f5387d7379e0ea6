import 'server-only';
import { config } from '@/lib/config';
import { db } from '@/lib/db';
import { log } from '@/lib/log';
import { getLogsWindow, transferFilters } from './logs';
import { ChainChangedError, assertEpoch, chainHead } from './chain';
import { RpcMethodError, callBudget, hexNum, inBackground, isBackground, reorgDepth, rpc } from './rpc';
import { selfdestructsTo } from './selfdestructs';
import { blockPartiesOf } from './block-parties';
import { markUnsupported, nodeCapabilities } from './capabilities';
import { addSpan, loadSpans, lockScope, type Span } from './spans';
import {
  MIN_WANT,
  TRACE_SPAN,
  TRACE_SPAN_MIN,
  commitSpans,
  coverStep,
  coverageOf,
  emptyWindow,
  enoughRows,
  fillGaps,
  indexComplete,
  insertChunks,
  joined,
  keysetOf,
  narrowed,
  otsCall,
  otsPage,
  otsWindow,
  mayRunCode,
  pageRowsOf,
  rangeChunks,
  reachPlan,
  rememberFresh,
  traceRows,
  traceSpanAfter,
  windowRows,
  windowWant,
  nextFillWant,
  type OtsAnswer,
  type PageNeed,
  type Row,
  type TraceRow,
  type Window,
} from './activity-plan';

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

interface Ctx {
  chainId: number;
  address: string;
  head: number;
  epoch: number;
  /** Highest final block: head - EVM_REORG_DEPTH. */
  final: number;
}

export type { PageNeed };

/** A row of a page as a window first names it, with whether the node's answer hints that it ran code. */
export type NamedRow = Row & { mayRunCode: boolean };

/** A window finding nothing this many times in a row is a bug: stop rather than loop. */
const MAX_STEPS = 10_000;
const STALE_FILL_SECONDS = 60;

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
 * three at once): a person's page never waits behind the node reads of the wallet's older history. While
 * it reads, the chain's call budget counts it as a page in flight (call-budget.ts), so background calls
 * of any wallet on the chain wait for the whole read, not only for its calls.
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
    // The chain's background node calls (any wallet's fill, an NFT resync) wait while it is read, between
    // its own calls too (its database work and the rows it prepares): the gaps of one read are not the fill's.
    return await callBudget(chainId).page(read);
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

/** The first background window's size (transactions): nextFillWant grows it while the node answers quickly. */
const FILL_START_WANT = 200;

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
export async function ensureCovered(chainId: number, address: string, at: { head: number; epoch: number }, need: PageNeed, onRows?: (rows: NamedRow[]) => void): Promise<void> {
  const ctx: Ctx = { chainId, address, head: at.head, epoch: at.epoch, final: at.head - reorgDepth() };
  if (need.from > need.to) return;
  const key = `${chainId}:${address}:${need.order}`;
  // Queued behind this wallet's running page in the same direction: the windows it reads are usually the
  // ones this one needs (the wallet page asks for its newest row and its newest page at once). An oldest-
  // first read (the balance header's first activity) also waits for a newest-first one in flight, never
  // the other way: the rows come first, and a small wallet's newest window is all of it, so the header
  // then reads nothing of the node twice.
  const ahead = [st.queue.get(key), need.order === 'ASC' ? st.queue.get(`${chainId}:${address}:DESC`) : undefined];
  const run = Promise.all(ahead).then(() => cover(ctx, need, onRows));
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
    // The rows told so far may be of the chain as it was: told none, until the window is read again.
    onRows?.([]);
    await cover({ ...ctx, head: now.head, epoch: now.epoch, final: now.head - reorgDepth() }, { ...need, to: Math.min(need.to, now.head) }, onRows);
  }
}

/** Stored spans, and the unfinal blocks this process read at this head. */
async function coverage(ctx: Ctx): Promise<Span[]> {
  const stored = await loadSpans(await db(), ctx.chainId, ctx.address);
  return coverageOf(stored, st.fresh.get(`${ctx.chainId}:${ctx.address}`), `${ctx.epoch}@${ctx.head}`);
}

/**
 * `onRows`: told the page's rows of the window that reaches the page's first block, as soon as the node
 * named them (before the window's other reads and its commit), so their facts can be read meanwhile;
 * told none when the chain changed meanwhile (ensureCovered).
 */
async function cover(ctx: Ctx, need: PageNeed, onRows?: (rows: NamedRow[]) => void): Promise<void> {
  for (let step = 0; step < MAX_STEPS; step++) {
    const next = coverStep(await coverage(ctx), need);
    if (next.kind === 'done') return;
    if (next.kind === 'reach') {
      const plan = reachPlan(need.order, next.at, next.near, need);
      if (plan.join && joined(plan.join, await readWindow(ctx, plan.join, windowWant(need.need)))) continue;
      await readWindow(ctx, plan.window, windowWant(need.need), onRows && ((rows) => onRows(pageRowsOf(need, rows))));
      continue;
    }
    const n = await countRows(ctx, need, next.count.lo, next.count.hi);
    if (n >= need.need) return;
    await readWindow(ctx, next.window, windowWant(need.need, n));
  }
  throw new Error(`history of ${ctx.address}: the windows did not converge`);
}

/** Rows of the page's range in [lo, hi], beyond its cursor, up to need.need (a bounded count). */
async function countRows(ctx: Ctx, need: PageNeed, lo: number, hi: number): Promise<number> {
  const keyset = keysetOf(need);
  const { rows } = await (await db()).query<{ n: string }>(
    `SELECT count(*) AS n FROM (SELECT 1 FROM evm_wallet_activity WHERE chain_id = $1 AND address = $2 AND block_number BETWEEN $3 AND $4 ${keyset.sql} LIMIT $5) t`,
    [ctx.chainId, ctx.address, lo, hi, need.need, ...keyset.params],
  );
  return Number(rows[0]!.n);
}

/**
 * Reads a window from its start towards its end holding at least `want` transactions (or to its end),
 * commits it and returns its far end: with ots_ one page of whole blocks, else block ranges.
 */
async function readWindow(ctx: Ctx, w: Window, want: number, onRows?: (rows: NamedRow[]) => void): Promise<number> {
  if (emptyWindow(w)) return w.end;
  const caps = await nodeCapabilities(ctx.chainId);
  if (caps.ots) {
    const call = otsCall(w);
    const page = await rpc<OtsAnswer>(ctx.chainId, call.method, [ctx.address, call.block, want]).then(
      (a) => ({ ...otsPage(call.method, a), code: mayRunCode(a) }),
      (e) => otsFallback(ctx.chainId, e),
    );
    if (page) {
      const { lo, hi, direct } = otsWindow(w, page);
      onRows?.(direct.map((r) => ({ ...r, mayRunCode: page.code.has(r.hash) })));
      return commitWindow(ctx, lo, hi, direct, want, w.dir);
    }
  }
  const direct: Row[] = [];
  let lo = Math.min(w.start, w.end);
  let hi = Math.max(w.start, w.end);
  for (const chunk of rangeChunks(w)) {
    direct.push(...(await rangeActivity(ctx, chunk.lo, chunk.hi)));
    if (w.dir === 'desc') lo = chunk.lo;
    else hi = chunk.hi;
    if (direct.length >= want) break;
  }
  return commitWindow(ctx, lo, hi, direct, want, w.dir);
}

/**
 * The window [lo, hi] as far as its direct rows reach: token transfer logs are read from the window's
 * starting end and may stop early (a wallet with many transfers), which shortens the window; beside
 * them SELFDESTRUCT beneficiaries (with ots_), kept over what remains; then one commit. Returns the far end.
 */
async function commitWindow(ctx: Ctx, lo: number, hi: number, direct: Row[], want: number, dir: 'asc' | 'desc'): Promise<number> {
  const caps = await nodeCapabilities(ctx.chainId);
  // Both at once (a first page waits for the two, one node round, not two): the beneficiaries over the
  // whole window, kept where the logs reach (windowRows).
  const [{ logs, reached }, beneficiaries] = await Promise.all([
    getLogsWindow(ctx.chainId, transferFilters(ctx.address), lo, hi, dir, enoughRows(direct, dir, want)),
    caps.ots ? beneficiaryActivity(ctx, lo, hi, caps.traceFilter) : [],
  ]);
  const span = narrowed(dir, lo, hi, reached);
  await commit(ctx, span.lo, span.hi, windowRows(span.lo, span.hi, direct, logs, beneficiaries));
  return dir === 'desc' ? span.lo : span.hi;
}

/** Replaces the wallet's rows of blocks [lo, hi] with `rows`; the final part becomes a span, the rest fresh. */
async function commit(ctx: Ctx, lo: number, hi: number, rows: Row[]): Promise<void> {
  // A background window's write waits for pages to pause, as its node calls do: the embedded database
  // runs one transaction at a time, on the server's thread, and a page's own queries would wait behind it.
  if (isBackground()) await callBudget(ctx.chainId).pagesPaused();
  const d = await db();
  const claims = commitSpans(lo, hi, ctx.final);
  await d.transaction(async (tx) => {
    await assertEpoch(tx, ctx.chainId, ctx.epoch);
    await lockScope(tx, ctx.chainId, ctx.address);
    await tx.query('DELETE FROM evm_wallet_activity WHERE chain_id = $1 AND address = $2 AND block_number BETWEEN $3 AND $4', [ctx.chainId, ctx.address, lo, hi]);
    for (const chunk of insertChunks(ctx.chainId, ctx.address, rows)) {
      await tx.query(`INSERT INTO evm_wallet_activity (chain_id, address, block_number, tx_index, tx_hash) VALUES ${chunk.values} ON CONFLICT DO NOTHING`, chunk.params);
    }
    await addSpan(tx, ctx.chainId, ctx.address, claims.stored);
  });
  if (claims.fresh) rememberFresh(st.fresh, `${ctx.chainId}:${ctx.address}`, `${ctx.epoch}@${ctx.head}`, claims.fresh);
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
    const traceSpan = traceSpans.get(chainId) ?? TRACE_SPAN;
    const end = Math.min(hi, start + traceSpan - 1);
    const range = { fromBlock: hexNum(start), toBlock: hexNum(end) };
    let results: TraceRow[][];
    try {
      results = await Promise.all(sides.map((side) => rpc<TraceRow[]>(chainId, 'trace_filter', [{ ...range, [side]: [address] }])));
    } catch (e) {
      if (!(e instanceof RpcMethodError) || e.unsupported || traceSpan <= TRACE_SPAN_MIN) throw e;
      traceSpans.set(chainId, traceSpanAfter(e.message, traceSpan));
      continue;
    }
    out.push(...traceRows(results));
    start = end + 1;
  }
  return out;
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
  return { complete: indexComplete(cov) };
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

/** Starts reading the wallet's older windows in the background, unless this process already is. */
function startBackgroundFill(chainId: number, address: string): void {
  const key = `${chainId}:${address}`;
  if (st.fills.has(key)) return;
  const job = inBackground(() => fill(chainId, address))
    .catch(async (e) => {
      // A change of chain is no failure (the next page starts the fill again on the new chain); either way the claim is let go.
      if (!(e instanceof ChainChangedError)) log().warn({ chainId, address, code: (e as { code?: string }).code, err: e instanceof Error ? e.message : String(e) }, 'history fill stopped; the next page resumes it');
      await (await db()).query('UPDATE evm_wallet_fill SET status = $3 WHERE chain_id = $1 AND address = $2', [chainId, address, e instanceof ChainChangedError ? 'stopped' : 'failed']).catch(() => undefined);
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
  // Windows start small and grow while the node answers them quickly (nextFillWant).
  let want = Math.min(config().evmHistoryWindow, FILL_START_WANT);
  for (;;) {
    // At the head of the moment: unfinal blocks this process read stay read only while it holds.
    await pagesIdle(chainId, address);
    const ctx = await contextNow(chainId, address);
    const gap = fillGaps(await coverage(ctx))[0];
    if (!gap) break;
    const t0 = performance.now();
    await readWindow(ctx, { dir: 'desc', start: gap.hi, end: gap.lo }, want);
    want = nextFillWant(want, performance.now() - t0, config().evmHistoryWindow);
    await d.query('UPDATE evm_wallet_fill SET heartbeat_at = now(), windows = windows + 1 WHERE chain_id = $1 AND address = $2', [chainId, address]);
  }
  await d.query("UPDATE evm_wallet_fill SET status = 'done', finished_at = now() WHERE chain_id = $1 AND address = $2", [chainId, address]);
}
