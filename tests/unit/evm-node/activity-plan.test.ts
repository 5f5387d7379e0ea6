import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FILL_QUICK_MS,
  FILL_SLOW_MS,
  FRESH_MAX,
  INSERT_CHUNK,
  MIN_WANT,
  RANGE_WINDOW,
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
  mayRunCode,
  narrowed,
  nextFillWant,
  otsCall,
  otsPage,
  otsWindow,
  pageRowsOf,
  rangeChunks,
  reachPlan,
  rememberFresh,
  traceRows,
  traceSpanAfter,
  windowRows,
  windowWant,
  type FreshMap,
  type PageNeed,
  type Row,
  type Window,
} from '@/lib/sources/evm-node/activity-plan';
import { normalise, type Span } from '@/lib/sources/evm-node/spans';

// The decisions of the per-wallet activity index. Oracles: sets of block numbers for spans, and a model
// chain answering ots_searchTransactionsBefore/After as the Otterscan API specifies them (transactions
// strictly below/above a block, whole blocks, at least `pageSize` of them unless the chain's end is met).

const blocksOf = (spans: readonly Span[]) => {
  const out = new Set<number>();
  for (const s of spans) for (let b = s.lo; b <= s.hi; b++) out.add(b);
  return out;
};
const spansArb = (max: number) =>
  fc.array(fc.tuple(fc.integer({ min: 1, max }), fc.integer({ min: 1, max: 30 })).map(([lo, len]): Span => ({ lo, hi: Math.min(max, lo + len - 1) })), { maxLength: 6 }).map(normalise);
const row = (block: number, index = 0, hash = `0x${block.toString(16)}-${index}`): Row => ({ block, index, hash });

describe('windowWant', () => {
  it('asks for what the page still needs, never fewer than MIN_WANT', () => {
    expect(MIN_WANT).toBe(26);
    expect(windowWant(26)).toBe(26);
    expect(windowWant(1)).toBe(26);
    expect(windowWant(101)).toBe(101);
    expect(windowWant(101, 1)).toBe(100);
    expect(windowWant(101, 90)).toBe(26);
    expect(windowWant(30, 4)).toBe(26);
    expect(windowWant(30, 3)).toBe(27);
  });
});

describe('the background fill’s window size (nextFillWant)', () => {
  it('halves after a slow window, doubles after a quick one, holds in between, within [MIN_WANT, max]', () => {
    expect(nextFillWant(200, FILL_SLOW_MS + 1, 1000)).toBe(100);
    expect(nextFillWant(40, 5_000, 1000)).toBe(MIN_WANT);
    expect(nextFillWant(200, FILL_QUICK_MS - 1, 1000)).toBe(400);
    expect(nextFillWant(800, 0, 1000)).toBe(1000);
    expect(nextFillWant(300, (FILL_SLOW_MS + FILL_QUICK_MS) / 2, 1000)).toBe(300);
    expect(nextFillWant(300, (FILL_SLOW_MS + FILL_QUICK_MS) / 2, 100)).toBe(100);
  });

  it('on a node whose time grows with the window, settles where a window takes between FILL_QUICK_MS and FILL_SLOW_MS', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.01, max: 10, noNaN: true }), fc.integer({ min: 100, max: 100_000 }), (msPerTx, max) => {
        let want = Math.min(200, max);
        for (let i = 0; i < 40; i++) want = nextFillWant(want, want * msPerTx, max);
        expect(want).toBeGreaterThanOrEqual(MIN_WANT);
        expect(want).toBeLessThanOrEqual(max);
        // Short enough unless as small as a window gets; long enough unless as large as allowed; and settled.
        expect(want * msPerTx <= FILL_SLOW_MS || want === MIN_WANT).toBe(true);
        expect(want * msPerTx >= FILL_QUICK_MS || want === max).toBe(true);
        expect(nextFillWant(want, want * msPerTx, max)).toBe(want);
      }),
    );
  });
});

const need = (o: Partial<PageNeed> & Pick<PageNeed, 'order'>): PageNeed => ({ from: 1, to: 100, need: 26, ...o });

