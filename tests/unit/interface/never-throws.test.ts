import fc from 'fast-check';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import * as activeChains from '@/lib/interface/active-chains';
import * as approvals from '@/lib/interface/approvals';
import * as auth from '@/lib/interface/auth';
import * as balance from '@/lib/interface/balance';
import * as common from '@/lib/interface/common';
import * as history from '@/lib/interface/history';
import * as ledger from '@/lib/interface/ledger';
import * as nfts from '@/lib/interface/nfts';
import * as tokens from '@/lib/interface/tokens';
import * as transaction from '@/lib/interface/transaction';
import * as walletStats from '@/lib/interface/wallet-stats';
import { readReference, referenceFiles } from '../../support/reference';
import { exampleFromOpenApi } from './reference';

// What a provider (or a caller) sends is parsed by these schemas; a value they cannot take must come out
// as a failed parse that names it (a 502 or a 400), never as an exception out of a transform (a 500). The
// values: real and documented answers (tests/fixtures/reference) with one node anywhere in them replaced
// by arbitrary JSON, fed to every schema the interface exports.

const modules = { activeChains, approvals, auth, balance, common, history, ledger, nfts, tokens, transaction, walletStats };
const schemas = Object.entries(modules).flatMap(([m, exports]) =>
  Object.entries(exports)
    .filter(([, v]) => v instanceof z.ZodType)
    .map(([name, s]) => [`${m}.${name}`, s as z.ZodType] as const),
);

const bodies: unknown[] = referenceFiles(/\.json$/).flatMap((f) => {
  const j = readReference<Record<string, unknown>>(f);
  if (f.startsWith('openapi-')) {
    const names = Object.keys((j as { components: { schemas: Record<string, unknown> } }).components.schemas);
    return names.flatMap((n) => {
      try {
        return [exampleFromOpenApi(j as Parameters<typeof exampleFromOpenApi>[0], n)];
      } catch {
        return [];
      }
    });
  }
  return [j, j.response, j.body, j.request].filter((x) => x !== undefined);
});

/** Every path to a node of `v`. */
function paths(v: unknown, at: (string | number)[] = []): (string | number)[][] {
  const here = [at];
  if (Array.isArray(v)) return here.concat(...v.slice(0, 3).map((x, i) => paths(x, [...at, i])));
  if (typeof v === 'object' && v !== null) return here.concat(...Object.entries(v).map(([k, x]) => paths(x, [...at, k])));
  return here;
}

function replaced(v: unknown, path: (string | number)[], by: unknown): unknown {
  if (path.length === 0) return by;
  const [head, ...rest] = path;
  if (Array.isArray(v)) return v.map((x, i) => (i === head ? replaced(x, rest, by) : x));
  return { ...(v as Record<string, unknown>), [head]: replaced((v as Record<string, unknown>)[head as string], rest, by) };
}

const hostile = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(1.5, -1, 2 ** 64, 1e308, -0, '', ' ', '0x', 'NaN', '-1', '1e21', '9'.repeat(400), [], {}, null, true),
);

const mutated = fc
  .integer({ min: 0, max: bodies.length - 1 })
  .chain((b) => {
    const ps = paths(bodies[b]);
    return fc.tuple(fc.constant(b), fc.integer({ min: 0, max: ps.length - 1 }).map((i) => ps[i]), hostile);
  })
  .map(([b, p, by]) => replaced(bodies[b], p, by));

/** Every schema parses `value` to a result; one that throws fails, naming itself. */
function everySchemaParses(value: unknown): void {
  for (const [name, schema] of schemas) {
    try {
      schema.safeParse(value);
    } catch (e) {
      throw new Error(`${name} threw ${(e as Error).name}: ${(e as Error).message}`);
    }
  }
}

describe('the interface schemas never throw', { timeout: 60_000 }, () => {
  it('has schemas and bodies to try', () => {
    expect(schemas.length).toBeGreaterThan(30);
    expect(bodies.length).toBeGreaterThan(20);
  });

  it('parses any mutation of a real answer, with any schema, to a result, never an exception', () => {
    fc.assert(
      fc.property(mutated, everySchemaParses),
      { numRuns: 400 },
    );
  });

  it('parses any query string a caller can send, with any schema, to a result, never an exception', () => {
    const names = ['chain', 'cursor', 'limit', 'order', 'from_block', 'to_block', 'from_date', 'to_date', 'token_addresses', 'exclude_spam', 'exclude_native', 'include_internal_transactions', 'nft_metadata', 'format', 'media_items', 'normalizeMetadata', 'with_transactions', 'version', 'mode', 'chains', 'address', 'token_id'];
    const word = fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('', ' ', '0x', '-1', '1.5', '1e21', 'NaN', '0x1', '99999999999999999999999', 'true', 'FALSE', '2024-13-45', '2024-01-31T25:00:00Z', ':'));
    const query = fc.dictionary(fc.constantFrom(...names), fc.oneof(word, fc.array(word, { maxLength: 3 })));
    fc.assert(
      fc.property(query, everySchemaParses),
      { numRuns: 400 },
    );
  });
});
