import { describe, expect, it } from 'vitest';
import { stableKey } from '@/lib/operations/wallet-history';

describe('stableKey (the query part of a cache key)', () => {
  it('names the set values in localeCompare order, whatever order they were given in, without the unset ones', () => {
    const a = stableKey({ order: 'DESC', chain: 'devnet', limit: 25, cursor: undefined, from_block: 3 });
    expect(a).toBe('[["chain","devnet"],["from_block",3],["limit",25],["order","DESC"]]');
    expect(stableKey({ from_block: 3, limit: 25, chain: 'devnet', order: 'DESC' })).toBe(a);
  });

  it('keeps each value with its own name when the same names come again (the sorted order is kept by names)', () => {
    expect(stableKey({ b: 1, a: 2 })).toBe('[["a",2],["b",1]]');
    expect(stableKey({ b: 3, a: 4 })).toBe('[["a",4],["b",3]]');
    expect(stableKey({ a: 5, b: 6 })).toBe('[["a",5],["b",6]]');
    // Where localeCompare and code-unit order differ ("_" against a letter or digit), localeCompare's order stands.
    expect(stableKey({ a1: 1, a_: 2, aB: 3, ab: 4 })).toBe(JSON.stringify([['a_', 2], ['a1', 1], ['ab', 4], ['aB', 3]]));
  });
});