describe('coverStep', () => {
  it('DESC: reach from the range top (or the cursor block) when it is unread, with the nearest span below', () => {
    expect(coverStep([], need({ order: 'DESC' }))).toEqual({ kind: 'reach', at: 100, near: undefined });
    expect(coverStep([{ lo: 10, hi: 20 }, { lo: 40, hi: 50 }], need({ order: 'DESC' }))).toEqual({ kind: 'reach', at: 100, near: { lo: 40, hi: 50 } });
    expect(coverStep([], need({ order: 'DESC', after: { block: 60, index: 3 } }))).toEqual({ kind: 'reach', at: 60, near: undefined });
    // A cursor past the range's top (the range was clamped to a lower head) starts at the top.
    expect(coverStep([], need({ order: 'DESC', after: { block: 150, index: 0 } }))).toEqual({ kind: 'reach', at: 100, near: undefined });
  });

  it('DESC: done when the span holding the start reaches the range bottom, or the cursor is below the range', () => {
    expect(coverStep([{ lo: 1, hi: 100 }], need({ order: 'DESC' }))).toEqual({ kind: 'done' });
    expect(coverStep([{ lo: 30, hi: 100 }], need({ order: 'DESC', from: 30 }))).toEqual({ kind: 'done' });
    expect(coverStep([], need({ order: 'DESC', from: 30, after: { block: 29, index: 0 } }))).toEqual({ kind: 'done' });
    expect(coverStep([], need({ order: 'DESC', from: 30, after: { block: 30, index: 0 } }))).toEqual({ kind: 'reach', at: 30, near: undefined });
  });

  it('DESC: extend below the span holding the start, down to the next span below or the range bottom', () => {
    expect(coverStep([{ lo: 31, hi: 100 }], need({ order: 'DESC', from: 30 }))).toEqual({ kind: 'extend', count: { lo: 31, hi: 100 }, window: { dir: 'desc', start: 30, end: 30 } });
    expect(coverStep([{ lo: 60, hi: 120 }], need({ order: 'DESC' }))).toEqual({ kind: 'extend', count: { lo: 60, hi: 100 }, window: { dir: 'desc', start: 59, end: 1 } });
    expect(coverStep([{ lo: 5, hi: 20 }, { lo: 60, hi: 120 }], need({ order: 'DESC' }))).toEqual({ kind: 'extend', count: { lo: 60, hi: 100 }, window: { dir: 'desc', start: 59, end: 21 } });
    expect(coverStep([{ lo: 5, hi: 20 }, { lo: 60, hi: 120 }], need({ order: 'DESC', from: 40, after: { block: 70, index: 0 } }))).toEqual({
      kind: 'extend',
      count: { lo: 60, hi: 70 },
      window: { dir: 'desc', start: 59, end: 40 },
    });
  });

  it('ASC: the mirror (reach from the range bottom or cursor, extend above the span holding it)', () => {
    expect(coverStep([], need({ order: 'ASC' }))).toEqual({ kind: 'reach', at: 1, near: undefined });
    expect(coverStep([{ lo: 40, hi: 50 }, { lo: 70, hi: 80 }], need({ order: 'ASC', from: 5 }))).toEqual({ kind: 'reach', at: 5, near: { lo: 40, hi: 50 } });
    expect(coverStep([], need({ order: 'ASC', after: { block: 60, index: 0 } }))).toEqual({ kind: 'reach', at: 60, near: undefined });
    expect(coverStep([], need({ order: 'ASC', from: 10, after: { block: 3, index: 0 } }))).toEqual({ kind: 'reach', at: 10, near: undefined });
    expect(coverStep([], need({ order: 'ASC', to: 50, after: { block: 51, index: 0 } }))).toEqual({ kind: 'done' });
    expect(coverStep([], need({ order: 'ASC', to: 50, after: { block: 50, index: 0 } }))).toEqual({ kind: 'reach', at: 50, near: undefined });
    expect(coverStep([{ lo: 1, hi: 100 }], need({ order: 'ASC' }))).toEqual({ kind: 'done' });
    expect(coverStep([{ lo: 1, hi: 99 }], need({ order: 'ASC' }))).toEqual({ kind: 'extend', count: { lo: 1, hi: 99 }, window: { dir: 'asc', start: 100, end: 100 } });
    expect(coverStep([{ lo: 1, hi: 30 }], need({ order: 'ASC' }))).toEqual({ kind: 'extend', count: { lo: 1, hi: 30 }, window: { dir: 'asc', start: 31, end: 100 } });
    expect(coverStep([{ lo: 1, hi: 30 }, { lo: 60, hi: 70 }], need({ order: 'ASC', after: { block: 20, index: 1 } }))).toEqual({
      kind: 'extend',
      count: { lo: 20, hi: 30 },
      window: { dir: 'asc', start: 31, end: 59 },
    });
  });

  it('any spans: reach starts at an unread block, extend counts read blocks and reads unread ones only, done leaves nothing unread', () => {
    fc.assert(
      fc.property(spansArb(120), fc.constantFrom<'ASC' | 'DESC'>('ASC', 'DESC'), fc.integer({ min: 1, max: 120 }), fc.integer({ min: 0, max: 120 }), fc.option(fc.integer({ min: 0, max: 125 })), (spans, order, from, len, cursor) => {
        const to = Math.min(120, from + len);
        const n: PageNeed = { order, from, to, need: 26, ...(cursor === null ? {} : { after: { block: cursor, index: 0 } }) };
        const read = blocksOf(spans);
        const start = order === 'DESC' ? Math.min(cursor ?? to, to) : Math.max(cursor ?? from, from);
        const step = coverStep(spans, n);
        const towards = order === 'DESC' ? -1 : 1;
        const last = order === 'DESC' ? from : to;
        if (step.kind === 'done') {
          for (let b = start; towards * b <= towards * last; b += towards) expect(read.has(b)).toBe(true);
          return;
        }
        if (step.kind === 'reach') {
          expect(step.at).toBe(start);
          expect(read.has(start)).toBe(false);
          if (step.near) {
            expect(spans).toContainEqual(step.near);
            for (let b = start; b !== (towards < 0 ? step.near.hi : step.near.lo); b += towards) expect(read.has(b)).toBe(false);
          } else for (let b = start; b >= 1 && b <= 200; b += towards) expect(read.has(b)).toBe(false);
          return;
        }
        for (let b = step.count.lo; b <= step.count.hi; b++) expect(read.has(b)).toBe(true);
        expect(order === 'DESC' ? step.count.hi : step.count.lo).toBe(start);
        const w = step.window;
        expect(w.dir).toBe(order === 'DESC' ? 'desc' : 'asc');
        // The window starts right past the read span and holds only unread blocks of the range.
        expect(w.start).toBe(order === 'DESC' ? step.count.lo - 1 : step.count.hi + 1);
        for (let b = w.start; towards * b <= towards * w.end; b += towards) {
          expect(read.has(b)).toBe(false);
          expect(b >= from && b <= to).toBe(true);
        }
        // And it stops only at the range's end or the next read block.
        expect(w.end === last || read.has(w.end + towards)).toBe(true);
      }),
    );
  });
});

