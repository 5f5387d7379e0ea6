import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { approvalsPageSchema, approvalsQuerySchema, serializeApprovalsPage } from '@/lib/interface/approvals';
import { erc20BalancesQuerySchema, erc20BalancesSchema, serializeTokenBalancesPage, tokenBalancesPageSchema, tokenBalancesQuerySchema } from '@/lib/interface/tokens';
import { walletStatsQuerySchema, walletStatsSchema } from '@/lib/interface/wallet-stats';

// The token, approval and stats operations' shapes: what the published API writes reads back as the
// same page, and each query parameter is validated with an issue on that parameter.

const issue = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  r.success ? undefined : { path: r.error!.issues[0]!.path[0], message: r.error!.issues[0]!.message };

const A = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const B = '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512';

describe('tokens and erc20 queries', () => {
  it('take the documented parameters with their defaults', () => {
    expect(tokenBalancesQuerySchema.parse({})).toEqual({ token_addresses: [], exclude_spam: false, exclude_native: false });
    expect(
      tokenBalancesQuerySchema.parse({ chain: '0x7a69', to_block: '12', token_addresses: [A, B], exclude_spam: 'TRUE', exclude_native: 'true', cursor: 'c', limit: '7' }),
    ).toEqual({ chain: '0x7a69', to_block: 12, token_addresses: [A, B].map((a) => expect.stringMatching(new RegExp(`^${a}$`, 'i'))), exclude_spam: true, exclude_native: true, cursor: 'c', limit: 7 });
    expect(erc20BalancesQuerySchema.parse({ token_addresses: A }).token_addresses).toHaveLength(1);
    // Parameters another provider's SDK may send (exclude_unverified_contracts, max_token_inactivity) are not refused.
    expect(tokenBalancesQuerySchema.safeParse({ exclude_unverified_contracts: 'true', max_token_inactivity: '3' }).success).toBe(true);
  });

  it('refuse a bad value with an issue on that parameter', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ to_block: '-1' }, 'to_block'],
      [{ to_block: '1.5' }, 'to_block'],
      [{ to_block: 'latest' }, 'to_block'],
      [{ limit: '0' }, 'limit'],
      [{ limit: '101' }, 'limit'],
      [{ exclude_spam: 'yes' }, 'exclude_spam'],
      [{ exclude_native: '1' }, 'exclude_native'],
      [{ token_addresses: ['0x1234'] }, 'token_addresses'],
      [{ token_addresses: Array.from({ length: 101 }, () => A) }, 'token_addresses'],
      [{ cursor: 'x'.repeat(3000) }, 'cursor'],
    ];
    for (const [q, param] of cases) expect(issue(tokenBalancesQuerySchema.safeParse(q))?.path, JSON.stringify(q).slice(0, 60)).toBe(param);
    expect(issue(erc20BalancesQuerySchema.safeParse({ to_block: 'x' }))?.path).toBe('to_block');
  });
});

describe('approvals and stats queries', () => {
  it('validate chain, cursor and limit', () => {
    expect(approvalsQuerySchema.parse({ chain: 'eth', limit: '5' })).toEqual({ chain: 'eth', limit: 5 });
    expect(issue(approvalsQuerySchema.safeParse({ limit: '1000' }))?.path).toBe('limit');
    expect(walletStatsQuerySchema.parse({ chain: ' ' })).toEqual({ chain: undefined });
  });
});

const decimal = fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }).map(String);
const nullable = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null });
const address = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => `0x${Buffer.from(b).toString('hex')}`);

describe('page serialisation', () => {
  it('a tokens page reads back as itself', () => {
    const item = fc.record({
      token_address: address,
      name: nullable(fc.string()),
      symbol: nullable(fc.string()),
      logo: fc.constant(null),
      thumbnail: fc.constant(null),
      decimals: nullable(fc.integer({ min: 0, max: 255 })),
      balance: decimal,
      possible_spam: fc.boolean(),
      verified_contract: fc.boolean(),
      balance_formatted: nullable(fc.string()),
      native_token: fc.boolean(),
      total_supply: nullable(decimal),
      total_supply_formatted: nullable(fc.string()),
      percentage_relative_to_total_supply: nullable(fc.double({ min: 0, max: 100, noNaN: true })),
      usd_price: fc.constant(null),
      usd_price_24hr_percent_change: fc.constant(null),
      usd_price_24hr_usd_change: fc.constant(null),
      usd_value: fc.constant(null),
      usd_value_24hr_usd_change: fc.constant(null),
      portfolio_percentage: fc.constant(null),
    });
    const page = fc.record({
      page: fc.nat(1000),
      page_size: fc.integer({ min: 1, max: 100 }),
      cursor: nullable(fc.string({ minLength: 1 })),
      block_number: nullable(decimal),
      result: fc.array(item, { maxLength: 5 }),
    });
    fc.assert(
      fc.property(page, (p) => {
        const wire = JSON.parse(JSON.stringify(serializeTokenBalancesPage(p)));
        expect(typeof wire.page).toBe('string');
        expect(tokenBalancesPageSchema.parse(wire)).toEqual(p);
        // The legacy list reads the same items.
        expect(erc20BalancesSchema.parse(wire.result).map((t) => t.balance)).toEqual(p.result.map((t) => t.balance));
      }),
    );
  });

  it('an approvals page reads back as itself', () => {
    const party = fc.record({ address, address_label: fc.constant(null), entity: fc.constant(null), entity_logo: fc.constant(null) });
    const approval = fc.record({
      block_number: decimal,
      block_timestamp: fc.constant('2026-07-21T12:00:00.000Z'),
      transaction_hash: fc.constant(`0x${'ab'.repeat(32)}`),
      value: decimal,
      value_formatted: fc.string(),
      token: fc.record({
        address,
        address_label: fc.constant(null),
        name: nullable(fc.string()),
        symbol: nullable(fc.string()),
        logo: fc.constant(null),
        possible_spam: fc.boolean(),
        verified_contract: fc.boolean(),
        current_balance: nullable(decimal),
        current_balance_formatted: nullable(fc.string()),
        usd_price: fc.constant(null),
        usd_at_risk: fc.constant(null),
      }),
      spender: party,
    });
    const page = fc.record({ page: fc.nat(10), page_size: fc.integer({ min: 1, max: 100 }), cursor: nullable(fc.string({ minLength: 1 })), result: fc.array(approval, { maxLength: 4 }) });
    fc.assert(
      fc.property(page, (p) => {
        expect(approvalsPageSchema.parse(JSON.parse(JSON.stringify(serializeApprovalsPage(p))))).toEqual(p);
      }),
    );
  });

  it('stats are decimal strings; a number is read as its string, anything else refused', () => {
    const ok = { nfts: 2, collections: '1', transactions: { total: '25' }, nft_transfers: { total: 4 }, token_transfers: { total: '13' } };
    expect(walletStatsSchema.parse(ok)).toEqual({ nfts: '2', collections: '1', transactions: { total: '25' }, nft_transfers: { total: '4' }, token_transfers: { total: '13' } });
    for (const bad of [{ ...ok, nfts: '-1' }, { ...ok, nfts: 1.5 }, { ...ok, transactions: {} }, { ...ok, token_transfers: '13' }]) {
      expect(walletStatsSchema.safeParse(bad).success).toBe(false);
    }
  });
});
