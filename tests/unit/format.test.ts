import { describe, expect, it } from 'vitest';
import { formatAge, formatDecimal, formatTokenId, formatUnits, formatUnixSeconds, formatUtc, truncateMiddle, utcDate } from '@/lib/format';

describe('formatUnits', () => {
  it('places the decimal point by the token decimals', () => {
    expect(formatUnits('50000000000000000', 18).text).toBe('0.05');
    expect(formatUnits('131465500000', 6).text).toBe('131,465.5');
    expect(formatUnits('1000000', 6).text).toBe('1');
    expect(formatUnits('0', 18).text).toBe('0');
    expect(formatUnits('123', 0).text).toBe('123');
  });
  it('cuts long fractions without rounding up and says so', () => {
    const r = formatUnits('1234567890123456789', 18);
    expect(r.text).toBe('1.23456789');
    expect(r.full).toBe('1.234567890123456789');
    expect(r.exact).toBe(false);
  });
  it('never shows a dust amount as zero', () => {
    expect(formatUnits('1', 18).text).toBe('<0.00000001');
    expect(formatUnits('1', 18).full).toBe('0.000000000000000001');
  });
  it('passes through what is not a raw integer', () => {
    expect(formatUnits('abc', 18).text).toBe('abc');
  });
});

describe('formatDecimal', () => {
  it('groups and trims a decimal the source formatted', () => {
    expect(formatDecimal('0.0011025').text).toBe('0.0011025');
    expect(formatDecimal('12345.500').text).toBe('12,345.5');
  });
});

describe('truncateMiddle', () => {
  it('keeps the head and tail of a hash', () => {
    expect(truncateMiddle('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')).toBe('0x7099…79C8');
    expect(truncateMiddle('0x1234')).toBe('0x1234');
  });
});

describe('time', () => {
  const now = Date.parse('2026-07-20T12:00:00Z');
  it('formats absolute times in UTC', () => {
    expect(formatUtc('2026-03-02T11:55:55.000Z')).toBe('2026-03-02 11:55:55 UTC');
  });
  it('formats ages relative to now', () => {
    expect(formatAge('2026-07-20T11:59:30Z', now)).toBe('30 s ago');
    expect(formatAge('2026-07-20T11:00:00Z', now)).toBe('1 h ago');
    expect(formatAge('2026-07-10T12:00:00Z', now)).toBe('10 d ago');
    expect(formatAge('2026-01-01T00:00:00Z', now)).toBe('6 mo ago');
    expect(formatAge('2024-07-01T00:00:00Z', now)).toBe('2 y ago');
    expect(formatAge('2026-07-20T12:05:00Z', now)).toBe('just now');
  });
});

describe('formatTokenId', () => {
  it('shows ids in decimal or hex, from either', () => {
    expect(formatTokenId('255', 'hex')).toBe('0xff');
    expect(formatTokenId('0xff', 'decimal')).toBe('255');
    expect(formatTokenId('66388772599617078469438904114703984066464599303204452128467118810569801465862', 'hex')).toMatch(/^0x92c6b6b4a1817e76/);
    expect(formatTokenId('not-a-number', 'hex')).toBe('not-a-number');
  });
});

describe('one wording for every time', () => {
  it('takes an ISO string or epoch milliseconds alike', () => {
    expect(formatUtc(Date.parse('2026-03-02T11:55:55Z'))).toBe('2026-03-02 11:55:55 UTC');
    expect(utcDate(Date.parse('2026-03-02T23:59:59Z'))).toBe('2026-03-02');
    expect(formatAge(Date.parse('2026-07-20T11:55:00Z'), Date.parse('2026-07-20T12:00:00Z'))).toBe('5 min ago');
  });
  it('words the ledger’s expiration seconds in UTC, and shows what no date can hold as given', () => {
    expect(formatUnixSeconds('1772452555')).toBe('2026-03-02 11:55:55 UTC');
    expect(formatUnixSeconds('18446744073709551615')).toBe('18446744073709551615');
    expect(formatUnixSeconds('999999999999')).toBe('999999999999');
    expect(formatUtc('not a time')).toBe('not a time');
  });
});

describe('truncateMiddle is the one middle truncation', () => {
  it('keeps a given head and tail, and passes through what it would not shorten', () => {
    expect(truncateMiddle('0x1111111111111111111111111111111111111111111111111111111111111111', 12, 8)).toBe('0x1111111111…11111111');
    expect(truncateMiddle('12345678901234567890', 12, 8)).toBe('12345678901234567890');
    expect(truncateMiddle('123456789012', 6, 4)).toBe('123456…9012');
  });
});