describe('reachPlan', () => {
  const n = need({ order: 'DESC', from: 10, to: 100 });
  it('DESC with nothing read below: one window down from the start to the range bottom', () => {
    expect(reachPlan('DESC', 100, undefined, n)).toEqual({ join: undefined, window: { dir: 'desc', start: 100, end: 10 } });
  });
  it('DESC with a span below in the range: join it upwards first; else a window down to just above it', () => {
    expect(reachPlan('DESC', 100, { lo: 20, hi: 40 }, n)).toEqual({ join: { dir: 'asc', start: 41, end: 100 }, window: { dir: 'desc', start: 100, end: 41 } });
    // A span ending just below the range bottom still joins: the window up then starts at the bottom.
    expect(reachPlan('DESC', 100, { lo: 2, hi: 9 }, n)).toEqual({ join: { dir: 'asc', start: 10, end: 100 }, window: { dir: 'desc', start: 100, end: 10 } });
    expect(reachPlan('DESC', 100, { lo: 2, hi: 8 }, n)).toEqual({ join: undefined, window: { dir: 'desc', start: 100, end: 10 } });
  });
  it('ASC: the mirror', () => {
    const a = need({ order: 'ASC', from: 10, to: 100 });
    expect(reachPlan('ASC', 10, undefined, a)).toEqual({ join: undefined, window: { dir: 'asc', start: 10, end: 100 } });
    expect(reachPlan('ASC', 10, { lo: 50, hi: 60 }, a)).toEqual({ join: { dir: 'desc', start: 49, end: 10 }, window: { dir: 'asc', start: 10, end: 49 } });
    expect(reachPlan('ASC', 10, { lo: 101, hi: 120 }, a)).toEqual({ join: { dir: 'desc', start: 100, end: 10 }, window: { dir: 'asc', start: 10, end: 100 } });
    expect(reachPlan('ASC', 10, { lo: 102, hi: 120 }, a)).toEqual({ join: undefined, window: { dir: 'asc', start: 10, end: 100 } });
  });
  it('a join counts as done only when it read back to the start', () => {
    expect(joined({ dir: 'asc', start: 41, end: 100 }, 100)).toBe(true);
    expect(joined({ dir: 'asc', start: 41, end: 100 }, 99)).toBe(false);
    expect(joined({ dir: 'desc', start: 49, end: 10 }, 10)).toBe(true);
    expect(joined({ dir: 'desc', start: 49, end: 10 }, 11)).toBe(false);
  });
});

