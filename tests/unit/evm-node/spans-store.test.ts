import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Queryable } from '@/lib/db';
import { migrations } from '@/lib/db/migrations';
import { addSpan, loadSpans, lockScope } from '@/lib/sources/evm-node/spans';

// evm_span as the writer keeps it, in an in-memory PGlite with Lantern's own migrations: what is read
// back is what PostgreSQL stored, and the rows stay few (merged) whatever order spans arrive in.
let pg: PGlite;
const writes: string[] = [];
const q: Queryable = {
  async query<T>(sql: string, params?: unknown[]) {
    if (!/^\s*SELECT/i.test(sql)) writes.push(sql.trim().split(/\s+/)[0]!);
    return (await pg.query(sql, params)) as { rows: T[] };
  },
  async exec(sql: string) {
    await pg.exec(sql);
  },
};
const rows = async (chainId: number, scope: string) =>
  (await pg.query<{ lo: string; hi: string }>('SELECT lo::text, hi::text FROM evm_span WHERE chain_id = $1 AND scope = $2 ORDER BY lo', [chainId, scope])).rows.map((r) => [Number(r.lo), Number(r.hi)]);

beforeAll(async () => {
  pg = await PGlite.create();
  for (const m of migrations) await pg.exec(m.sql);
}, 60_000);
afterAll(() => pg.close());
beforeEach(async () => {
  await pg.query('DELETE FROM evm_span');
  writes.length = 0;
});

describe('addSpan and loadSpans', () => {
  it('a span of one block is kept; an empty one (hi below lo) writes nothing', async () => {
    await addSpan(q, 1, '0xaa', { lo: 7, hi: 7 });
    expect(await rows(1, '0xaa')).toEqual([[7, 7]]);
    writes.length = 0;
    await addSpan(q, 1, '0xaa', { lo: 9, hi: 8 });
    expect(writes).toEqual([]);
    expect(await rows(1, '0xaa')).toEqual([[7, 7]]);
  });

  it('spans added out of order are stored merged, one row per disjoint span, and read back sorted', async () => {
    await addSpan(q, 1, '0xaa', { lo: 50, hi: 60 });
    await addSpan(q, 1, '0xaa', { lo: 10, hi: 20 });
    await addSpan(q, 1, '0xaa', { lo: 21, hi: 30 });
    expect(await rows(1, '0xaa')).toEqual([[10, 30], [50, 60]]);
    expect(await loadSpans(q, 1, '0xaa')).toEqual([{ lo: 10, hi: 30 }, { lo: 50, hi: 60 }]);
    await addSpan(q, 1, '0xaa', { lo: 25, hi: 55 });
    expect(await rows(1, '0xaa')).toEqual([[10, 60]]);
  });

  it('scopes and chains are apart', async () => {
    await addSpan(q, 1, '0xaa', { lo: 1, hi: 5 });
    await addSpan(q, 1, 'chain:selfdestruct', { lo: 3, hi: 9 });
    await addSpan(q, 10, '0xaa', { lo: 7, hi: 8 });
    expect(await loadSpans(q, 1, '0xaa')).toEqual([{ lo: 1, hi: 5 }]);
    expect(await loadSpans(q, 1, 'chain:selfdestruct')).toEqual([{ lo: 3, hi: 9 }]);
    expect(await loadSpans(q, 10, '0xaa')).toEqual([{ lo: 7, hi: 8 }]);
    expect(await loadSpans(q, 2, '0xaa')).toEqual([]);
  });

  it('an empty span, or one already covered, writes nothing', async () => {
    await addSpan(q, 1, '0xaa', { lo: 10, hi: 20 });
    writes.length = 0;
    await addSpan(q, 1, '0xaa', { lo: 30, hi: 29 });
    await addSpan(q, 1, '0xaa', { lo: 12, hi: 18 });
    await addSpan(q, 1, '0xaa', { lo: 10, hi: 20 });
    expect(writes).toEqual([]);
    expect(await rows(1, '0xaa')).toEqual([[10, 20]]);
    // A span that changes only the upper end is written.
    await addSpan(q, 1, '0xaa', { lo: 15, hi: 21 });
    expect(await rows(1, '0xaa')).toEqual([[10, 21]]);
    // And one that changes only the lower end.
    await addSpan(q, 1, '0xaa', { lo: 9, hi: 12 });
    expect(await rows(1, '0xaa')).toEqual([[9, 21]]);
  });

  it('a new span beside several keeps them all', async () => {
    for (const [lo, hi] of [[1, 2], [10, 12], [20, 22]]) await addSpan(q, 1, '0xbb', { lo: lo!, hi: hi! });
    await addSpan(q, 1, '0xbb', { lo: 30, hi: 31 });
    expect(await rows(1, '0xbb')).toEqual([[1, 2], [10, 12], [20, 22], [30, 31]]);
  });
});

describe('lockScope', () => {
  it('holds an advisory lock named for the chain and scope until the transaction ends', async () => {
    await pg.transaction(async (tx) => {
      await lockScope({ query: (sql, params) => tx.query(sql, params), exec: (sql) => tx.exec(sql).then(() => undefined) } as Queryable, 1, '0xaa');
      const held = await tx.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND objid = (hashtext($1)::bigint & 4294967295)::oid", ['evm_span:1:0xaa']);
      expect(held.rows[0]!.n).toBe(1);
    });
    const after = await pg.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory'");
    expect(after.rows[0]!.n).toBe(0);
  });
});
