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
