import { describe, expect, it } from 'vitest';
import { baitText } from '@/lib/sources/evm-node/tokens';

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