describe('windows', () => {
  it('a window is empty when its start is past its end in its direction; one block is not empty', () => {
    expect(emptyWindow({ dir: 'desc', start: 4, end: 5 })).toBe(true);
    expect(emptyWindow({ dir: 'desc', start: 5, end: 5 })).toBe(false);
    expect(emptyWindow({ dir: 'asc', start: 6, end: 5 })).toBe(true);
    expect(emptyWindow({ dir: 'asc', start: 5, end: 5 })).toBe(false);
  });

  it('ots_ calls: Before(start + 1) returns the blocks from start down; After(start - 1) from start up', () => {
    expect(otsCall({ dir: 'desc', start: 100, end: 1 })).toEqual({ method: 'ots_searchTransactionsBefore', block: 101 });
    expect(otsCall({ dir: 'asc', start: 5, end: 100 })).toEqual({ method: 'ots_searchTransactionsAfter', block: 4 });
  });

  it('an ots_ page: rows from the hex fields, hashes lower-case; the edge is lastPage walking down, firstPage walking up', () => {
    const txs = [{ hash: '0xABcd', blockNumber: '0x1f', transactionIndex: '0x2' }];
    expect(otsPage('ots_searchTransactionsBefore', { txs, firstPage: false, lastPage: true })).toEqual({ rows: [{ block: 31, index: 2, hash: '0xabcd' }], edge: true });
    expect(otsPage('ots_searchTransactionsBefore', { txs, firstPage: true, lastPage: false }).edge).toBe(false);
    expect(otsPage('ots_searchTransactionsAfter', { txs, firstPage: true, lastPage: false }).edge).toBe(true);
    expect(otsPage('ots_searchTransactionsAfter', { txs, firstPage: false, lastPage: true }).edge).toBe(false);
  });

  it('an ots_ window reads to its farthest returned block; at the edge, or with nothing returned, to its end', () => {
    const down: Window = { dir: 'desc', start: 100, end: 20 };
    const rows = [row(90), row(80, 1), row(80, 0)];
    expect(otsWindow(down, { rows, edge: false })).toEqual({ lo: 80, hi: 100, direct: rows });
    expect(otsWindow(down, { rows, edge: true })).toEqual({ lo: 20, hi: 100, direct: rows });
    expect(otsWindow(down, { rows: [], edge: false })).toEqual({ lo: 20, hi: 100, direct: [] });
    // Rows past the window's end (the page's last whole block lies below it) are not the window's.
    expect(otsWindow(down, { rows: [row(30), row(10)], edge: false })).toEqual({ lo: 20, hi: 100, direct: [row(30)] });
    const up: Window = { dir: 'asc', start: 20, end: 100 };
    expect(otsWindow(up, { rows: [row(30), row(40)], edge: false })).toEqual({ lo: 20, hi: 40, direct: [row(30), row(40)] });
    expect(otsWindow(up, { rows: [row(30), row(40)], edge: true })).toEqual({ lo: 20, hi: 100, direct: [row(30), row(40)] });
    expect(otsWindow(up, { rows: [], edge: false })).toEqual({ lo: 20, hi: 100, direct: [] });
    expect(otsWindow(up, { rows: [row(90), row(120)], edge: false })).toEqual({ lo: 20, hi: 100, direct: [row(90)] });
    // A window's own end blocks are its own.
    expect(otsWindow(down, { rows: [row(100), row(20)], edge: true }).direct).toEqual([row(100), row(20)]);
    expect(otsWindow(up, { rows: [row(20), row(100)], edge: true }).direct).toEqual([row(20), row(100)]);
    expect(otsWindow({ dir: 'desc', start: 100, end: 20 }, { rows: [row(120), row(95)], edge: false })).toEqual({ lo: 95, hi: 100, direct: [row(95)] });
    expect(otsWindow({ dir: 'asc', start: 20, end: 100 }, { rows: [row(10), row(25)], edge: false })).toEqual({ lo: 20, hi: 25, direct: [row(25)] });
  });

  it('range chunks: RANGE_WINDOW blocks, then four times more each, from the start to the end', () => {
    expect(RANGE_WINDOW).toBe(2000);
    expect([...rangeChunks({ dir: 'desc', start: 20_000, end: 1 })]).toEqual([
      { lo: 18_001, hi: 20_000 },
      { lo: 10_001, hi: 18_000 },
      { lo: 1, hi: 10_000 },
    ]);
    expect([...rangeChunks({ dir: 'asc', start: 1, end: 20_000 })]).toEqual([
      { lo: 1, hi: 2000 },
      { lo: 2001, hi: 10_000 },
      { lo: 10_001, hi: 20_000 },
    ]);
    expect([...rangeChunks({ dir: 'desc', start: 5, end: 5 })]).toEqual([{ lo: 5, hi: 5 }]);
    expect([...rangeChunks({ dir: 'asc', start: 5, end: 5 })]).toEqual([{ lo: 5, hi: 5 }]);
    expect([...rangeChunks({ dir: 'desc', start: 4, end: 5 })]).toEqual([]);
    expect([...rangeChunks({ dir: 'asc', start: 6, end: 5 })]).toEqual([]);
  });

  it('range chunks tile the window, in order from its start, with no gap or overlap', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 0, max: 400_000 }), fc.boolean(), (a, len, down) => {
        const w: Window = down ? { dir: 'desc', start: a + len, end: a } : { dir: 'asc', start: a, end: a + len };
        const chunks = [...rangeChunks(w)];
        let next = w.start;
        let size = RANGE_WINDOW;
        for (const [i, c] of chunks.entries()) {
          expect(down ? c.hi : c.lo).toBe(next);
          const isLast = i === chunks.length - 1;
          expect(c.hi - c.lo + 1).toBe(isLast ? Math.min(size, len + 1 - Math.abs(next - w.start)) : size);
          next = down ? c.lo - 1 : c.hi + 1;
          size *= 4;
        }
        expect(next).toBe(down ? w.end - 1 : w.end + 1);
      }),
    );
  });
});

