import { describe, expect, it } from 'vitest';
import { rawText, shownArgs } from '../../../lib/view/tx-receipt';
import type { ReadableName } from '../../../lib/view/tx-readable';
import { statusWord } from '../../../lib/view/tx-status';

// The transaction page's receipt view (lib/view/tx-receipt.ts): which arguments read as addresses and as
// token amounts, and the raw form kept one click away.

const USDC = { symbol: 'USDC', name: 'USD Coin', decimals: 6 };
const arg = (name: string, type: string, value: string) => ({ name, type, value });

describe('shownArgs', () => {
  it("an ERC-20's amount in its units with its symbol; addresses and other numbers as decoded", () => {
    const shown = shownArgs([arg('to', 'address', '0xAbC'), arg('value', 'uint256', '1500000'), arg('deadline', 'uint256', '1500000')], USDC)!;
    expect(shown.map((a) => [a.kind, a.amount])).toEqual([
      ['address', null],
      ['amount', '1.5 USDC'],
      ['plain', null],
    ]);
    expect(shown[1].raw).toBe('1500000');
  });

  it('amount names: amountIn, wad; never ids, and nothing without known decimals', () => {
    const args = [arg('amountIn', 'uint256', '2000000'), arg('wad', 'uint256', '1'), arg('tokenId', 'uint256', '7')];
    expect(shownArgs(args, USDC)!.map((a) => a.kind)).toEqual(['amount', 'amount', 'plain']);
    expect(shownArgs(args, { ...USDC, decimals: null })!.map((a) => a.kind)).toEqual(['plain', 'plain', 'plain']);
    expect(shownArgs(args, null)!.map((a) => a.kind)).toEqual(['plain', 'plain', 'plain']);
    expect(shownArgs(null, USDC)).toBeNull();
  });

  it('tuple components are shown the same way', () => {
    const [t] = shownArgs([{ ...arg('order', 'tuple', '(0xabc,5)'), components: [arg('maker', 'address', '0xabc'), arg('amount', 'uint256', '5000000')] }], USDC)!;
    expect(t.components!.map((c) => [c.kind, c.amount])).toEqual([
      ['address', null],
      ['amount', '5 USDC'],
    ]);
  });
});

describe('rawText and statusWord', () => {
  const base = { selector: null, signature: null, candidates: [], trust: null, source: null };
  it('named: the values as decoded; ambiguous: every candidate; unknown: the selector', () => {
    const named: ReadableName = { ...base, state: 'named', text: 'transfer', name: 'transfer', args: [arg('to', 'address', '0xabc'), arg('value', 'uint256', '5')] };
    expect(rawText(named)).toBe('transfer(to: 0xabc, value: 5)');
    const amb: ReadableName = {
      ...base,
      state: 'ambiguous',
      text: 'one of 2: a, b',
      name: null,
      args: null,
      candidates: [
        { name: 'a', signature: 'a(uint256)', args: [arg('x', 'uint256', '1')] },
        { name: 'b', signature: 'b(int256)', args: [arg('y', 'int256', '1')] },
      ],
    };
    expect(rawText(amb)).toBe('a(x: 1) | b(y: 1)');
    expect(rawText({ ...base, state: 'unknown', text: '0xdeadbeef', name: null, args: null })).toBe('0xdeadbeef');
  });

  it('one status wording for the row and the page', () => {
    expect([statusWord(false), statusWord(true)]).toEqual(['Succeeded', 'Failed (reverted)']);
  });
});
