import 'server-only';
import type { AsyncLocalStorage } from 'node:async_hooks';
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { after } from 'next/server';
import { config } from '@/lib/config';
import { LanternError, isLanternError } from '@/lib/errors';
import { log } from '@/lib/log';
import { migrations } from './migrations';
import { DROP_SPARE_DATABASES, fromTemplate, templateKey } from './template';

type PGlite = import('@electric-sql/pglite').PGlite;

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
    throw asDatabaseUnavailable(e) ?? e;
  });
  return g.__lanternDb;
}

// SQLSTATE classes and codes that say the server is not there to answer (not that the query was wrong):
// 08 connection exception; 57P01-03 shut down by an administrator, crashed, starting up; 53300 too many
// connections.
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[1-3]|53300)$/;
const UNAVAILABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);
// node-postgres's own words for a connection that went away or never came (it gives them no code).
const UNAVAILABLE_MESSAGE = /^Connection terminated|^timeout expired|^timeout exceeded when trying to connect|^Client has encountered a connection error|^Connection ended unexpectedly/i;

/**
 * The database down, restarting or starting up, as the known state it is: a 503 naming it
 * (`database_unavailable`), logged as one warn line without a stack, instead of an unexpected error.
 * Undefined for every other error (a query's own mistake stays unexpected).
 */
export function asDatabaseUnavailable(e: unknown): LanternError | undefined {
  if (isLanternError(e) && e.code === 'database_unavailable') return e;
  let cur = e as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown[] } | undefined;
  for (let i = 0; cur && i < 4; i++) {
    const code = typeof cur.code === 'string' ? cur.code : '';
    const message = typeof cur.message === 'string' ? cur.message : '';
    if (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_ERRNO.has(code) || UNAVAILABLE_MESSAGE.test(message)) {
      const why = code === '57P03' ? 'is starting up' : 'is not answering';
      return new LanternError(503, 'database_unavailable', `Lantern's database ${why}; try again in a few seconds.`, { retryAfter: 2, source: 'database' });
    }
    // An AggregateError (a host name that resolves to several addresses, each refused) holds the reasons.
    cur = (Array.isArray(cur.errors) && cur.errors.length > 0 ? cur.errors[0] : cur.cause) as typeof cur;
  }
  return undefined;
}

/** The longest a write waits for the answer it follows (an answer is sent in milliseconds; a stalled client's may never finish). */
const ANSWER_WAIT_MS = 2000;
/** The front's answer being made, and the work to run once it is sent (scripts/lib/api-front.mjs). */
const AFTER = Symbol.for('lantern.after');
interface FrontAnswer {
  sent: boolean;
  afters: (() => void)[];
}

/**
 * Per kind of write (`held` below), the starts of writes held until their answer is sent. On globalThis:
 * every route bundle of the server must see the same writes.
 */
const gh = globalThis as unknown as { __lanternHeldWrites?: Map<string, Set<() => void>> };
const heldWrites = (gh.__lanternHeldWrites ??= new Map<string, Set<() => void>>());

/**
 * For a write the answer does not need: resolves once the answer to the request being served has been
 * sent (Next's `after`; at the latest after ANSWER_WAIT_MS), outside a request after this turn, or when
 * `startHeldWrites(held)` is called by a reader of what it writes (possibly the same request, which would
 * otherwise wait for itself). PGlite runs a statement on the main thread, and a response leaves in several
 * turns (its gzip is done off the thread): a write begun after the answer was made but before it left held
 * it up (in a profile of a never-seen wallet of 500 tokens, the facts of its tokens, ~20 ms).
 */
export function answerFirst(held: string): Promise<void> {
  let waiting = heldWrites.get(held);
  if (!waiting) heldWrites.set(held, (waiting = new Set()));
  const set = waiting;
  let start!: () => void;
  const ready = new Promise<void>((resolve) => {
    start = resolve;
    // Under `npm start` an API answer may be made by the front, not Next (scripts/lib/api-front.mjs): its own `after`.
    const front = (globalThis as unknown as Record<symbol, AsyncLocalStorage<FrontAnswer> | undefined>)[AFTER]?.getStore();
    if (front) {
      if (front.sent) setImmediate(resolve);
      else front.afters.push(resolve);
      setTimeout(resolve, ANSWER_WAIT_MS).unref();
      return;
    }
    try {
      after(resolve);
    } catch {
      setImmediate(resolve); // not in a request (a test, a script, start-up)
      return;
    }
    setTimeout(resolve, ANSWER_WAIT_MS).unref();
  });
  set.add(start);
  void ready.then(() => {
    set.delete(start);
    if (set.size === 0 && heldWrites.get(held) === set) heldWrites.delete(held);
  });
  return ready;
}

