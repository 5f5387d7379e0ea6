/**
 * Formatting for every page, wallet and ledger alike: the one place an amount, a time or a long hash is
 * put into words. Pure and dependency-free, so client components can use them without pulling viem or
 * zod into the browser bundle.
 */

const DIGITS = /^\d+$/;

/**
 * A raw integer amount (wei, token base units) as a decimal string with `decimals` places, digits grouped
 * in thousands, trailing zeros dropped. Never rounds up: long fractions are cut at `maxFraction` digits
 * and `exact` says so, so the caller can show the full value on hover. Amounts too small to show read
 * `<0.00000001` instead of a misleading `0`.
 */
export function formatUnits(raw: string, decimals: number, maxFraction = 8): { text: string; full: string; exact: boolean } {
  if (!DIGITS.test(raw) || !Number.isInteger(decimals) || decimals < 0 || decimals > 255) return { text: raw, full: raw, exact: true };
  const padded = raw.replace(/^0+(?=\d)/, '').padStart(decimals + 1, '0');
  const whole = padded.slice(0, padded.length - decimals) || '0';
  const fraction = decimals > 0 ? padded.slice(padded.length - decimals).replace(/0+$/, '') : '';
  const full = fraction ? `${whole}.${fraction}` : whole;
  const shown = fraction.slice(0, maxFraction).replace(/0+$/, '');
  const exact = shown.length === fraction.length;
  const grouped = groupThousands(whole);
  if (!exact && whole === '0' && shown === '') return { text: `<0.${'0'.repeat(Math.max(0, maxFraction - 1))}1`, full, exact };
  return { text: shown ? `${grouped}.${shown}` : grouped, full, exact };
}

/** A decimal string the source already formatted (`0.0011025`): grouped and cut like `formatUnits`. */
export function formatDecimal(value: string, maxFraction = 8): { text: string; full: string; exact: boolean } {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!m) return { text: value, full: value, exact: true };
  const fraction = (m[2] ?? '').replace(/0+$/, '');
  const raw = `${m[1]}${fraction}`;
  return formatUnits(raw, fraction.length, maxFraction);
}

export function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * `0x70997970C51812dc3A010C7d01b50e0d17dc79C8` -> `0x7099…79C8`: the one middle truncation of every
 * page (addresses, hashes, token ids, long arguments). Short strings pass through.
 */
export function truncateMiddle(value: string, head = 6, tail = 4): string {
  if (value.length <= head + tail + 1) return value;
  return `${value.slice(0, head)}…${value.slice(-tail)}`;
}

/** A moment: an ISO timestamp, or milliseconds since the epoch. */
export type Instant = string | number;

/** A date `formatUtc` can word: four-digit years only (a u64 of seconds may lie far beyond them). */
function toDate(t: Instant): Date | null {
  const d = new Date(t);
  const y = d.getUTCFullYear();
  return Number.isNaN(d.getTime()) || y < 0 || y > 9999 ? null : d;
}

/**
 * `2026-03-02 11:55:55 UTC`: always UTC, so two people comparing a row see the same time. What is not
 * a time (or lies beyond what a date can hold) is shown as given.
 */
export function formatUtc(t: Instant): string {
  const d = toDate(t);
  return d ? `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC` : String(t);
}

/** Seconds since the epoch, as the ledger writes expirations (a decimal string), in `formatUtc`'s words. */
export function formatUnixSeconds(seconds: string): string {
  const ms = DIGITS.test(seconds) && seconds.length <= 15 ? Number(seconds) * 1000 : NaN;
  return toDate(ms) ? formatUtc(ms) : seconds;
}

/** `2026-03-02` (UTC). */
export function utcDate(t: Instant): string {
  const d = toDate(t);
  return d ? d.toISOString().slice(0, 10) : String(t);
}

const UNITS: [limit: number, seconds: number, unit: string][] = [
  [60, 1, 's'],
  [3600, 60, 'min'],
  [86400, 3600, 'h'],
  [86400 * 30, 86400, 'd'],
  [86400 * 365, 86400 * 30, 'mo'],
  [Number.POSITIVE_INFINITY, 86400 * 365, 'y'],
];

/**
 * Age of a timestamp relative to `now` (both UTC instants): `42 s ago`, `5 min ago`, `3 h ago`,
 * `12 d ago`, `4 mo ago`, `2 y ago`. Future times (clock skew) read `just now`.
 */
export function formatAge(at: Instant, now: number): string {
  const t = new Date(at).getTime();
  if (Number.isNaN(t)) return String(at);
  const s = Math.floor((now - t) / 1000);
  if (s < 5) return 'just now';
  for (const [limit, seconds, unit] of UNITS) {
    if (s < limit) return `${Math.floor(s / seconds)} ${unit} ago`;
  }
  return String(at);
}

/** Token id as the person asked: decimal as the chain stores it, or 0x-hex. Accepts either on input. */
export function formatTokenId(id: string, format: 'decimal' | 'hex'): string {
  let n: bigint;
  try {
    n = BigInt(id);
  } catch {
    return id;
  }
  return format === 'hex' ? `0x${n.toString(16)}` : n.toString();
}

/** `0x` and 40 hex digits, any case: the one shape test for an EVM address (checksums are not required). */
export const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;

/** The zero address (viem's `zeroAddress`, spelled here so the browser bundle need not load viem): mints come from it, burns go to it. */
export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

export function sameAddress(a: string | null | undefined, b: string | null | undefined): boolean {
  return !!a && !!b && a.toLowerCase() === b.toLowerCase();
}

// Aptos-like ledger: microsecond timestamps and octas.

/** Microseconds since the epoch to `2025-10-09 08:53:20.123456 UTC` (exact, no float rounding). */
export function formatMicros(us: string): string {
  const n = BigInt(us);
  const ms = Number(n / 1000n);
  const iso = new Date(ms).toISOString(); // 2025-10-09T08:53:20.123Z
  const micros = (n % 1_000_000n).toString().padStart(6, '0');
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}.${micros} UTC`;
}

/** Octas (10^-8 APT) to a decimal APT string without float error. */
export function octasToApt(octas: bigint): string {
  const whole = octas / 100_000_000n;
  const frac = (octas % 100_000_000n).toString().padStart(8, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : String(whole);
}

export function formatFee(gasUsed?: string, unitPrice?: string): string | undefined {
  if (!gasUsed || !unitPrice) return undefined;
  return `${octasToApt(BigInt(gasUsed) * BigInt(unitPrice))} APT`;
}
