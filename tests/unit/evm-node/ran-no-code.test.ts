import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ranNoCode } from '@/lib/sources/evm-node/tx-facts';

// Which transactions may skip the trace: only a call with no input that used exactly 21,000 gas.
describe('ranNoCode', () => {
  it('a plain ETH payment ran no code', () => {
    expect(ranNoCode({ to: '0x00000000000000000000000000000000000000aa', input: '0x' }, { gasUsed: '0x5208' })).toBe(true);
    // A node that answers no input as an empty string.
    expect(ranNoCode({ to: '0x00000000000000000000000000000000000000aa', input: '' }, { gasUsed: '0x5208' })).toBe(true);
  });

  it('anything else is traced: a creation, any input, any gas past the intrinsic 21,000', () => {
    const address = fc.constantFrom<string | null>(null, '0x00000000000000000000000000000000000000aa');
    const input = fc.oneof(fc.constant('0x'), fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 2, maxLength: 72 }).map((h) => `0x${h.length % 2 ? `${h}0` : h}`));
    const gas = fc.bigInt({ min: 21_000n, max: 30_000_000n });
    fc.assert(
      fc.property(address, input, gas, (to, data, used) => {
        const skip = ranNoCode({ to, input: data }, { gasUsed: `0x${used.toString(16)}` });
        expect(skip).toBe(to !== null && data === '0x' && used === 21_000n);
      }),
      // The edges a random draw rarely lands on: a creation, or an input, at exactly 21,000 gas.
      { examples: [[null, '0x', 21_000n], ['0x00000000000000000000000000000000000000aa', '0x00', 21_000n]] },
    );
  });
});
