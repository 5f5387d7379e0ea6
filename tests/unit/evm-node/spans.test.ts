import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gaps, normalise, spanAbove, spanAt, spanBelow, type Span } from '@/lib/sources/evm-node/spans';

// The block-span arithmetic behind indexing in windows. The oracle is a set of block numbers: what a
// list of spans covers is checked block by block, never by re-deriving the same interval logic.

const MAX = 120;
const spanArb = fc.tuple(fc.integer({ min: 1, max: MAX }), fc.integer({ min: -3, max: 40 })).map(([lo, len]): Span => ({ lo, hi: lo + len - 1 }));
const spansArb = fc.array(spanArb, { maxLength: 8 });

const blocksOf = (spans: readonly Span[]) => {
  const out = new Set<number>();
  for (const s of spans) for (let b = s.lo; b <= s.hi; b++) out.add(b);
  return out;
};

describe('normalise', () => {
  it('covers exactly the blocks its input covers, as sorted, disjoint, non-touching, non-empty spans', () => {
    fc.assert(
      fc.property(spansArb, (spans) => {
        const n = normalise(spans);
        expect([...blocksOf(n)].sort((a, b) => a - b)).toEqual([...blocksOf(spans)].sort((a, b) => a - b));
        for (const s of n) expect(s.hi).toBeGreaterThanOrEqual(s.lo);
        // Sorted, and a gap of at least one block between neighbours (else they would have merged).
        for (let i = 1; i < n.length; i++) expect(n[i]!.lo).toBeGreaterThan(n[i - 1]!.hi + 1);
      }),
    );
  });

  it('merges touching spans and drops empty ones', () => {
    expect(normalise([{ lo: 5, hi: 9 }, { lo: 1, hi: 4 }, { lo: 20, hi: 19 }, { lo: 11, hi: 12 }])).toEqual([
      { lo: 1, hi: 9 },
      { lo: 11, hi: 12 },
    ]);
  });

  it('does not change its input', () => {
    const input = [{ lo: 1, hi: 3 }, { lo: 2, hi: 8 }];
    normalise(input);
    expect(input).toEqual([{ lo: 1, hi: 3 }, { lo: 2, hi: 8 }]);
  });
});

describe('gaps', () => {
  it('are exactly the blocks of [lo, hi] no span covers, ascending and maximal', () => {
    fc.assert(
      fc.property(spansArb, fc.integer({ min: 1, max: MAX }), fc.integer({ min: 0, max: 80 }), (spans, lo, len) => {
        const hi = lo + len - 1;
        const n = normalise(spans);
        const g = gaps(n, lo, hi);
        const covered = blocksOf(n);
        const expected: number[] = [];
        for (let b = lo; b <= hi; b++) if (!covered.has(b)) expected.push(b);
        expect([...blocksOf(g)].sort((a, b) => a - b)).toEqual(expected);
        for (let i = 1; i < g.length; i++) expect(g[i]!.lo).toBeGreaterThan(g[i - 1]!.hi + 1);
        for (const s of g) {
          expect(s.lo).toBeGreaterThanOrEqual(lo);
          expect(s.hi).toBeLessThanOrEqual(hi);
        }
      }),
    );
  });

  it('of a range covered whole are none; of an empty range are none', () => {
    expect(gaps([{ lo: 1, hi: 100 }], 10, 20)).toEqual([]);
    expect(gaps([], 10, 9)).toEqual([]);
    expect(gaps([{ lo: 5, hi: 6 }], 1, 10)).toEqual([
      { lo: 1, hi: 4 },
      { lo: 7, hi: 10 },
    ]);
  });
});

describe('spanAt, spanBelow, spanAbove', () => {
  it('find the span holding a block, and the nearest wholly below and above it', () => {
    fc.assert(
      fc.property(spansArb, fc.integer({ min: 0, max: MAX + 50 }), (spans, b) => {
        const n = normalise(spans);
        const at = spanAt(n, b);
        expect(at !== undefined).toBe(blocksOf(n).has(b));
        if (at) expect(at.lo <= b && b <= at.hi).toBe(true);
        const below = spanBelow(n, b);
        const wantBelow = n.filter((s) => s.hi < b).at(-1);
        expect(below).toEqual(wantBelow);
        const above = spanAbove(n, b);
        expect(above).toEqual(n.find((s) => s.lo > b));
      }),
    );
  });
});

describe('span edges', () => {
  // A span's ends are blocks it holds; a random property rarely lands on them.
  const s = [{ lo: 5, hi: 9 }, { lo: 20, hi: 20 }];
  it('spanAt holds both ends; spanBelow / spanAbove exclude a span that holds the block', () => {
    expect([spanAt(s, 5), spanAt(s, 9), spanAt(s, 20), spanAt(s, 4), spanAt(s, 10)]).toEqual([s[0], s[0], s[1], undefined, undefined]);
    expect([spanBelow(s, 9), spanBelow(s, 10), spanBelow(s, 20), spanBelow(s, 21)]).toEqual([undefined, s[0], s[0], s[1]]);
    expect([spanAbove(s, 5), spanAbove(s, 4), spanAbove(s, 19), spanAbove(s, 20)]).toEqual([s[1], s[0], s[1], undefined]);
  });

  it('gaps at the edges of spans and of the range', () => {
    expect(gaps(s, 5, 9)).toEqual([]);
    expect(gaps(s, 4, 10)).toEqual([{ lo: 4, hi: 4 }, { lo: 10, hi: 10 }]);
    expect(gaps(s, 9, 20)).toEqual([{ lo: 10, hi: 19 }]);
    expect(gaps(s, 10, 19)).toEqual([{ lo: 10, hi: 19 }]);
    expect(gaps(s, 1, 30)).toEqual([{ lo: 1, hi: 4 }, { lo: 10, hi: 19 }, { lo: 21, hi: 30 }]);
    expect(gaps(s, 20, 20)).toEqual([]);
    expect(gaps(s, 21, 21)).toEqual([{ lo: 21, hi: 21 }]);
  });
});
