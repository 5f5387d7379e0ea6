import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GIVE_UP } from '@/lib/interface/fast-parse';
import { historyPageParsers, historyPageSchema, serializeHistoryPage } from '@/lib/interface/history';
import { exampleFromOpenApi, readReference } from './reference';

// The fast path of historyPageSchema (lib/interface/fast-parse.ts) against zod, the oracle: on any value,
// either it gives up, or it gives exactly what zod gives, key order and keys holding undefined included.
// historyPageSchema as a whole must answer like zod alone, errors included.

/** The value with every object's keys in order, and undefined kept apart from absent. */
function shape(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(shape);
  if (typeof v === 'object' && v !== null) return Object.entries(v).map(([k, x]) => [k, x === undefined ? '<undefined>' : shape(x)]);
  return v;
}

// What providers and Lantern send for each kind of field, and what they should not.
const decimal = fc.oneof(fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String), fc.nat().map((n) => ` ${n} `), fc.nat(), fc.constant(2 ** 60), fc.constant(-1), fc.constant(1.5), fc.constant('1e3'), fc.constant(''));
const text = fc.oneof(fc.string({ maxLength: 8 }), fc.constant(''), fc.constant('  '), fc.integer(), fc.double(), fc.boolean());
const nullish = <T,>(a: fc.Arbitrary<T>) => fc.oneof({ weight: 4, arbitrary: a }, fc.constant(null), fc.constant(undefined));
const bool = fc.oneof(fc.boolean(), fc.constantFrom('true', 'false', ' TRUE ', 'False', 'yes', ''), fc.integer({ min: 0, max: 1 }));
const index = fc.oneof(fc.nat(), fc.nat().map(String), fc.constant(' 7'), fc.constant(-2), fc.constant(2 ** 53), fc.constant('99999999999999999'));
const direction = fc.constantFrom('send', 'receive', 'incoming', 'outgoing', 'in', 'SEND');
const extra = fc.dictionary(fc.constantFrom('logs', 'category', 'whatever', '__proto__', 'constructor'), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 });
const parties = {
  from_address_entity: nullish(text),
  from_address_entity_logo: nullish(text),
  from_address: nullish(text),
  from_address_label: nullish(text),
  to_address_entity: nullish(text),
  to_address_entity_logo: nullish(text),
  to_address: nullish(text),
  to_address_label: nullish(text),
};
const rec = <T extends Record<string, fc.Arbitrary<unknown>>>(fields: T) =>
  fc.tuple(fc.record(fields, { requiredKeys: [] }), extra).map(([a, b]) => ({ ...b, ...a }));
const internal = rec({ transaction_hash: text, block_number: decimal, block_hash: nullish(text), type: nullish(text), value: nullish(decimal), gas_used: nullish(decimal), output: nullish(text) });
const nft = rec({ token_address: text, token_id: fc.oneof(fc.string({ maxLength: 4 }), fc.nat(), fc.constant(1.5), fc.constant(2 ** 60)), ...parties, amount: nullish(decimal), transaction_index: nullish(index), log_index: nullish(index), possible_spam: nullish(bool), verified_collection: nullish(bool), direction: nullish(direction) });
const erc20 = rec({ token_name: nullish(text), token_decimals: nullish(decimal), address: text, ...parties, value: decimal, value_formatted: nullish(text), log_index: nullish(index), possible_spam: nullish(bool), verified_contract: nullish(bool), direction: nullish(direction) });
const native = rec({ ...parties, value: decimal, direction: nullish(direction), internal_transaction: nullish(bool), token_symbol: nullish(text) });
const list = <T,>(a: fc.Arbitrary<T>) => nullish(fc.oneof({ weight: 5, arbitrary: fc.array(a, { maxLength: 3 }) }, fc.constant('x')));
const tx = rec({
  hash: text,
  nonce: nullish(decimal),
  transaction_index: nullish(decimal),
  ...parties,
  value: decimal,
  receipt_status: nullish(text),
  block_timestamp: text,
  block_number: decimal,
  internal_transactions: list(internal),
  nft_transfers: list(nft),
  erc20_transfer: list(erc20),
  erc20_transfers: list(erc20),
  native_transfers: list(native),
  possible_spam: nullish(bool),
  transaction_fee: nullish(text),
});
const page = fc.oneof(
  { weight: 10, arbitrary: rec({ page: index, page_size: index, cursor: nullish(fc.oneof(fc.string({ maxLength: 6 }), fc.integer())), result: fc.array(tx, { maxLength: 4 }) }) },
  fc.constantFrom(null, 'page', 7, [], [{}]),
);

describe('the history page fast path (lib/interface/fast-parse.ts)', { timeout: 30_000 }, () => {
  it('gives up or gives what zod gives, on any value', () => {
    fc.assert(
      fc.property(page, (v) => {
        const fast = historyPageParsers.fast(v);
        if (fast === GIVE_UP) return;
        const zod = historyPageParsers.lenient.safeParse(v);
        expect(zod.success).toBe(true);
        expect(shape(fast)).toEqual(shape(zod.data));
      }),
      { numRuns: 600 },
    );
  });

  it('leaves historyPageSchema answering as zod alone would, errors included', () => {
    fc.assert(
      fc.property(page, (v) => {
        const both = historyPageSchema.safeParse(v);
        const zod = historyPageParsers.lenient.safeParse(v);
        expect(both.success).toBe(zod.success);
        if (both.success && zod.success) expect(shape(both.data)).toEqual(shape(zod.data));
        else expect(both.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual(zod.error?.issues.map((i) => [i.path.join('.'), i.message]));
      }),
      { numRuns: 300 },
    );
  });

  it('takes the pages Lantern and the provider send without giving up', () => {
    const doc = readReference<Parameters<typeof exampleFromOpenApi>[0]>('openapi-evm-v2.2-wallet-history-and-nfts.json');
    const provider = exampleFromOpenApi(doc, 'walletHistory');
    const parsed = historyPageParsers.lenient.parse(provider);
    const lantern = JSON.parse(JSON.stringify(serializeHistoryPage(parsed)));
    for (const v of [lantern, { ...lantern, result: Array.from({ length: 100 }, () => lantern.result[0]) }]) {
      const fast = historyPageParsers.fast(v);
      expect(fast).not.toBe(GIVE_UP);
      expect(shape(fast)).toEqual(shape(historyPageParsers.lenient.parse(v)));
    }
  });
});
