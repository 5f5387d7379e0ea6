import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as common from '@/lib/interface/common';
import * as fast from '@/lib/interface/fast-parse';
import { GIVE_UP, type Fast } from '@/lib/interface/fast-parse';
import { historyPageParsers, historyPageSchema, serializeHistoryPage } from '@/lib/interface/history';
import { nftPageParsers, nftPageSchema, serializeNftPage } from '@/lib/interface/nfts';
import type { z } from 'zod';
import { exampleFromOpenApi, readReference } from './reference';

// The fast paths of historyPageSchema and nftPageSchema (lib/interface/fast-parse.ts) against zod, the
// oracle: on any value, either the fast path gives up, or it gives exactly what zod gives (key order and
// keys holding undefined included), and the schema as a whole answers like zod alone, errors included.
// Pages built from the forms providers and Lantern really send must all be taken by the fast path: a
// fast path that gave up on everything would pass the rest.

/** The value with every object's keys in order, and undefined kept apart from absent. */
function shape(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(shape);
  if (typeof v === 'object' && v !== null) return Object.entries(v).map(([k, x]) => [k, x === undefined ? '<undefined>' : shape(x)]);
  return v;
}

/** The generators; with `hostile`, each field now and then holds what it should not. */
function pages(hostile: boolean) {
  const mostly = (valid: fc.Arbitrary<unknown>, ...others: fc.Arbitrary<unknown>[]) =>
    hostile && others.length > 0 ? fc.oneof({ weight: 12, arbitrary: valid }, ...others.map((arbitrary) => ({ weight: 1, arbitrary }))) : valid;
  const nullish = (a: fc.Arbitrary<unknown>) => fc.oneof({ weight: 4, arbitrary: a }, fc.constant(null), fc.constant(undefined));
  const str = fc.string({ maxLength: 8 });
  const required = mostly(str, fc.integer(), fc.constant(null));
  const decimal = mostly(fc.oneof(fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String), fc.nat().map((n) => ` ${n} `), fc.nat()), fc.constant(2 ** 60), fc.constant(-1), fc.constant(1.5), fc.constantFrom('1e3', '', '0x1'));
  const text = mostly(fc.oneof(str, fc.integer()), fc.double(), fc.boolean(), fc.constant({}));
  const label = mostly(fc.oneof(str, fc.constantFrom('', '  ')), fc.integer(), fc.boolean());
  const bool = mostly(fc.oneof(fc.boolean(), fc.constantFrom('true', 'false', ' TRUE ', 'False')), fc.constantFrom('yes', ''), fc.integer({ min: 0, max: 1 }));
  const index = mostly(fc.oneof(fc.nat(), fc.nat().map(String), fc.constant(' 7')), fc.constant(-2), fc.constant(2 ** 53), fc.constant('99999999999999999'), fc.constant(1.5));
  const number = mostly(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.constantFrom('12', ' 3.5 ', '-7')), fc.constantFrom('1e3', 'x', '', '1.'));
  const direction = mostly(fc.constantFrom('send', 'receive', 'incoming', 'outgoing'), fc.constantFrom('in', 'SEND', ''));
  const tokenId = mostly(fc.oneof(str, fc.nat()), fc.constant(1.5), fc.constant(-3), fc.constant(2 ** 60));
  const extra = mostly(fc.dictionary(fc.constantFrom('logs', 'whatever', 'constructor'), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }), fc.constant({ ['__proto__']: 1 }));
  const list = (a: fc.Arbitrary<unknown>) => nullish(mostly(fc.array(a, { maxLength: 2 }), fc.constant('x'), a));
  /** An object of these fields (each present or not; `must` mostly present) and a few extra keys. */
  const rec = (fields: Record<string, fc.Arbitrary<unknown>>, must: string[] = []) =>
    fc
      .tuple(fc.record(fields, { requiredKeys: [] }), fc.record(Object.fromEntries(must.map((k) => [k, fields[k]]))), hostile ? fc.integer({ min: 0, max: 9 }) : fc.constant(1), extra)
      .map(([a, m, dice, b]) => ({ ...(b as object), ...a, ...(dice > 0 ? m : {}) }));
  const parties = Object.fromEntries(
    ['from', 'to'].flatMap((side) => [
      [`${side}_address_entity`, nullish(label)],
      [`${side}_address_entity_logo`, nullish(label)],
      [`${side}_address`, nullish(text)],
      [`${side}_address_label`, nullish(label)],
    ]),
  );

  const internal = rec({ transaction_hash: required, block_number: decimal, block_hash: nullish(text), type: nullish(text), value: nullish(decimal), gas_used: nullish(decimal), output: nullish(text) }, ['transaction_hash', 'block_number']);
  const nft = rec({ token_address: required, token_id: tokenId, ...parties, amount: nullish(decimal), transaction_index: nullish(index), log_index: nullish(index), possible_spam: nullish(bool), verified_collection: nullish(bool), direction: nullish(direction) }, ['token_address', 'token_id']);
  const erc20 = rec({ token_name: nullish(label), token_decimals: nullish(decimal), address: required, ...parties, value: decimal, value_formatted: nullish(text), log_index: nullish(index), possible_spam: nullish(bool), verified_contract: nullish(bool), direction: nullish(direction) }, ['address', 'value']);
  const native = rec({ ...parties, value: decimal, direction: nullish(direction), internal_transaction: nullish(bool), token_symbol: nullish(label) }, ['value']);
  const tx = rec(
    {
      hash: required,
      nonce: nullish(decimal),
      transaction_index: nullish(decimal),
      ...parties,
      from_address: required,
      value: decimal,
      receipt_status: nullish(text),
      block_timestamp: required,
      block_number: decimal,
      internal_transactions: list(internal),
      nft_transfers: list(nft),
      erc20_transfer: list(erc20),
      erc20_transfers: list(erc20),
      native_transfers: list(native),
      possible_spam: nullish(bool),
      category: nullish(text),
      transaction_fee: nullish(text),
    },
    ['hash', 'from_address', 'value', 'block_timestamp', 'block_number'],
  );
  const history = mostly(rec({ page: index, page_size: index, cursor: nullish(mostly(str, fc.integer())), result: mostly(fc.array(tx, { maxLength: 4 }), fc.constant(null)) }, ['page', 'page_size', 'result']), fc.constantFrom(null, 'page', 7, [], [{}]));

  const mediaItem = nullish(rec({ url: nullish(text), width: nullish(number), height: nullish(number) }));
  const nftItem = rec(
    {
      token_address: required,
      token_id: tokenId,
      contract_type: nullish(text),
      block_number: nullish(decimal),
      block_number_minted: nullish(decimal),
      metadata: nullish(mostly(str, fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }), fc.integer())),
      normalized_metadata: nullish(rec({ name: nullish(text), image: nullish(text), attributes: list(rec({ trait_type: nullish(text), value: fc.jsonValue({ maxDepth: 1 }), max_value: nullish(number), order: nullish(number) })) })),
      media: nullish(rec({ status: nullish(text), mimetype: nullish(text), media_collection: nullish(rec({ low: mediaItem, medium: mediaItem, high: mediaItem })) })),
      amount: nullish(decimal),
      name: nullish(label),
      symbol: nullish(label),
      rarity_rank: nullish(number),
      rarity_label: nullish(label),
      possible_spam: nullish(bool),
      verified_collection: nullish(bool),
    },
    ['token_address', 'token_id'],
  );
  const nftPage = mostly(
    rec(
      {
        status: nullish(mostly(fc.constantFrom('SYNCED', 'SYNCING'), fc.constantFrom('synced', ' SYNCING', 'BROKEN'))),
        total: nullish(index),
        page: index,
        page_size: index,
        cursor: nullish(str),
        result: nullish(mostly(fc.array(nftItem, { maxLength: 3 }), nftItem, fc.constant('x'))),
      },
      ['page', 'page_size'],
    ),
    fc.constantFrom(null, 'page', 7, [], [{}]),
  );
  return { history, nftPage };
}