describe('a commit', () => {
  it('enough: the transfer logs read so far and the direct rows from the start to `reached` they do not name', () => {
    const direct = [row(100, 0, '0xa'), row(90, 0, '0xb'), row(80, 0, '0xc')];
    const down = enoughRows(direct, 'desc', 3);
    expect(down(90, new Set())).toBe(false);
    expect(down(80, new Set())).toBe(true);
    expect(down(90, new Set(['0xz']))).toBe(true);
    expect(down(90, new Set(['0xa']))).toBe(false);
    expect(down(101, new Set(['0xz', '0xy']))).toBe(false);
    const up = enoughRows(direct, 'asc', 2);
    expect(up(80, new Set())).toBe(false);
    expect(up(90, new Set())).toBe(true);
    expect(up(89, new Set(['0xc']))).toBe(false);
    expect(up(79, new Set(['0xq', '0xr']))).toBe(true);
  });

  it('the window shortens to where its logs were read, from its start', () => {
    expect(narrowed('desc', 10, 100, 60)).toEqual({ lo: 60, hi: 100 });
    expect(narrowed('asc', 10, 100, 60)).toEqual({ lo: 10, hi: 60 });
  });

  it('rows: direct rows in the window, the logs’ other transactions in it, then the beneficiary rows', () => {
    const direct = [row(50, 1, '0xa'), row(9, 0, '0xout')];
    const logs = [
      { transactionHash: '0xA', blockNumber: '0x32', transactionIndex: '0x7' },
      { transactionHash: '0xBB', blockNumber: '0x28', transactionIndex: '0x3' },
      { transactionHash: '0xBB', blockNumber: '0x28', transactionIndex: '0x3' },
      { transactionHash: '0xcc', blockNumber: '0x65', transactionIndex: '0x0' },
      { transactionHash: '0xdd', blockNumber: '0x9', transactionIndex: '0x0' },
    ];
    expect(windowRows(10, 100, direct, logs, [row(60, 2, '0xe'), row(40, 9, '0xbb')])).toEqual([row(50, 1, '0xa'), row(40, 9, '0xbb'), row(60, 2, '0xe')]);
    expect(windowRows(10, 100, direct, logs, [])).toEqual([row(50, 1, '0xa'), row(40, 3, '0xbb')]);
    expect(windowRows(40, 40, [row(40, 0, '0xf'), row(41, 0, '0xg')], [{ transactionHash: '0x1', blockNumber: '0x28', transactionIndex: '0x1' }], [])).toEqual([row(40, 0, '0xf'), row(40, 1, '0x1')]);
    // Beneficiary rows outside the window (either side of it) are not its rows.
    expect(windowRows(40, 40, [], [], [row(39, 0, '0xb1'), row(40, 2, '0xb2'), row(41, 0, '0xb3')])).toEqual([row(40, 2, '0xb2')]);
  });

  it('rows are inserted INSERT_CHUNK at a time, numbered parameters after the chain and wallet', () => {
    expect(INSERT_CHUNK).toBe(500);
    expect(insertChunks(1, '0xw', [])).toEqual([]);
    expect(insertChunks(1, '0xw', [row(5, 1, '0xa'), row(6, 0, '0xb')])).toEqual([
      { values: '($1, $2, $3, $4, $5),($1, $2, $6, $7, $8)', params: [1, '0xw', 5, 1, '0xa', 6, 0, '0xb'] },
    ]);
    const many = Array.from({ length: 1001 }, (_, i) => row(i + 1, 0, `0x${i}`));
    const chunks = insertChunks(7, '0xw', many);
    expect(chunks.map((c) => c.params.length)).toEqual([2 + 1500, 2 + 1500, 2 + 3]);
    expect(chunks[1]!.params.slice(0, 5)).toEqual([7, '0xw', 501, 0, '0x500']);
    expect(chunks[2]!.values).toBe('($1, $2, $3, $4, $5)');
  });

  it('claims the final blocks as a stored span and the unfinal ones as fresh, never a block outside [lo, hi]', () => {
    expect(commitSpans(10, 50, 60)).toEqual({ stored: { lo: 10, hi: 50 }, fresh: undefined });
    expect(commitSpans(10, 60, 60)).toEqual({ stored: { lo: 10, hi: 60 }, fresh: undefined });
    expect(commitSpans(10, 61, 60)).toEqual({ stored: { lo: 10, hi: 60 }, fresh: { lo: 61, hi: 61 } });
    expect(commitSpans(70, 80, 60)).toEqual({ stored: { lo: 70, hi: 60 }, fresh: { lo: 70, hi: 80 } });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 260 }), (lo, len, final) => {
        const hi = lo + len;
        const { stored, fresh } = commitSpans(lo, hi, final);
        const claimed = [...blocksOf([stored]), ...blocksOf(fresh ? [fresh] : [])].sort((a, b) => a - b);
        expect(claimed).toEqual(Array.from({ length: len + 1 }, (_, i) => lo + i));
        for (const b of blocksOf([stored])) expect(b).toBeLessThanOrEqual(final);
        if (fresh) for (const b of blocksOf([fresh])) expect(b).toBeGreaterThan(final);
      }),
    );
  });
});

