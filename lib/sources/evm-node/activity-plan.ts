import 'server-only';
import type { Hex } from 'viem';
import { gaps, normalise, spanAbove, spanAt, spanBelow, type Span } from './spans';

/**
 * The decisions behind the per-wallet activity index (activity.ts): which window a page reads next,
 * where a window read from the node ends, which rows it commits and which blocks it then claims as read.
 * Pure, so each rule is pinned by unit tests; activity.ts does the node reads and the SQL.
 */

export interface Row {
  block: number;
  index: number;
  hash: string;
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

/**
 * A window read from `start` towards `end`, both inclusive: 'desc' walks down (start >= end), 'asc' up.
 * It may stop short of `end` once it holds enough transactions.
 */
export interface Window {
  dir: 'asc' | 'desc';
  start: number;
  end: number;
}

/** Blocks in the first window on a node without ots_ (then 4 times more per window that finds too little). */
export const RANGE_WINDOW = 2_000;
/** The fewest transactions a window asks for: a page of 25 and one more, so a wallet page's small queries (its newest and oldest row) read the window its first page needs. */
export const MIN_WANT = 26;
/** Wallets whose unfinal blocks this process remembers (the oldest is forgotten: it is read again). */
export const FRESH_MAX = 10_000;
/** Rows per INSERT of a commit (PostgreSQL takes at most 65535 parameters in one statement). */
export const INSERT_CHUNK = 500;

/** A background window that took longer than this (its node calls and commit) is halved for the next one. */
export const FILL_SLOW_MS = 300;
/** ... and one that took less than this doubled, up to EVM_HISTORY_WINDOW. */
export const FILL_QUICK_MS = 100;

/**
 * Transactions the background fill's next window asks for, after one of `want` took `ms`. A node answers
 * calls roughly in turn and CallBudget holds back only the background calls not sent yet, so a page that
 * arrives waits behind the window in flight: kept short (about FILL_SLOW_MS on this node, however busy),
 * a fill never costs another person's first visit more than that. Never under MIN_WANT, never over `max`.
 */
export function nextFillWant(want: number, ms: number, max: number): number {
  if (ms > FILL_SLOW_MS) return Math.max(MIN_WANT, Math.floor(want / 2));
  if (ms < FILL_QUICK_MS) return Math.min(max, want * 2);
  return Math.min(max, want);
}

/** Transactions a window asks the node for when `have` of the `need` rows are already indexed. */
export const windowWant = (need: number, have = 0) => Math.max(MIN_WANT, need - have);

/**
 * The next thing a page's coverage run does, from what is read (`spans`, normalised):
 * - done: the page's rows are all indexed (or its range is empty past the cursor);
 * - reach: the block the page starts at is unread; `near` is the nearest read span in the page's direction;
 * - extend: the page starts in a read span that ends before the page's range does: count the page's rows
 *   in `count`, and if too few, read `window`, which runs from just past that span to the next one.
 */
export type CoverStep = { kind: 'done' } | { kind: 'reach'; at: number; near: Span | undefined } | { kind: 'extend'; count: Span; window: Window };

export function coverStep(spans: readonly Span[], need: PageNeed): CoverStep {
  if (need.order === 'DESC') {
    const top = need.after ? Math.min(need.after.block, need.to) : need.to;
    if (top < need.from) return { kind: 'done' };
    const s = spanAt(spans, top);
    if (!s) return { kind: 'reach', at: top, near: spanBelow(spans, top) };
    if (s.lo <= need.from) return { kind: 'done' };
    return { kind: 'extend', count: { lo: s.lo, hi: top }, window: { dir: 'desc', start: s.lo - 1, end: Math.max(need.from, (spanBelow(spans, s.lo)?.hi ?? 0) + 1) } };
  }
  const bottom = need.after ? Math.max(need.after.block, need.from) : need.from;
  if (bottom > need.to) return { kind: 'done' };
  const s = spanAt(spans, bottom);
  if (!s) return { kind: 'reach', at: bottom, near: spanAbove(spans, bottom) };
  if (s.hi >= need.to) return { kind: 'done' };
  return { kind: 'extend', count: { lo: bottom, hi: s.hi }, window: { dir: 'asc', start: s.hi + 1, end: Math.min(need.to, (spanAbove(spans, s.hi)?.lo ?? Infinity) - 1) } };
}

/**
 * From `at`, which no span holds, with `near` the nearest span in the page's direction. When that span
 * lies within the page's range (or just past its end), `join` is one window from it back to `at` (the
 * usual case: the new blocks since the wallet was last read, few in transactions); if that window
 * reaches `at`, the page's start is read. Otherwise (or with nothing near) `window` reads from `at` on.
 */
export function reachPlan(order: PageNeed['order'], at: number, near: Span | undefined, need: PageNeed): { join?: Window; window: Window } {
  if (order === 'DESC') {
    const floor = Math.max(need.from, (near?.hi ?? 0) + 1);
    const join: Window | undefined = near && near.hi >= need.from - 1 ? { dir: 'asc', start: near.hi + 1, end: at } : undefined;
    return { join, window: { dir: 'desc', start: at, end: floor } };
  }
  const ceil = Math.min(need.to, (near?.lo ?? Infinity) - 1);
  const join: Window | undefined = near && near.lo <= need.to + 1 ? { dir: 'desc', start: near.lo - 1, end: at } : undefined;
  return { join, window: { dir: 'asc', start: at, end: ceil } };
}

/** Whether a join window whose far end is `reached` read as far as `at` (reachPlan). */
export const joined = (join: Window, reached: number) => (join.dir === 'asc' ? reached >= join.end : reached <= join.end);

/** A window with no blocks in it (its start past its end): it reads nothing, and its far end is `end`. */
export const emptyWindow = (w: Window) => (w.dir === 'desc' ? w.start < w.end : w.start > w.end);

/**
 * The ots_ call for a window: ots_searchTransactionsBefore(block) returns transactions strictly below
 * `block`, newest first; ots_searchTransactionsAfter(block) those strictly above it, oldest first.
 */
export function otsCall(w: Window): { method: 'ots_searchTransactionsBefore' | 'ots_searchTransactionsAfter'; block: number } {
  return w.dir === 'desc' ? { method: 'ots_searchTransactionsBefore', block: w.start + 1 } : { method: 'ots_searchTransactionsAfter', block: w.start - 1 };
}

/** The raw answer of ots_searchTransactions{Before,After}. */
export interface OtsAnswer {
  txs: { hash: string; blockNumber: Hex | string; transactionIndex: Hex | string; to?: string | null; input?: string }[];
  firstPage: boolean;
  lastPage: boolean;
}

/** An ots_ page: whole blocks; `edge` says it reached the end of the chain in its direction. */
export function otsPage(method: 'ots_searchTransactionsBefore' | 'ots_searchTransactionsAfter', page: OtsAnswer): { rows: Row[]; edge: boolean } {
  return {
    rows: page.txs.map((t) => ({ block: Number(t.blockNumber), index: Number(t.transactionIndex), hash: t.hash.toLowerCase() })),
    // Before walks down (lastPage: reached genesis); After walks up (firstPage: reached the head).
    edge: method === 'ots_searchTransactionsBefore' ? page.lastPage : page.firstPage,
  };
}

/**
 * Hashes (lower-case) of an ots_ page's transactions that may have run code, by what the page says of
 * them: a creation, or a call with input. Only a hint (a plain transfer may reach a contract's code).
 */
export function mayRunCode(page: OtsAnswer): Set<string> {
  return new Set(page.txs.filter((t) => t.to === null || (typeof t.input === 'string' && t.input !== '0x' && t.input !== '')).map((t) => t.hash.toLowerCase()));
}

/** The rows of a window that fall in the page (its range, beyond its cursor), in the page's order. */
export function pageRowsOf<R extends Row>(need: PageNeed, rows: readonly R[]): R[] {
  const desc = need.order === 'DESC';
  const a = need.after;
  const beyond = (r: R) => !a || (desc ? r.block < a.block || (r.block === a.block && r.index < a.index) : r.block > a.block || (r.block === a.block && r.index > a.index));
  return rows
    .filter((r) => r.block >= need.from && r.block <= need.to && beyond(r))
    .sort((x, y) => (desc ? y.block - x.block || y.index - x.index : x.block - y.block || x.index - y.index));
}

/**
 * The blocks an ots_ page read for a window, and its rows in them. A page holds whole blocks, so it read
 * every block from the window's start to the farthest block it returned; at the chain's edge, or with
 * nothing returned, it read all the way to the window's end.
 */
export function otsWindow(w: Window, page: { rows: Row[]; edge: boolean }): { lo: number; hi: number; direct: Row[] } {
  const lo = Math.min(w.start, w.end);
  const hi = Math.max(w.start, w.end);
  const direct = page.rows.filter((r) => r.block >= lo && r.block <= hi);
  const all = page.edge || page.rows.length === 0;
  if (w.dir === 'desc') return { lo: all ? lo : Math.max(lo, Math.min(...page.rows.map((r) => r.block))), hi, direct };
  return { lo, hi: all ? hi : Math.min(hi, Math.max(...page.rows.map((r) => r.block))), direct };
}

/**
 * The block ranges a window reads on a node without ots_, in order from its start: RANGE_WINDOW blocks,
 * then 4 times more each, up to its end. The reader stops once it holds enough rows.
 */
export function* rangeChunks(w: Window): Generator<Span> {
  if (w.dir === 'desc') {
    for (let lo = w.start + 1, size = RANGE_WINDOW; lo > w.end; size *= 4) {
      const start = Math.max(w.end, lo - size);
      yield { lo: start, hi: lo - 1 };
      lo = start;
    }
    return;
  }
  for (let hi = w.start - 1, size = RANGE_WINDOW; hi < w.end; size *= 4) {
    const end = Math.min(w.end, hi + size);
    yield { lo: hi + 1, hi: end };
    hi = end;
  }
}

/**
 * For getLogsWindow: whether the window, read from its start down (or up) to `reached`, holds `want`
 * transactions: the ones its transfer logs name (`txs`) and the direct rows within it not among them.
 */
export function enoughRows(direct: readonly Row[], dir: Window['dir'], want: number): (reached: number, txs: ReadonlySet<string>) => boolean {
  return (reached, txs) => {
    let n = txs.size;
    for (const r of direct) if ((dir === 'desc' ? r.block >= reached : r.block <= reached) && !txs.has(r.hash)) n++;
    return n >= want;
  };
}

/** The window [lo, hi] shortened to where its transfer logs were read (`reached`, from its start). */
export const narrowed = (dir: Window['dir'], lo: number, hi: number, reached: number): Span => (dir === 'desc' ? { lo: reached, hi } : { lo, hi: reached });

/** A transfer log as activity needs it. */
export interface LogRef {
  transactionHash: string;
  blockNumber: Hex | string;
  transactionIndex: Hex | string;
}

/**
 * The window's rows, one per transaction: the direct rows and the transfer logs' transactions within
 * [lo, hi] (a direct row wins over a log's row of the same hash), then the SELFDESTRUCT beneficiary rows
 * within it (read beside the logs over the window before the logs narrowed it).
 */
export function windowRows(lo: number, hi: number, direct: readonly Row[], logs: readonly LogRef[], beneficiaries: readonly Row[]): Row[] {
  const found = new Map<string, Row>();
  for (const r of direct) if (r.block >= lo && r.block <= hi) found.set(r.hash, r);
  for (const l of logs) {
    const h = l.transactionHash.toLowerCase();
    const block = Number(l.blockNumber);
    if (!found.has(h) && block >= lo && block <= hi) found.set(h, { block, index: Number(l.transactionIndex), hash: h });
  }
  for (const r of beneficiaries) if (r.block >= lo && r.block <= hi) found.set(r.hash, r);
  return [...found.values()];
}

/** The rows of a commit as INSERT statements' VALUES and parameters ($1, $2: chain and wallet), INSERT_CHUNK rows each. */
export function insertChunks(chainId: number, address: string, rows: readonly Row[]): { values: string; params: unknown[] }[] {
  const out: { values: string; params: unknown[] }[] = [];
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const chunk = rows.slice(i, i + INSERT_CHUNK);
    out.push({
      values: chunk.map((_, j) => `($1, $2, $${j * 3 + 3}, $${j * 3 + 4}, $${j * 3 + 5})`).join(','),
      params: [chainId, address, ...chunk.flatMap((r) => [r.block, r.index, r.hash])],
    });
  }
  return out;
}

