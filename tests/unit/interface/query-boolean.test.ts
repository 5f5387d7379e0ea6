import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { historyQuerySchema } from '@/lib/interface/history';
import { blockQuerySchema } from '@/lib/interface/ledger';
import { nftQuerySchema } from '@/lib/interface/nfts';
import { erc20BalancesQuerySchema, tokenBalancesQuerySchema } from '@/lib/interface/tokens';

/**
 * Every boolean query parameter of the published API reads the same spellings the same way: `true`/
 * `false` in any case (blank = not given, which is false for each), anything else a 400 on that key
 * with the same message.
 */
const BOOLEANS: [string, { safeParse: (v: unknown) => { success: boolean; data?: unknown; error?: { issues: { path: PropertyKey[]; message: string }[] } } }][] = [
  ['include_internal_transactions', historyQuerySchema],
  ['nft_metadata', historyQuerySchema],
  ['exclude_spam', nftQuerySchema],
  ['normalizeMetadata', nftQuerySchema],
  ['media_items', nftQuerySchema],
  ['include_prices', nftQuerySchema],
  ['with_transactions', blockQuerySchema],
  ['exclude_native', tokenBalancesQuerySchema],
  ['exclude_spam', erc20BalancesQuerySchema],
];

function outcome(name: string, schema: (typeof BOOLEANS)[number][1], value: unknown) {
  const r = schema.safeParse({ [name]: value });
  if (r.success) return { ok: (r.data as Record<string, unknown>)[name] ?? false };
  return { path: r.error!.issues[0].path, message: r.error!.issues[0].message };
}

const mixedCase = (s: string) => fc.array(fc.boolean(), { minLength: s.length, maxLength: s.length }).map((up) => [...s].map((c, i) => (up[i] ? c.toUpperCase() : c)).join(''));
const spelling = fc.oneof(
  mixedCase('true'),
  mixedCase('false'),
  fc.constantFrom('', ' ', '1', '0', 'yes', 'no', 'on', 't', 'f', 'truee', ' true ', 'null', 'undefined', '\u0000', 'tru\u00e9'),
  fc.string({ maxLength: 8 }),
);
const value = fc.oneof(spelling, fc.array(spelling, { minLength: 2, maxLength: 3 }));

test.prop([value], { numRuns: 1000 })('every boolean parameter agrees on every spelling', (v) => {
  const results = BOOLEANS.map(([name, schema]) => {
    const o = outcome(name, schema, v);
    return o.path ? { ...o, path: o.path[0] === name ? 'the key' : o.path } : o;
  });
  for (const r of results) expect(r).toEqual(results[0]);
  const s = typeof v === 'string' ? v.trim().toLowerCase() : undefined;
  if (s === 'true' || s === 'false') expect(results[0]).toEqual({ ok: s === 'true' });
  else if (s === '') expect(results[0]).toEqual({ ok: false });
  else expect(results[0]).toEqual({ path: 'the key', message: Array.isArray(v) ? 'given more than once; send it once, true or false' : 'expected true or false' });
});
