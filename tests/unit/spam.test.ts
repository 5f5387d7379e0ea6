import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSpamTransaction } from '@/lib/spam';

// The transaction-level spam rule (docs/evm-node.md), one meaning for the node source and the page.
describe('a transaction is possible spam', () => {
  const spam = { kind: 'erc20', spam: true };
  const spamNft = { kind: 'nft', spam: true };
  const honest = { kind: 'erc20', spam: false };
  const coin = { kind: 'native', spam: false };

  it('when someone else sent it and every token it moved is spam', () => {
    expect(isSpamTransaction(false, [spam])).toBe(true);
    expect(isSpamTransaction(false, [spam, spamNft, spam])).toBe(true);
  });

  it('never when the wallet sent it', () => {
    expect(isSpamTransaction(true, [spam])).toBe(false);
  });

  it('not when it moved an honest token, the chain coin, or nothing', () => {
    expect(isSpamTransaction(false, [spam, honest])).toBe(false);
    expect(isSpamTransaction(false, [spam, coin])).toBe(false);
    expect(isSpamTransaction(false, [])).toBe(false);
    expect(isSpamTransaction(false, [coin])).toBe(false);
  });

  it('is exactly: not sent by the wallet, some moves, all of them spam tokens', () => {
    const move = fc.record({ kind: fc.constantFrom('native', 'erc20', 'nft', 'erc721', 'erc1155'), spam: fc.boolean() });
    fc.assert(
      fc.property(fc.boolean(), fc.array(move, { maxLength: 6 }), (sent, moves) => {
        const expected = !sent && moves.length > 0 && moves.every((m) => m.kind !== 'native' && m.spam);
        expect(isSpamTransaction(sent, moves)).toBe(expected);
      }),
    );
  });
});
