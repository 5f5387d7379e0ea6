import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { monthLabel, monthRange, nativeFlow, summarizeActivity, type ActivityRow } from '@/lib/view/activity';

const WALLET = '0x00000000000000000000000000000000000000aa';
const OTHER = '0x00000000000000000000000000000000000000bb';

function row(over: Partial<ActivityRow> & { block_timestamp: string }): ActivityRow {
  return { hash: '0x1', from_address: OTHER, category: 'receive', transaction_fee: null, native_transfers: [], ...over };
}

describe('summarizeActivity', () => {
  it('counts per month and category, fills quiet months with zero, and sums the balance month by month', () => {
    const rows = [
      row({ block_timestamp: '2024-01-05T00:00:00.000Z', native_transfers: [{ value: '3000000000000000000', from_address: OTHER, to_address: WALLET, direction: 'receive' }] }),
      row({
        block_timestamp: '2024-03-31T23:59:59.000Z',
        from_address: WALLET,
        category: 'send',
        transaction_fee: '0.000021',
        native_transfers: [{ value: '1000000000000000000', from_address: WALLET, to_address: OTHER, direction: 'send' }],
      }),
      row({ block_timestamp: '2024-03-01T00:00:00.000Z', category: 'token receive' }),
    ];
    const a = summarizeActivity(rows, WALLET.toUpperCase().replace('0X', '0x'), 18);
    expect(a.months.map((m) => [m.month, m.count])).toEqual([
      ['2024-01', 1],
      ['2024-02', 0],
      ['2024-03', 2],
    ]);
    expect(a.months[2].byCategory).toEqual({ send: 1, 'token receive': 1 });
    expect(a.months.map((m) => m.balance)).toEqual([3n * 10n ** 18n, 3n * 10n ** 18n, 2n * 10n ** 18n - 21_000_000_000_000n]);
    expect(a.feesMissing).toBe(0);
    expect(a.categories).toEqual(['receive', 'send', 'token receive']);
  });

  it('says how many sent transactions came without a fee, and leaves those fees out', () => {
    const a = summarizeActivity([row({ block_timestamp: '2024-01-01T00:00:00Z', from_address: WALLET, category: null, transaction_fee: null })], WALLET, 18);
    expect(a.feesMissing).toBe(1);
    expect(a.categories).toEqual(['other']);
    expect(a.months[0].balance).toBe(0n);
  });

  it('nets a transfer to itself to zero and reads direction when the parties are missing', () => {
    expect(nativeFlow(row({ block_timestamp: 'x', native_transfers: [{ value: '5', from_address: WALLET, to_address: WALLET }] }), WALLET, 18).flow).toBe(0n);
    expect(nativeFlow(row({ block_timestamp: 'x', native_transfers: [{ value: '5', direction: 'receive' }] }), WALLET, 18).flow).toBe(5n);
  });

  it('names months in words and spans years', () => {
    expect(monthLabel('2024-03')).toBe('Mar 2024');
    expect(monthRange('2023-11', '2024-02')).toEqual(['2023-11', '2023-12', '2024-01', '2024-02']);
  });
});

const arbRow = fc.record({
  t: fc.integer({ min: Date.UTC(2015, 0, 1), max: Date.UTC(2030, 0, 1) }),
  sent: fc.boolean(),
  fee: fc.option(fc.bigInt({ min: 0n, max: 10n ** 18n }), { nil: null }),
  category: fc.option(fc.constantFrom('send', 'receive', 'token swap', 'mint'), { nil: null }),
  transfers: fc.array(fc.record({ value: fc.bigInt({ min: 0n, max: 10n ** 24n }), out: fc.boolean(), self: fc.boolean() }), { maxLength: 3 }),
});

describe('summarizeActivity properties', () => {
  it('monthly counts sum to the rows; the balance series ends at the sum of the signed native flows', () => {
    fc.assert(
      fc.property(fc.array(arbRow, { maxLength: 60 }), (specs) => {
        let expected = 0n;
        const rows: ActivityRow[] = specs.map((s, i) => {
          const native_transfers = s.transfers.map((t) => {
            const from = t.self || t.out ? WALLET : OTHER;
            const to = t.self || !t.out ? WALLET : OTHER;
            if (!t.self) expected += t.out ? -t.value : t.value;
            return { value: t.value.toString(), from_address: from, to_address: to };
          });
          if (s.sent && s.fee !== null) expected -= s.fee;
          // The fee as the node source writes it: formatted in whole coins.
          const fee = s.fee === null ? null : `${s.fee / 10n ** 18n}.${(s.fee % 10n ** 18n).toString().padStart(18, '0')}`;
          return { hash: `0x${i}`, block_timestamp: new Date(s.t).toISOString(), from_address: s.sent ? WALLET : OTHER, category: s.category, transaction_fee: fee, native_transfers };
        });
        const a = summarizeActivity(rows, WALLET, 18);
        expect(a.months.reduce((n, m) => n + m.count, 0)).toBe(rows.length);
        expect(a.rows).toBe(rows.length);
        for (const m of a.months) expect(Object.values(m.byCategory).reduce((n, c) => n + c, 0)).toBe(m.count);
        expect(a.months.at(-1)?.balance ?? 0n).toBe(expected);
        // Months are consecutive and ascending.
        for (let i = 1; i < a.months.length; i++) expect(monthRange(a.months[i - 1].month, a.months[i].month)).toHaveLength(2);
      }),
    );
  });
});