/** What a commit of [lo, hi] claims: the final blocks as a stored span; the unfinal ones (past `final`) only for this head. */
export function commitSpans(lo: number, hi: number, final: number): { stored: Span; fresh: Span | undefined } {
  return { stored: { lo, hi: Math.min(hi, final) }, fresh: hi > final ? { lo: Math.max(lo, final + 1), hi } : undefined };
}

/** Unfinal blocks read, per wallet, valid while `mark` (epoch@head) holds. */
export type FreshMap = Map<string, { mark: string; spans: Span[] }>;

/**
 * Adds unfinal blocks read at `mark` to the wallet's fresh spans (those of another mark are dropped);
 * a new wallet past `max` makes room by forgetting the oldest one.
 */
export function rememberFresh(fresh: FreshMap, key: string, mark: string, span: Span, max = FRESH_MAX): void {
  const cur = fresh.get(key);
  if (!cur && fresh.size >= max) fresh.delete(fresh.keys().next().value!);
  fresh.set(key, { mark, spans: normalise(cur && cur.mark === mark ? [...cur.spans, span] : [span]) });
}

/** What the wallet's index holds: its stored spans, and its fresh ones if read at `mark`. */
export function coverageOf(stored: readonly Span[], fresh: { mark: string; spans: Span[] } | undefined, mark: string): Span[] {
  return fresh && fresh.mark === mark ? normalise([...stored, ...fresh.spans]) : [...stored];
}

