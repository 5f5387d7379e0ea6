import 'server-only';
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { config } from '@/lib/config';
import { log } from '@/lib/log';
import { migrations } from './migrations';

/**
 * The database: embedded PGlite under DATA_DIR by default, a PostgreSQL server when DATABASE_URL is
 * set. Both speak the same SQL, so callers write plain PostgreSQL with $1 parameters.
 * Migrations run once per process before the first query, under an advisory lock so two instances
 * starting together against one server do not race.
 */

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  /** Several statements, no parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Db extends Queryable {
  /** Runs `fn` in one transaction; it commits when `fn` resolves and rolls back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

const MIGRATION_LOCK = 726_117_001; // arbitrary, constant across instances

// One database per process, kept on globalThis so dev-mode module reloads do not open PGlite twice.
const g = globalThis as unknown as { __lanternDb?: Promise<Db> };

export function db(): Promise<Db> {
  g.__lanternDb ??= open().catch((e) => {
    g.__lanternDb = undefined;
    throw e;
  });
  return g.__lanternDb;
}

async function open(): Promise<Db> {
  const c = config();
  const database = c.databaseUrl ? await openPostgres(c.databaseUrl) : await openPglite(path.resolve(c.dataDir, 'pglite'));
  await migrate(database);
  return database;
}

async function openPglite(dir: string): Promise<Db> {
  mkdirSync(dir, { recursive: true });
  const { PGlite } = await import('@electric-sql/pglite');
  const pg = await PGlite.create(dir);
  // PGlite is one connection: serialise transactions so concurrent requests cannot interleave inside one.
  let chain: Promise<unknown> = Promise.resolve();
  return {
    kind: 'pglite',
    query: async <T,>(sql: string, params: unknown[] = []) => ({ rows: (await pg.query<T>(sql, params)).rows }),
    exec: async (sql: string) => void (await pg.exec(sql)),
    transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      const run = chain.then(() =>
        pg.transaction(async (tx) =>
          fn({
            query: async <R,>(sql: string, params: unknown[] = []) => ({ rows: (await tx.query<R>(sql, params)).rows }),
            exec: async (sql: string) => void (await tx.exec(sql)),
          }),
        ),
      );
      chain = run.catch(() => undefined);
      return run;
    },
    close: () => pg.close(),
  };
}

async function openPostgres(url: string): Promise<Db> {
  const { Pool } = await import('pg');
  const pool = new Pool({ connectionString: url, max: 10 });
  pool.on('error', (e) => log().error({ err: e.message }, 'postgres pool error'));
  return {
    kind: 'postgres',
    query: async <T,>(sql: string, params: unknown[] = []) => ({ rows: (await pool.query(sql, params)).rows as T[] }),
    exec: async (sql: string) => void (await pool.query(sql)),
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const out = await fn({
          query: async <R,>(sql: string, params: unknown[] = []) => ({ rows: (await client.query(sql, params)).rows as R[] }),
          exec: async (sql: string) => void (await client.query(sql)),
        });
        await client.query('COMMIT');
        return out;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw e;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

async function migrate(database: Db): Promise<void> {
  await database.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      id integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const done = new Set((await tx.query<{ id: number }>('SELECT id FROM schema_migrations')).rows.map((r) => r.id));
    for (const m of migrations) {
      if (done.has(m.id)) continue;
      await tx.exec(m.sql);
      await tx.query('INSERT INTO schema_migrations (id, name) VALUES ($1, $2)', [m.id, m.name]);
    }
  });
}
