import { formatUnits, parseUnits } from 'viem';

/**
 * The Activity view's numbers, from the history rows Lantern has read: transactions per month (and per
 * category) and the native balance over time. Pure, so it is unit-tested without a chain.
 */

/** What of a history row the view needs (a WalletTransaction has all of it). */
export interface ActivityRow {
  hash: string;
  block_timestamp: string;
  from_address: string;
  category?: string | null;
  transaction_fee?: string | null;
  native_transfers: { value: string; direction?: 'send' | 'receive' | null; from_address?: string | null; to_address?: string | null }[];
}

export interface MonthActivity {
  /** `YYYY-MM`, in UTC. */
  month: string;
  count: number;
  byCategory: Record<string, number>;
  /** Native coin in minus out (and minus the fees this wallet paid) in the month, in the smallest unit. */
  net: bigint;
  /** The balance reconstructed at the month's end: the sum of every earlier month's net and this one's. */
  balance: bigint;
}

export interface Activity {
  months: MonthActivity[];
  /** Every category seen, most frequent first. */
  categories: string[];
  rows: number;
  /** Rows whose fee the source did not give (the balance leaves it out for them). */
  feesMissing: number;
}

export const UNCATEGORISED = 'other';

/** `YYYY-MM` of a timestamp in UTC; null for one that is not a date. */
export function monthOf(timestamp: string): string | null {
  const d = new Date(timestamp);
  return Number.isNaN(d.getTime()) ? null : d.toISOString().slice(0, 7);
}

/** Every month from `first` to `last` inclusive (`YYYY-MM`), so quiet months show as zero. */
export function monthRange(first: string, last: string): string[] {
  const out: string[] = [];
  let [y, m] = first.split('-').map(Number);
  const [ly, lm] = last.split('-').map(Number);
  while (y < ly || (y === ly && m <= lm)) {
    out.push(`${y}-${String(m).padStart(2, '0')}`);
    m += 1;
    if (m > 12) [y, m] = [y + 1, 1];
  }
  return out;
}

const same = (a: string | null | undefined, b: string) => !!a && a.toLowerCase() === b.toLowerCase();

/**
 * The wallet's signed native flow in one transaction: transfers to it minus transfers from it, minus the
 * fee when it sent the transaction. A transfer from the wallet to itself nets to zero.
 */
export function nativeFlow(row: ActivityRow, wallet: string, decimals: number): { flow: bigint; feeKnown: boolean } {
  let flow = 0n;
  for (const t of row.native_transfers) {
    const v = BigInt(t.value);
    const fromIt = t.from_address ? same(t.from_address, wallet) : t.direction === 'send';
    const toIt = t.to_address ? same(t.to_address, wallet) : t.direction === 'receive';
    if (toIt) flow += v;
    if (fromIt) flow -= v;
  }
  if (!same(row.from_address, wallet)) return { flow, feeKnown: true };
  const fee = parseFee(row.transaction_fee, decimals);
  return fee === null ? { flow, feeKnown: false } : { flow: flow - fee, feeKnown: true };
}

function parseFee(fee: string | null | undefined, decimals: number): bigint | null {
  if (fee === null || fee === undefined || fee.trim() === '') return null;
  try {
    return parseUnits(fee.trim(), decimals);
  } catch {
    return null;
  }
}

/** Rows (any order) -> months, oldest first, with quiet months between filled in as zero. */
export function summarizeActivity(rows: readonly ActivityRow[], wallet: string, decimals: number): Activity {
  const byMonth = new Map<string, { count: number; byCategory: Record<string, number>; net: bigint }>();
  const categoryTotals = new Map<string, number>();
  let feesMissing = 0;
  let counted = 0;
  for (const row of rows) {
    const month = monthOf(row.block_timestamp);
    if (month === null) continue;
    counted += 1;
    const category = row.category?.trim() || UNCATEGORISED;
    const { flow, feeKnown } = nativeFlow(row, wallet, decimals);
    if (!feeKnown) feesMissing += 1;
    const m = byMonth.get(month) ?? { count: 0, byCategory: {}, net: 0n };
    m.count += 1;
    m.byCategory[category] = (m.byCategory[category] ?? 0) + 1;
    m.net += flow;
    byMonth.set(month, m);
    categoryTotals.set(category, (categoryTotals.get(category) ?? 0) + 1);
  }
  const keys = [...byMonth.keys()].sort();
  const months: MonthActivity[] = [];
  let balance = 0n;
  for (const month of keys.length ? monthRange(keys[0], keys[keys.length - 1]) : []) {
    const m = byMonth.get(month) ?? { count: 0, byCategory: {}, net: 0n };
    balance += m.net;
    months.push({ month, count: m.count, byCategory: m.byCategory, net: m.net, balance });
  }
  const categories = [...categoryTotals.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([c]) => c);
  return { months, categories, rows: counted, feesMissing };
}

/** A month key in words: `2024-03` -> `Mar 2024`. */
export function monthLabel(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return `${new Date(Date.UTC(y, m - 1, 1)).toLocaleString('en-US', { month: 'short', timeZone: 'UTC' })} ${y}`;
}

/** An amount in the smallest unit as a number of whole coins, for drawing (not for showing). */
export function toCoins(value: bigint, decimals: number): number {
  return Number(formatUnits(value, decimals));
}