/** The gaps below the newest span read, newest first: what the background job reads. */
export function fillGaps(cov: readonly Span[]): Span[] {
  const top = cov[cov.length - 1];
  return top ? gaps(cov, 1, top.hi).reverse() : [];
}

/** The index is complete when what is read runs from block 1 without a gap (fillGaps starts at block 1). */
export const indexComplete = (cov: readonly Span[]) => cov.length > 0 && fillGaps(cov).length === 0;

/** The keyset condition and its parameters ($6, $7) of a count of the page's rows past its cursor. */
export function keysetOf(need: PageNeed): { sql: string; params: unknown[] } {
  if (!need.after) return { sql: '', params: [] };
  return { sql: `AND (block_number, tx_index) ${need.order === 'DESC' ? '<' : '>'} ($6, $7)`, params: [need.after.block, need.after.index] };
}

/** A trace_filter result row. */
export interface TraceRow {
  blockNumber: number;
  transactionHash?: string;
  transactionPosition?: number;
}

/** The transactions of trace_filter results (block rewards have no transaction hash and are left out). */
export function traceRows(results: readonly (readonly TraceRow[])[]): Row[] {
  const out: Row[] = [];
  for (const list of results) for (const t of list) if (t.transactionHash) out.push({ block: t.blockNumber, index: t.transactionPosition ?? 0, hash: t.transactionHash.toLowerCase() });
  return out;
}

/** The first trace_filter range, in blocks, before a node refuses one as too wide. */
export const TRACE_SPAN = 10_000;
/** The narrowest trace_filter range: a node refusing this is refusing something else. */
export const TRACE_SPAN_MIN = 10;

/**
 * The blocks per trace_filter call after a node refused `span` blocks: the limit its message names
 * ("... limited to 300 blocks", anvil) when that is narrower, else a quarter (at least TRACE_SPAN_MIN).
 */
export function traceSpanAfter(message: string, span: number): number {
  const limit = /limited to (\d+)/i.exec(message);
  return limit && Number(limit[1]) > 0 && Number(limit[1]) < span ? Number(limit[1]) : Math.max(TRACE_SPAN_MIN, Math.floor(span / 4));
}