const hostile = pages(true);
const valid = pages(false);

const cases = [
  { name: 'history', parsers: historyPageParsers as { lenient: z.ZodType; fast: Fast<unknown> }, schema: historyPageSchema as z.ZodType, hostile: hostile.history, valid: valid.history },
  { name: 'NFT', parsers: nftPageParsers as { lenient: z.ZodType; fast: Fast<unknown> }, schema: nftPageSchema as z.ZodType, hostile: hostile.nftPage, valid: valid.nftPage },
];

describe.each(cases)('the $name page fast path (lib/interface/fast-parse.ts)', { timeout: 30_000 }, ({ parsers, schema, hostile, valid }) => {
  it('takes every page built from the forms really sent, giving what zod gives', () => {
    fc.assert(
      fc.property(valid, (v) => {
        const zod = parsers.lenient.safeParse(v);
        expect(zod.success).toBe(true);
        const fast = parsers.fast(v);
        expect(fast).not.toBe(GIVE_UP);
        expect(shape(fast)).toEqual(shape(zod.data));
      }),
      { numRuns: 300 },
    );
  });

  it('gives up or gives what zod gives, on any value', () => {
    fc.assert(
      fc.property(hostile, (v) => {
        const fast = parsers.fast(v);
        if (fast === GIVE_UP) return;
        const zod = parsers.lenient.safeParse(v);
        expect(zod.success).toBe(true);
        expect(shape(fast)).toEqual(shape(zod.data));
      }),
      { numRuns: 600 },
    );
  });

  it('leaves the schema answering as zod alone would, errors included', () => {
    fc.assert(
      fc.property(hostile, (v) => {
        const both = schema.safeParse(v);
        const zod = parsers.lenient.safeParse(v);
        expect(both.success).toBe(zod.success);
        if (both.success && zod.success) expect(shape(both.data)).toEqual(shape(zod.data));
        else expect(both.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual(zod.error?.issues.map((i) => [i.path.join('.'), i.message]));
      }),
      { numRuns: 300 },
    );
  });
});

describe('each fast primitive against its zod schema', () => {
  const pairs: [string, Fast<unknown>, z.ZodType][] = [
    ['decimalString', fast.fastDecimal, common.decimalString],
    ['nullableDecimal', fast.fastNullableDecimal, common.nullableDecimal],
    ['tokenIdSchema', fast.fastTokenId, common.tokenIdSchema],
    ['nullableNumber', fast.fastNullableNumber, common.nullableNumber],
    ['nullableString', fast.fastNullableString, common.nullableString],
    ['nullableLabel', fast.fastNullableLabel, common.nullableLabel],
    ['boolish', fast.fastBoolish, common.boolish],
    ['pageNumber', fast.fastPageNumber, common.pageNumber],
    ['nullableIndex', fast.fastNullableIndex, common.nullableIndex],
    ['cursorSchema', fast.fastCursor, common.cursorSchema],
    ['directionSchema', fast.fastDirection, common.directionSchema],
  ];
  const value = fc.oneof(
    fc.anything({ maxDepth: 1 }),
    fc.double(),
    fc.bigInt({ min: 0n, max: 10n ** 25n }).map(String),
    fc.integer().map((n) => `${' '.repeat(n & 3)}${n}${' '.repeat((n >> 2) & 1)}`),
    fc.constantFrom('', ' ', 'true', ' FALSE ', 'True', 'send', 'incoming', 'outgoing', 'receive', '1e3', '1.', '-7', ' 3.5 ', '0x1f', '007', '99999999999999999', 2 ** 53, 2 ** 60, -0, 1.5, Number.NaN, Number.POSITIVE_INFINITY),
  );
  it.each(pairs)('%s: gives up or gives what zod gives, on any value', (_, f, schema) => {
    fc.assert(
      fc.property(value, (v) => {
        const out = f(v);
        if (out === GIVE_UP) return;
        const zod = schema.safeParse(v);
        expect(zod.success).toBe(true);
        expect(Object.is(out, zod.data) || out === zod.data).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('the fast paths take real answers', () => {
  it('a provider history page and Lantern\'s own, of 1 and 100 rows', () => {
    const doc = readReference<Parameters<typeof exampleFromOpenApi>[0]>('openapi-evm-v2.2-wallet-history-and-nfts.json');
    const lantern = JSON.parse(JSON.stringify(serializeHistoryPage(historyPageParsers.lenient.parse(exampleFromOpenApi(doc, 'walletHistory')))));
    for (const v of [lantern, { ...lantern, result: Array.from({ length: 100 }, () => lantern.result[0]) }]) {
      const fast = historyPageParsers.fast(v);
      expect(fast).not.toBe(GIVE_UP);
      expect(shape(fast)).toEqual(shape(historyPageParsers.lenient.parse(v)));
    }
  });

  it('the providers\' NFT listings as Lantern serves them', () => {
    for (const f of ['wallet-nfts-docs-ens-synced.json', 'wallet-nfts-jssdk-mock-media-success.json', 'wallet-nfts-jssdk-mock-vitalik-media-processing.json']) {
      const lantern = JSON.parse(JSON.stringify(serializeNftPage(nftPageParsers.lenient.parse(readReference(f)))));
      const fast = nftPageParsers.fast(lantern);
      expect(fast, f).not.toBe(GIVE_UP);
      expect(shape(fast)).toEqual(shape(nftPageParsers.lenient.parse(lantern)));
    }
  });
});