describe('fresh spans', () => {
  it('merge at the same mark; another mark starts again', () => {
    const m: FreshMap = new Map();
    rememberFresh(m, 'w', '1@100', { lo: 95, hi: 100 });
    rememberFresh(m, 'w', '1@100', { lo: 90, hi: 94 });
    expect(m.get('w')).toEqual({ mark: '1@100', spans: [{ lo: 90, hi: 100 }] });
    rememberFresh(m, 'w', '1@101', { lo: 101, hi: 101 });
    expect(m.get('w')).toEqual({ mark: '1@101', spans: [{ lo: 101, hi: 101 }] });
  });

  it('a new wallet past the limit forgets the oldest; a known one forgets none', () => {
    expect(FRESH_MAX).toBe(10_000);
    const m: FreshMap = new Map();
    rememberFresh(m, 'a', 'x', { lo: 1, hi: 1 }, 2);
    rememberFresh(m, 'b', 'x', { lo: 1, hi: 1 }, 2);
    rememberFresh(m, 'b', 'y', { lo: 2, hi: 2 }, 2);
    expect([...m.keys()]).toEqual(['a', 'b']);
    rememberFresh(m, 'c', 'x', { lo: 1, hi: 1 }, 2);
    expect([...m.keys()]).toEqual(['b', 'c']);
    const full: FreshMap = new Map();
    for (let i = 0; i < FRESH_MAX - 1; i++) full.set(`k${i}`, { mark: 'x', spans: [] });
    rememberFresh(full, 'new', 'x', { lo: 1, hi: 1 });
    expect(full.size).toBe(FRESH_MAX);
    expect(full.has('k0')).toBe(true);
    rememberFresh(full, 'newer', 'x', { lo: 1, hi: 1 });
    expect(full.size).toBe(FRESH_MAX);
    expect(full.has('k0')).toBe(false);
  });

  it('count in the coverage only at their own mark', () => {
    const stored = [{ lo: 1, hi: 50 }];
    expect(coverageOf(stored, { mark: '1@60', spans: [{ lo: 51, hi: 60 }] }, '1@60')).toEqual([{ lo: 1, hi: 60 }]);
    expect(coverageOf(stored, { mark: '1@60', spans: [{ lo: 51, hi: 60 }] }, '1@61')).toEqual(stored);
    expect(coverageOf(stored, undefined, '1@60')).toEqual(stored);
  });
});