/** Starts now the writes held under `held` (answerFirst): their reader is waiting. */
export function startHeldWrites(held: string): void {
  const waiting = heldWrites.get(held);
  if (waiting) for (const start of waiting) start();
}

/** `fn`, with the database being unavailable turned into its 503. */
async function guarded<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw asDatabaseUnavailable(e) ?? e;
  }
}

async function open(): Promise<Db> {
  const c = config();
  const database = c.databaseUrl ? await openPostgres(c.databaseUrl) : await openPglite(path.resolve(c.dataDir, 'pglite'));
  await migrate(database);
  if (database.kind === 'pglite') await readEveryTable(database);
  return database;
}

/**
 * Embedded PGlite answers its first query of each table slowly (the table's catalog entries read from disk,
 * and PostgreSQL's own code for it compiled as it first runs): a database copied from the template
 * (lib/db/template.ts) has run none of them. One row of each table is read while opening, before
 * `/api/health?ready` says ready, rather than inside the first page that needs them.
 */
async function readEveryTable(database: Db) {
  const { rows } = await database.query<{ t: string }>("SELECT quote_ident(tablename) AS t FROM pg_tables WHERE schemaname = 'public'");
  for (const { t } of rows) await database.query(`SELECT * FROM ${t} LIMIT 1`);
}

/**
 * PGlite's buffer pool. PostgreSQL's default, 128MB, is written through as the database opens: about 0.5 s
 * of every start here, and 128MB held for good. Pages beyond the pool are read from the operating
 * system's cache; history and NFT pages measured the same with either size (`npm run bench -- evm`,
 * 2026-11-28).
 */
const PGLITE_SHARED_BUFFERS = '32MB';

async function openPglite(dir: string): Promise<Db> {
  const { PGlite } = await import('@electric-sql/pglite');
  await seed(dir, async (into) => {
    const made = await PGlite.create(into);
    try {
      await migrate(pgliteDb(made));
      for (const sql of DROP_SPARE_DATABASES) await made.exec(sql);
    } finally {
      await made.close();
    }
  });
  mkdirSync(dir, { recursive: true });
  return pgliteDb(await PGlite.create(dir, { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`] }));
}

/**
 * A fresh data directory starts as a copy of a made database (lib/db/template.ts) rather than PGlite's own
 * creation, seconds long. Anything going wrong there is logged and PGlite creates the database as before.
 */
async function seed(dir: string, make: (into: string) => Promise<void>) {
  const started = performance.now();
  try {
    const cacheDir = path.resolve('.next', 'cache', 'lantern');
    const how = await fromTemplate(dir, { cacheDir, key: await templateKey(migrations, DROP_SPARE_DATABASES.join(';')), make });
    if (how !== 'existing') log().info({ ms: Math.round(performance.now() - started), template: how === 'made' ? 'made now' : 'reused' }, 'pglite: new database copied from the template');
  } catch (e) {
    log().warn({ err: (e as Error).message }, 'pglite: no template database; creating this one from scratch');
  }
}

function pgliteDb(pg: PGlite): Db {
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
  // A server that does not accept within 5 s (a host gone from the network) is down, not a wait of minutes.
  const pool = new Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5000 });
  // An idle connection the server closed (stopped, restarted, terminated): expected; the pool makes a new one.
  pool.on('error', (e) => log().warn({ reason: e.message.slice(0, 200), code: (e as { code?: string }).code }, 'postgres: an idle connection was closed'));
  async function transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
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
  }
  return {
    kind: 'postgres',
    query: <T,>(sql: string, params: unknown[] = []) => guarded(async () => ({ rows: (await pool.query(sql, params)).rows as T[] })),
    exec: (sql: string) => guarded(async () => void (await pool.query(sql))),
    transaction: <T,>(fn: (tx: Queryable) => Promise<T>) => guarded(() => transaction(fn)),
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
