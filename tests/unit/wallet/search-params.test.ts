import { describe, expect, it } from 'vitest';
import { historyApiQuery, toDateBound, type HistoryView } from '@/lib/view/search-params';

const view = (v: Partial<HistoryView>): HistoryView => ({
  chain: null,
  order: 'desc',
  from_date: null,
  to_date: null,
  from_block: null,
  to_block: null,
  internal: false,
  spam: false,
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

  it('an instant or unix seconds (a pasted link) is sent as given', () => {
    expect(toDateBound('2026-11-20T12:00:00Z')).toBe('2026-11-20T12:00:00Z');
    expect(toDateBound('1700000000')).toBe('1700000000');
  });
});
