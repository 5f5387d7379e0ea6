import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { baitText, mintedUnsolicited } from '@/lib/sources/evm-node/tokens';

// Rule 1 of the spam rule (docs/evm-node.md): a name or symbol that advertises.
describe('spam rule 1: bait text', () => {
  it.each([
    ['Visit claim-now.xyz', null],
    ['USDT', 'https://free.example'],
    ['www.free-tokens', 'FREE'],
    ['Reward', 'RWD'],
    ['Rewards pool', null],
    ['Airdrop', null],
    ['Claims', null],
    ['voucher', null],
    ['Ticket', 'go to tix.io'],
    ['x', 'http://a'],
    ['Gift', 'swap.finance'],
    [null, 'CLAIM'],
    ['Token', 'ab.io'], // a two-letter label is a domain
    ['Token', 'win9.xyz'], // digits count in a label
  ])('%s / %s baits', (name, symbol) => {
    expect(baitText(name, symbol)).toBe(true);
  });

  it.each([
    ['USD Coin', 'USDC'],
    ['Wrapped Ether', 'WETH'],
    ['Rewarded', 'RWDD'], // a whole word only
    ['Claimant', null],
    ['Dot', 'DOT'],
    ['a.b', 'A'], // a one-letter label is no domain
    ['mytoken.unknowntld', 'MT'],
    [null, null],
    ['', ''],
  ])('%s / %s does not', (name, symbol) => {
    expect(baitText(name, symbol)).toBe(false);
  });

  it('reads name and symbol together but not across them', () => {
    expect(baitText('Free', 'claim')).toBe(true);
    expect(baitText('example', 'com')).toBe(false); // "example com", not "example.com"
  });
});

// Rule 2 of the spam rule: the token's first mints all went to addresses that did not ask for them.
describe('spam rule 2: minted unsolicited', () => {
  const spammer = '0x14dc79964da2c08b23698b3d3cc7ca32193d9955';
  const alice = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
  const bob = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc';

  it('is an airdrop: every mint sent by someone other than its receiver', () => {
    const mints = [
      { tx: '0xa', to: alice },
      { tx: '0xa', to: bob },
      { tx: '0xb', to: alice },
    ];
    expect(mintedUnsolicited(mints, new Map([['0xa', spammer], ['0xb', spammer]]))).toBe(true);
  });

  it('is not when one receiver minted for itself', () => {
    const mints = [
      { tx: '0xa', to: alice },
      { tx: '0xb', to: bob },
    ];
    expect(mintedUnsolicited(mints, new Map([['0xa', spammer], ['0xb', bob]]))).toBe(false);
  });

  it('is not for a token never minted, nor for a mint naming no receiver', () => {
    expect(mintedUnsolicited([], new Map())).toBe(false);
    expect(mintedUnsolicited([{ tx: '0xa', to: null }], new Map([['0xa', spammer]]))).toBe(false);
  });

  it('counts a mint whose transaction the node no longer knows as unsolicited', () => {
    expect(mintedUnsolicited([{ tx: '0xa', to: alice }], new Map())).toBe(true);
  });

  it('is true exactly when no mint went to its own sender', () => {
    const addr = fc.constantFrom(spammer, alice, bob);
    fc.assert(
      fc.property(fc.array(fc.record({ tx: fc.constantFrom('0x1', '0x2', '0x3'), to: addr }), { minLength: 1, maxLength: 8 }), fc.array(addr, { minLength: 3, maxLength: 3 }), (mints, from) => {
        const senders = new Map([['0x1', from[0]], ['0x2', from[1]], ['0x3', from[2]]]);
        const selfMinted = mints.some((m) => senders.get(m.tx) === m.to);
        expect(mintedUnsolicited(mints, senders)).toBe(!selfMinted);
      }),
    );
  });
});
