import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nftResyncQuerySchema, tokenIdSchema } from '../../../lib/interface/nft-resync';

describe('resync parameters', () => {
  it('token_id: decimal uint256 only, any other string is a clear issue (never a throw)', () => {
    expect(tokenIdSchema.parse('0')).toBe('0');
    expect(tokenIdSchema.parse((2n ** 256n - 1n).toString())).toBe((2n ** 256n - 1n).toString());
    expect(tokenIdSchema.safeParse((2n ** 256n).toString()).error?.issues[0].message).toBe('the token id is larger than uint256');
    for (const bad of ['abc', '', '0x10', '-1', '1.5', ' 1', '1e3']) {
      expect(tokenIdSchema.safeParse(bad).error?.issues[0].message, bad).toBe('expected a decimal token id');
    }
    fc.assert(fc.property(fc.string(), (s) => void tokenIdSchema.safeParse(s)));
  });

  it('flag and mode default to the hosted API defaults (uri, async) and refuse anything else', () => {
    expect(nftResyncQuerySchema.parse({})).toEqual({ flag: 'uri', mode: 'async' });
    expect(nftResyncQuerySchema.parse({ flag: 'metadata', mode: 'sync', chain: '0x7a69' })).toEqual({ flag: 'metadata', mode: 'sync', chain: '0x7a69' });
    expect(nftResyncQuerySchema.safeParse({ flag: 'all' }).error?.issues[0].path).toEqual(['flag']);
    expect(nftResyncQuerySchema.safeParse({ mode: 'now' }).error?.issues[0].path).toEqual(['mode']);
  });
});
