import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import type { z } from 'zod';
import { parseParam, parseQuery, queryObject } from '@/lib/api/handler';
import { addressSchema } from '@/lib/interface/common';
import { historyQuerySchema } from '@/lib/interface/history';
import { blockQuerySchema, ledgerVersionSchema } from '@/lib/interface/ledger';
import { nftQuerySchema } from '@/lib/interface/nfts';
import { zodToBadParameter } from '@/lib/interface/zod-errors';

// parseQuery and parseParam keep what a raw text parsed to (lib/api/handler.ts memoParse): the same
// answer as parsing afresh, on the first sight and every later one, whatever a caller did to an earlier one.

const schemas = { history: historyQuerySchema, nft: nftQuerySchema, block: blockQuerySchema };
const ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

const value = fc.oneof(
  fc.constantFrom('', ' ', 'true', 'FALSE', 'yes', '0', '1', '25', '101', '-1', 'asc', 'DESC', 'hex', 'devnet', 'eth', '2024-01-31', '1700000000.5', 'nope', ADDRESS, ADDRESS.toLowerCase(), `${ADDRESS},${ADDRESS}`),
  fc.string({ maxLength: 6 }),
);
const key = fc.constantFrom(
  'chain', 'from_block', 'to_block', 'from_date', 'to_date', 'include_internal_transactions', 'nft_metadata', 'cursor', 'order', 'limit',
  'token_addresses', 'token_addresses[0]', 'token_addresses[]', 'format', 'exclude_spam', 'normalizeMetadata', 'media_items', 'include_prices',
  'with_transactions', 'other',
);
const search = fc.array(fc.tuple(key, value), { maxLength: 6 }).map((pairs) => (pairs.length ? `?${new URLSearchParams(pairs).toString()}` : ''));

function outcome(run: () => unknown): { ok: unknown } | { error: unknown } {
  try {
    return { ok: run() };
  } catch (e) {
    return { error: JSON.parse(JSON.stringify(e)) };
  }
}

function fresh(schema: z.ZodType, url: string) {
  return outcome(() => {
    const r = schema.safeParse(queryObject(url));
    if (!r.success) throw zodToBadParameter(r.error);
    return r.data;
  });
}

/** Changes everything it can reach in a parsed value: strings and numbers replaced, arrays grown, dates moved. */
function vandalise(v: unknown): void {
  if (v instanceof Date) v.setTime(0);
  else if (Array.isArray(v)) {
    v.forEach(vandalise);
    v.push('vandal');
  } else if (v && typeof v === 'object') {
    for (const k of Object.keys(v)) {
      vandalise((v as Record<string, unknown>)[k]);
      (v as Record<string, unknown>)[k] = 'vandal';
    }
    (v as Record<string, unknown>).added = 'vandal';
  }
}

test.prop([fc.constantFrom(...(Object.keys(schemas) as (keyof typeof schemas)[])), search])(
  'parseQuery answers as a fresh parse, first and again, whatever the caller did to its last answer',
  (name, q) => {
    const schema = schemas[name];
    const url = `http://lantern.test/api/x${q}`;
    const expected = fresh(schema, url);
    for (let i = 0; i < 3; i++) {
      const got = outcome(() => parseQuery(new Request(url), schema));
      expect(got).toEqual(expected);
      if ('ok' in got) vandalise(got.ok);
    }
  },
);

test.prop([fc.oneof(fc.constantFrom(ADDRESS, ADDRESS.toLowerCase(), ` ${ADDRESS} `, '0x', '007', '18446744073709551616', '18446744073709551615'), fc.string({ maxLength: 44 }))])(
  'parseParam answers as a fresh parse, first and again',
  (raw) => {
    for (const schema of [addressSchema, ledgerVersionSchema]) {
      const expected = schema.safeParse(raw);
      for (let i = 0; i < 2; i++) {
        const got = outcome(() => parseParam('p', raw, schema));
        if (expected.success) expect(got).toEqual({ ok: expected.data });
        else expect(got).toHaveProperty('error');
      }
    }
  },
);
