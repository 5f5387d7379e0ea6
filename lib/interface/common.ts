import { getAddress, type Address } from 'viem';
import { z } from 'zod';
import { ADDRESS_RE } from '@/lib/format';

/**
 * Pieces shared by the EVM and sign-in schemas. Wire schemas are lenient where real providers differ
 * from the documented types (see tests/fixtures/reference/SOURCES.md) and always produce one internal shape.
 */


/**
 * An EVM address in any letter case, returned EIP-55 checksummed. Mixed case is not checked against
 * the checksum: callers paste addresses from everywhere and a wrong case is not a wrong address.
 */
export const addressSchema = z
  .string()
  .trim()
  .regex(ADDRESS_RE, 'expected an address: 0x followed by 40 hex digits')
  .transform((a): Address => getAddress(a.toLowerCase()));

/** 0x-prefixed hex of any even length (signatures, hashes). */
export const hexSchema = z.string().regex(/^0x([0-9a-fA-F]{2})*$/, 'expected 0x-prefixed hex');

/**
 * Big numbers (values, gas, block numbers) stay decimal strings; a number on the wire is accepted
 * and turned into its exact decimal string (BigInt avoids `1e+21`).
 */
export const decimalString = z.union([
  z.string().trim().regex(/^\d+$/, 'expected a decimal integer string'),
  // Not .int(): that rejects integers beyond 2^53, which providers do send (precision is already gone).
  z
    .number()
    .refine((n) => Number.isInteger(n) && n >= 0, 'expected a non-negative integer')
    .transform((n) => BigInt(n).toString()),
]);

/**
 * An NFT's token id: a string as sent, or a whole number turned into its exact decimal string. A number
 * that is not a whole one (1.5) is refused, never handed to BigInt (which throws).
 */
export const tokenIdSchema = z.union([
  z.string(),
  z
    .number()
    .refine((n) => Number.isInteger(n) && n >= 0, 'expected a non-negative integer token id')
    .transform((n) => BigInt(n).toString()),
]);

/** Decimal string, or null when the provider sent null / nothing. */
export const nullableDecimal = decimalString.nullish().transform((v) => v ?? null);

/** A number, or a numeric string (prices, percentages, sizes), -> number; null when absent. */
export const nullableNumber = z
  .union([z.number(), z.string().trim().regex(/^-?\d+(\.\d+)?$/).transform(Number)])
  .nullish()
  .transform((v) => v ?? null);

/** Any string, null when absent. Keeps provider text such as hashes and timestamps untouched. */
export const nullableString = z
  .union([z.string(), z.number().transform(String)])
  .nullish()
  .transform((v) => v ?? null);

/**
 * Labels, entities and logos: `null` when unknown. Empty strings mean unknown too, so an empty label
 * is never shown as a value.
 */
export const nullableLabel = z
  .string()
  .nullish()
  .transform((v) => (v === undefined || v === null || v.trim() === '' ? null : v));

/** `true`, `false`, `"true"`, `"false"` (any case) -> boolean; null/absent -> null (unknown). */
export const boolish = z
  .union([
    z.boolean(),
    z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.enum(['true', 'false']))
      .transform((s) => s === 'true'),
  ])
  .nullish()
  .transform((v) => v ?? null);

/** Page numbers and sizes: number or numeric string -> number. */
export const pageNumber = z.union([
  z.number().int().nonnegative(),
  z
    .string()
    .trim()
    .regex(/^\d+$/, 'expected a whole number')
    .transform((s) => Number(s)),
]);

/** Indexes that the interface types as numbers (transaction_index, log_index): number | null. */
export const nullableIndex = pageNumber.nullish().transform((v) => v ?? null);

/** The next-page cursor: null, "" and absent all mean "no next page" -> null. */
export const cursorSchema = z
  .string()
  .nullish()
  .transform((v) => (v ? v : null));

/** Chain id as number, decimal string or hex string -> number. */
export const chainIdSchema = z.union([
  z.number().int().positive(),
  z
    .string()
    .trim()
    .regex(/^(0x[0-9a-fA-F]+|\d+)$/, 'expected a chain id: a number, decimal or 0x-hex string')
    .transform((s) => Number(s))
    .pipe(z.number().int().positive().max(Number.MAX_SAFE_INTEGER)),
]);

/** Transfer direction: providers say send/receive or outgoing/incoming; Lantern says send/receive. */
export const directionSchema = z
  .enum(['send', 'receive', 'incoming', 'outgoing'])
  .nullish()
  .transform((d): 'send' | 'receive' | null => (d === 'incoming' ? 'receive' : d === 'outgoing' ? 'send' : (d ?? null)));
export type Direction = 'send' | 'receive';

/** Error bodies of the EVM and auth providers: `{message}` where message may be a list. */
export const providerErrorSchema = z.looseObject({
  message: z.union([z.string(), z.array(z.string())]).transform((m) => (Array.isArray(m) ? m.join(', ') : m)),
  details: z.unknown().optional(),
});
export type ProviderError = z.output<typeof providerErrorSchema>;

/** Serialiser helpers: booleans travel as "true"/"false" strings in the interface. */
export const boolToWire = (b: boolean | null): 'true' | 'false' | null => (b === null ? null : b ? 'true' : 'false');

/** Drops keys whose value is undefined so serialised objects stay minimal and JSON-stable. */
export function compact<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** Query parameters: a blank value (`?cursor=`) means the parameter was not given. */
export function blankToUndefined(v: unknown): unknown {
  return typeof v === 'string' && v.trim() === '' ? undefined : v;
}

/**
 * The one boolean query parameter of the published API (`with_transactions`, `include_internal_transactions`,
 * `nft_metadata`, `exclude_spam`, `normalizeMetadata`, `media_items`): `true` or `false` in any letter case;
 * blank or absent means not given (each parameter's default). Anything else, `1`/`0` and `yes` included,
 * or the key given twice, is a 400 on that key.
 */
export const queryBoolean = z.preprocess(
  blankToUndefined,
  z
    .string({ error: (issue) => (Array.isArray(issue.input) ? 'given more than once; send it once, true or false' : 'expected true or false') })
    .trim()
    .toLowerCase()
    .pipe(z.enum(['true', 'false'], { error: 'expected true or false' }))
    .transform((s) => s === 'true')
    .optional(),
);

/** Query integer within bounds, from its decimal string. */
export function queryInt(min: number, max: number) {
  return z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .regex(/^\d+$/, 'expected a whole number')
      .transform((s) => Number(s))
      .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
      .optional(),
  );
}

export const queryCursor = z.preprocess(blankToUndefined, z.string().max(2048, 'cursor is longer than 2048 characters').optional());

export const queryChain = z.preprocess(blankToUndefined, z.string().max(64, 'chain is too long').optional());

/**
 * A list of addresses in the query: `?token_addresses=0x..` (one), repeated keys, `token_addresses[0]=`
 * (a list) and comma-separated values (`0xa,0xb`) all work; blanks are dropped; at most `max`.
 */
export function queryAddresses(max: number) {
  return z.preprocess(
    (v) =>
      (v === undefined ? [] : Array.isArray(v) ? v : [v])
        .flatMap((s) => (typeof s === 'string' ? s.split(',') : [s]))
        .filter((s) => blankToUndefined(s) !== undefined),
    z.array(addressSchema).max(max, `at most ${max} token addresses`),
  );
}
