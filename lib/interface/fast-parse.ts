import { z } from 'zod';

/**
 * A fast path beside a lenient zod schema, for the large answers Lantern reads from a provider on every
 * request (a history page of 100 transactions is thousands of fields). zod runs each union and transform
 * of the lenient primitives (lib/interface/common.ts) at 1-5 us a field; the plain functions here do the
 * same work in a few tens of nanoseconds. They are conservative: anything they are not sure of (a value
 * of an unexpected type, an unsafe integer) gives up, and the zod schema parses the whole value as before,
 * so errors and their messages are zod's. tests/unit/interface/fast-parse.test.ts holds them equal to zod
 * on generated values, the output's key order included.
 */

/** Returned by a fast parser that gives the value up to zod. */
export const GIVE_UP: unique symbol = Symbol('give up');
export type Fast<T> = (v: unknown) => T | typeof GIVE_UP;

/** `schema`, tried first by `fast`: the output is `fast`'s where it is sure, else zod's (issues and all). */
export function withFastPath<S extends z.ZodType>(schema: S, fast: Fast<z.output<S>>) {
  return z.unknown().transform((v, ctx): z.output<S> => {
    const quick = fast(v);
    if (quick !== GIVE_UP) return quick;
    const r = schema.safeParse(v);
    if (r.success) return r.data;
    for (const issue of r.error.issues) ctx.addIssue(issue as Parameters<typeof ctx.addIssue>[0]);
    return z.NEVER;
  });
}

const DIGITS = /^\d+$/;
const isNonNegativeSafeInteger = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

// The twins of lib/interface/common.ts's primitives, in the same order.

/** decimalString */
export const fastDecimal: Fast<string> = (v) => {
  if (typeof v === 'string') {
    const t = v.trim();
    return DIGITS.test(t) ? t : GIVE_UP;
  }
  return isNonNegativeSafeInteger(v) ? BigInt(v).toString() : GIVE_UP;
};

/** nullableDecimal */
export const fastNullableDecimal: Fast<string | null> = (v) => (v === null || v === undefined ? null : fastDecimal(v));

/** tokenIdSchema */
export const fastTokenId: Fast<string> = (v) => (typeof v === 'string' ? v : isNonNegativeSafeInteger(v) ? BigInt(v).toString() : GIVE_UP);

/** nullableNumber */
export const fastNullableNumber: Fast<number | null> = (v) => {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return Number.isFinite(v) ? v : GIVE_UP;
  if (typeof v !== 'string') return GIVE_UP;
  const t = v.trim();
  return /^-?\d+(\.\d+)?$/.test(t) ? Number(t) : GIVE_UP;
};

/** nullableString */
export const fastNullableString: Fast<string | null> = (v) => {
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return null;
  return typeof v === 'number' && Number.isFinite(v) ? String(v) : GIVE_UP;
};

/** nullableLabel */
export const fastNullableLabel: Fast<string | null> = (v) => {
  if (v === null || v === undefined) return null;
  if (typeof v !== 'string') return GIVE_UP;
  return v.trim() === '' ? null : v;
};

/** boolish */
export const fastBoolish: Fast<boolean | null> = (v) => {
  if (typeof v === 'boolean') return v;
  if (v === null || v === undefined) return null;
  if (typeof v !== 'string') return GIVE_UP;
  const t = v.trim().toLowerCase();
  return t === 'true' ? true : t === 'false' ? false : GIVE_UP;
};

/** pageNumber */
export const fastPageNumber: Fast<number> = (v) => {
  if (isNonNegativeSafeInteger(v)) return v;
  if (typeof v !== 'string') return GIVE_UP;
  const t = v.trim();
  return DIGITS.test(t) && t.length < 16 ? Number(t) : GIVE_UP;
};

/** nullableIndex */
export const fastNullableIndex: Fast<number | null> = (v) => (v === null || v === undefined ? null : fastPageNumber(v));

/** cursorSchema */
export const fastCursor: Fast<string | null> = (v) => {
  if (v === null || v === undefined) return null;
  return typeof v === 'string' ? v || null : GIVE_UP;
};

/** directionSchema */
export const fastDirection: Fast<'send' | 'receive' | null> = (v) => {
  switch (v) {
    case null:
    case undefined:
      return null;
    case 'send':
    case 'outgoing':
      return 'send';
    case 'receive':
    case 'incoming':
      return 'receive';
    default:
      return GIVE_UP;
  }
};

/** z.unknown(): any value, as sent. */
export const fastAny: Fast<unknown> = (v) => v;

/** z.string() */
export const fastString: Fast<string> = (v) => (typeof v === 'string' ? v : GIVE_UP);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

/**
 * z.looseObject(shape), as zod 4 writes it: the shape's keys first, in the shape's order (a key whose
 * value comes out undefined only where the input has the key), then the input's other keys as sent.
 */
export function fastLooseObject<T>(shape: Record<string, Fast<unknown>>): Fast<T> {
  const keys = Object.keys(shape);
  const known = new Set(keys);
  return (v) => {
    if (!isRecord(v)) return GIVE_UP;
    const out: Record<string, unknown> = {};
    for (const k of keys) {
      const r = shape[k](v[k]);
      if (r === GIVE_UP) return GIVE_UP;
      if (r !== undefined || k in v) out[k] = r;
    }
    for (const k in v) {
      if (known.has(k) || !Object.prototype.hasOwnProperty.call(v, k)) continue;
      if (k === '__proto__') return GIVE_UP; // assigning it would set the prototype, not a key
      out[k] = v[k];
    }
    return out as T;
  };
}

/** z.array(item): a new array of the items' outputs. */
export function fastArray<T>(item: Fast<T>): Fast<T[]> {
  return (v) => {
    if (!Array.isArray(v)) return GIVE_UP;
    const out: T[] = new Array(v.length);
    for (let i = 0; i < v.length; i++) {
      const r = item(v[i]);
      if (r === GIVE_UP) return GIVE_UP;
      out[i] = r;
    }
    return out;
  };
}

/** `inner.nullish()` with absent and null turned into `empty` (`.transform((v) => v ?? empty)`). */
export function fastNullish<T, E>(inner: Fast<T>, empty: () => E): Fast<T | E> {
  return (v) => (v === null || v === undefined ? empty() : inner(v));
}

/** `inner.nullish()` without a transform: null stays null, absent stays absent. */
export function fastNullishAsSent<T>(inner: Fast<T>): Fast<T | null | undefined> {
  return (v) => (v === null || v === undefined ? v : inner(v));
}