describe('the background fill', () => {
  it('reads the gaps below the newest span, newest first', () => {
    expect(fillGaps([])).toEqual([]);
    expect(fillGaps([{ lo: 1, hi: 10 }])).toEqual([]);
    expect(fillGaps([{ lo: 5, hi: 10 }, { lo: 20, hi: 30 }])).toEqual([{ lo: 11, hi: 19 }, { lo: 1, hi: 4 }]);
  });

  it('after reading its gaps, the index is blocks 1 to the newest read block, complete', () => {
    fc.assert(
      fc.property(spansArb(150).filter((s) => s.length > 0), (cov) => {
        const g = fillGaps(cov);
        for (let i = 1; i < g.length; i++) expect(g[i]!.hi).toBeLessThan(g[i - 1]!.lo);
        const top = cov[cov.length - 1]!.hi;
        const read = blocksOf(cov);
        for (const b of blocksOf(g)) expect(read.has(b)).toBe(false);
        const after = normalise([...cov, ...g]);
        expect(after).toEqual([{ lo: 1, hi: top }]);
        expect(indexComplete(after)).toBe(true);
        expect(indexComplete(cov)).toBe(g.length === 0);
      }),
    );
  });

  it('complete means read from block 1 without a gap', () => {
    expect(indexComplete([])).toBe(false);
    expect(indexComplete([{ lo: 1, hi: 10 }])).toBe(true);
    expect(indexComplete([{ lo: 2, hi: 10 }])).toBe(false);
    expect(indexComplete([{ lo: 1, hi: 5 }, { lo: 7, hi: 10 }])).toBe(false);
  });
});

describe('node answers', () => {
  it('the count past a cursor compares (block, index) in the page order', () => {
    expect(keysetOf(need({ order: 'DESC' }))).toEqual({ sql: '', params: [] });
    expect(keysetOf(need({ order: 'DESC', after: { block: 9, index: 2 } }))).toEqual({ sql: 'AND (block_number, tx_index) < ($6, $7)', params: [9, 2] });
    expect(keysetOf(need({ order: 'ASC', after: { block: 9, index: 2 } }))).toEqual({ sql: 'AND (block_number, tx_index) > ($6, $7)', params: [9, 2] });
  });

  it('trace_filter rows: transactions only (a block reward has no hash), position 0 when absent', () => {
    expect(
      traceRows([
        [{ blockNumber: 5, transactionHash: '0xAB', transactionPosition: 3 }, { blockNumber: 5 }],
        [{ blockNumber: 6, transactionHash: '0xcd' }],
      ]),
    ).toEqual([row(5, 3, '0xab'), row(6, 0, '0xcd')]);
  });

  it('a refused trace_filter range narrows to the limit the node names, else to a quarter, never below 10', () => {
    expect(traceSpanAfter('block range is limited to 300 blocks', 10_000)).toBe(300);
    expect(traceSpanAfter('Block range LIMITED TO 300', 10_000)).toBe(300);
    expect(traceSpanAfter('limited to 300', 300)).toBe(75);
    expect(traceSpanAfter('limited to 299', 300)).toBe(299);
    expect(traceSpanAfter('limited to 0', 1000)).toBe(250);
    expect(traceSpanAfter('query timeout', 1000)).toBe(250);
    expect(traceSpanAfter('query timeout', 1003)).toBe(250);
    expect(traceSpanAfter('query timeout', 20)).toBe(10);
    expect(traceSpanAfter('query timeout', 44)).toBe(11);
  });
});

