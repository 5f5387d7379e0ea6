import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { serializeHistoryParams } from '@/lib/server/view-params';
import { historyApiQuery, historyViewHref, toDateBound, type HistoryUrlView, type HistoryView } from '@/lib/view/search-params';

const view = (v: Partial<HistoryView>): HistoryView => ({
  chain: null,
  order: 'desc',
  from_date: null,
  to_date: null,
  from_block: null,
  to_block: null,
  internal: false,
  spam: false,
  token: [],
  cursor: [],
  ...v,
});

describe('the toolbar’s date range as the API reads it', () => {
  it('a to-date is its whole UTC day: the day’s last instant is sent', () => {
    expect(toDateBound('2026-11-20')).toBe('2026-11-20T23:59:59.999Z');
    expect(historyApiQuery(view({ from_date: '2026-11-01', to_date: '2026-11-20' }))).toEqual({
      order: 'DESC',
      limit: '25',
      from_date: '2026-11-01',
      to_date: '2026-11-20T23:59:59.999Z',
    });
  });

  it('a token filter is sent as the API\'s token_addresses list', () => {
    const a = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
    expect(historyApiQuery(view({ token: [a] }))).toEqual({ order: 'DESC', limit: '25', token_addresses: [a] });
    expect(historyViewHref('/wallet/x', { ...view({ token: [a] }), time: 'age' })).toBe(`/wallet/x?token=${a}`);
  });

  it('an instant or unix seconds (a pasted link) is sent as given', () => {
    expect(toDateBound('2026-11-20T12:00:00Z')).toBe('2026-11-20T12:00:00Z');
    expect(toDateBound('1700000000')).toBe('1700000000');
  });
});

// The first view's links are written without nuqs (historyViewHref); they must be nuqs' own URLs.
describe('historyViewHref writes what nuqs writes', () => {
  const text = fc.string({ unit: fc.constantFrom('a', 'Z', '0', '-', '_', '+', '/', '=', '%', ' ', '#', '&', '"', "'", '`', '<', '>', '?', 'é', '\u0001'), maxLength: 12 });
  const view = fc.record({
    chain: fc.option(text, { nil: null }),
    order: fc.constantFrom('desc' as const, 'asc' as const),
    from_date: fc.option(text, { nil: null }),
    to_date: fc.option(text, { nil: null }),
    from_block: fc.option(fc.integer({ min: 0, max: 2 ** 40 }), { nil: null }),
    to_block: fc.option(fc.integer({ min: 0, max: 2 ** 40 }), { nil: null }),
    internal: fc.boolean(),
    spam: fc.boolean(),
    token: fc.array(text, { maxLength: 3 }),
    cursor: fc.array(text, { maxLength: 3 }),
    time: fc.constantFrom('age' as const, 'utc' as const),
  });

  it('for any view, on the page and on the CSV download', () => {
    fc.assert(
      fc.property(view, (v) => {
        for (const path of ['/wallet/0x70997970C51812dc3A010C7d01b50e0d17dc79C8', '/wallet/0x70997970C51812dc3A010C7d01b50e0d17dc79C8/history.csv']) {
          expect(historyViewHref(path, v)).toBe(serializeHistoryParams(path, v));
        }
      }),
    );
  });

  it('leaves defaults out', () => {
    const none: HistoryUrlView = { chain: null, order: 'desc', from_date: null, to_date: null, from_block: null, to_block: null, internal: false, spam: false, token: [], cursor: [], time: 'age' };
    expect(historyViewHref('/wallet/x', none)).toBe('/wallet/x');
    expect(historyViewHref('/wallet/x', { ...none, order: 'asc', cursor: ['a b', 'c+d'], time: 'utc' })).toBe('/wallet/x?order=asc&cursor=a+b&cursor=c%2Bd&time=utc');
  });
});