// The whole run of a page's coverage against a model chain whose node answers ots_ as Otterscan does.
// What the index then holds (the rows of the blocks read) must give the page the chain's own answer.
describe('a page covered against a model chain', () => {
  const chainArb = fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 150 });
  it('the keyset page over the read blocks equals the page over the whole chain', () => {
    fc.assert(
      fc.property(
        chainArb,
        spansArb(150),
        fc.constantFrom<'ASC' | 'DESC'>('ASC', 'DESC'),
        fc.integer({ min: 1, max: 150 }),
        fc.integer({ min: 0, max: 150 }),
        fc.option(fc.tuple(fc.integer({ min: 0, max: 151 }), fc.integer({ min: 0, max: 3 }))),
        fc.integer({ min: 1, max: 40 }),
        (txsPerBlock, known, order, from0, len, cursor, want) => {
          const head = txsPerBlock.length;
          const chain: Row[] = txsPerBlock.flatMap((n, i) => Array.from({ length: n }, (_, j) => row(i + 1, j)));
          const from = Math.min(from0, head);
          const to = Math.min(head, from + len);
          const n: PageNeed = { order, from, to, need: want, ...(cursor ? { after: { block: cursor[0], index: cursor[1] } } : {}) };
          let spans = normalise(known.filter((s) => s.hi <= head));
          const inPage = (r: Row) =>
            r.block >= from && r.block <= to && (!n.after || (order === 'DESC' ? r.block < n.after.block || (r.block === n.after.block && r.index < n.after.index) : r.block > n.after.block || (r.block === n.after.block && r.index > n.after.index)));
          const sorted = (rows: Row[]) => [...rows].sort((a, b) => (order === 'DESC' ? b.block - a.block || b.index - a.index : a.block - b.block || a.index - b.index));
          const ots = (w: Window, size: number) => {
            // Before(b): transactions in blocks < b, newest first; After(b): in blocks > b, oldest first;
            // whole blocks until at least `size`; lastPage/firstPage when the chain's end was reached.
            const call = otsCall(w);
            const down = call.method === 'ots_searchTransactionsBefore';
            const cands = sorted(chain.filter((r) => (down ? r.block < call.block : r.block > call.block)));
            const ordered = down ? [...cands].sort((a, b) => b.block - a.block) : [...cands].sort((a, b) => a.block - b.block);
            const page: Row[] = [];
            for (const r of ordered) {
              if (page.length >= size && r.block !== page[page.length - 1]!.block) break;
              page.push(r);
            }
            const edge = page.length === ordered.length;
            const txs = page.map((r) => ({ hash: r.hash.toUpperCase(), blockNumber: `0x${r.block.toString(16)}`, transactionIndex: `0x${r.index.toString(16)}` }));
            return otsPage(call.method, { txs, firstPage: down ? false : edge, lastPage: down ? edge : false });
          };
          const readWindow = (w: Window, size: number) => {
            if (emptyWindow(w)) return w.end;
            const { lo, hi } = otsWindow(w, ots(w, size));
            spans = normalise([...spans, { lo, hi }]);
            return w.dir === 'desc' ? lo : hi;
          };
          const count = (s: Span) => Math.min(n.need, chain.filter((r) => r.block >= s.lo && r.block <= s.hi && inPage(r)).length);
          let done = false;
          for (let step = 0; step < 200 && !done; step++) {
            const next = coverStep(spans, n);
            if (next.kind === 'done') done = true;
            else if (next.kind === 'reach') {
              const plan = reachPlan(order, next.at, next.near, n);
              if (plan.join && joined(plan.join, readWindow(plan.join, windowWant(n.need)))) continue;
              readWindow(plan.window, windowWant(n.need));
            } else {
              const have = count(next.count);
              if (have >= n.need) done = true;
              else readWindow(next.window, windowWant(n.need, have));
            }
          }
          expect(done).toBe(true);
          const read = blocksOf(spans);
          const expected = sorted(chain.filter(inPage)).slice(0, n.need);
          expect(sorted(chain.filter((r) => read.has(r.block) && inPage(r))).slice(0, n.need)).toEqual(expected);
          for (const s of spans) expect(s.hi).toBeLessThanOrEqual(head);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('mayRunCode', () => {
  it("an ots_ page's creations and calls with input, by lower-case hash; plain transfers are not", () => {
    const tx = (hash: string, to: string | null, input?: string) => ({ hash, blockNumber: '0x1', transactionIndex: '0x0', to, ...(input === undefined ? {} : { input }) });
    const page = {
      firstPage: true,
      lastPage: true,
      txs: [tx('0xAA', null, '0x'), tx('0xbb', '0x01', '0xa9059cbb'), tx('0xcc', '0x01', '0x'), tx('0xdd', '0x01', ''), tx('0xee', '0x01'), tx('0xFF', null)],
    };
    expect([...mayRunCode(page)].sort()).toEqual(['0xaa', '0xbb', '0xff']);
    expect(mayRunCode({ firstPage: true, lastPage: true, txs: [] }).size).toBe(0);
  });
});

describe('pageRowsOf', () => {
  it("a window's rows in the page (its range, strictly beyond its cursor), in the page's order", () => {
    fc.assert(
      fc.property(
        // Few blocks, so that rows often share the cursor's block (on either side of its index) and each other's.
        fc.uniqueArray(fc.tuple(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: 3 })), { selector: ([b, i]) => `${b}:${i}` }),
        fc.constantFrom<'ASC' | 'DESC'>('ASC', 'DESC'),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 0, max: 8 }),
        fc.option(fc.tuple(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 3 }))),
        (cells, order, from, len, cursor) => {
          const rows = cells.map(([b, i]) => row(b, i));
          const n: PageNeed = { order, from, to: from + len, need: 26, ...(cursor ? { after: { block: cursor[0], index: cursor[1] } } : {}) };
          // Oracle: the (block, index) pairs as numbers, compared as the keyset does.
          const key = (b: number, i: number) => b * 10 + i;
          const beyond = (r: Row) => !n.after || (order === 'DESC' ? key(r.block, r.index) < key(n.after.block, n.after.index) : key(r.block, r.index) > key(n.after.block, n.after.index));
          const expected = rows
            .filter((r) => r.block >= n.from && r.block <= n.to && beyond(r))
            .map((r) => key(r.block, r.index))
            .sort((a, b) => (order === 'DESC' ? b - a : a - b));
          expect(pageRowsOf(n, rows).map((r) => key(r.block, r.index))).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
