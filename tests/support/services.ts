import { randomBytes } from 'node:crypto';
import { Socket } from 'node:net';
import pg from 'pg';

/**
 * The machine's PostgreSQL and Redis (CI machines run both on loopback). Each test run gets a
 * database of its own and a Redis logical database it flushes, so runs never see each other's data.
 */
// The admin connection only creates and drops databases; `postgres` exists on every server.
export const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
// tests/integration/global-setup.ts claims a logical database for the run (claimRedisDatabase) and names it here.
export const REDIS_TEST_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/7';

const START = {
  postgres: "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start   (or set TEST_PG_URL)",
  redis: 'redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no   (or set TEST_REDIS_URL)',
} as const;

/**
 * Whether the services a test file needs are up. Under CI (CI set) a missing one is an error naming
 * the command that starts it, so the file fails instead of passing with its tests skipped; elsewhere
 * it warns and the caller skips.
 */
export async function requireServices(needs: ('postgres' | 'redis')[], what: string): Promise<boolean> {
  const urls = { postgres: PG_ADMIN_URL, redis: REDIS_TEST_URL };
  const missing: ('postgres' | 'redis')[] = [];
  for (const n of needs) if (!(await reachable(urls[n]))) missing.push(n);
  if (missing.length === 0) return true;
  const how = missing.map((n) => `${n} at ${new URL(urls[n]).host}: start it with ${START[n]}`).join('\n');
  if (process.env.CI) throw new Error(`${what} need ${missing.join(' and ')}, which did not answer:\n${how}`);
  console.warn(`${what} skipped (CI is not set), missing:\n${how}`);
  return false;
}

export function reachable(url: string, timeoutMs = 1000): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const s = new Socket();
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(timeoutMs, () => done(false));
    s.once('error', () => done(false));
    s.connect(Number(port), hostname, () => done(true));
  });
}

export async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `lantern_test_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function flushRedis(url = REDIS_TEST_URL) {
  const { default: Redis } = await import('ioredis');
  const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await r.connect();
  // Flushing drops the run's claim too: hold it again (services.ts claimRedisDatabase).
  const claim = await r.get(REDIS_CLAIM_KEY);
  await r.flushdb();
  if (claim) await r.set(REDIS_CLAIM_KEY, claim, 'EX', 7200);
  await r.quit();
}

const REDIS_CLAIM_KEY = 'lantern:test-run';

async function holdsForeignKeys(r: import('ioredis').Redis): Promise<boolean> {
  let cursor = '0';
  do {
    const [next, keys] = await r.scan(cursor, 'COUNT', 1000);
    if (keys.some((k) => !k.startsWith('lantern:'))) return true;
    cursor = next;
  } while (cursor !== '0');
  return false;
}

/**
 * A Redis logical database of this run's own (1 to 15), so two runs on one machine never flush each
 * other's data: the first database whose claim key is free and that holds no key but Lantern's is taken (SET NX, with an expiry a
 * crashed run leaves behind for at most two hours) and released by the returned function.
 */
export async function claimRedisDatabase(base = 'redis://127.0.0.1:6379'): Promise<{ url: string; release: () => Promise<void> } | null> {
  if (!(await reachable(`${base}/0`))) return null;
  const { default: Redis } = await import('ioredis');
  const run = `${process.pid}-${randomBytes(4).toString('hex')}`;
  for (let n = 1; n <= 15; n++) {
    const url = `${base}/${n}`;
    const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await r.connect();
    const ok = await r.set(REDIS_CLAIM_KEY, run, 'EX', 7200, 'NX');
    // A database holding keys that are not Lantern's (`lantern:...`, a crashed run's leftovers) is
    // someone else's (another tool on the machine): give the claim back and look further, so a run never
    // flushes what no Lantern wrote.
    const foreign = ok === 'OK' && (await holdsForeignKeys(r));
    if (foreign) await r.del(REDIS_CLAIM_KEY);
    await r.quit();
    if (ok !== 'OK' || foreign) continue;
    return {
      url,
      release: async () => {
        const c = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
        await c.connect();
        if ((await c.get(REDIS_CLAIM_KEY)) === run) await c.flushdb();
        await c.quit();
      },
    };
  }
  throw new Error('Every Redis logical database (1 to 15) is claimed by another test run or holds other data: wait for a run to end, or set TEST_REDIS_URL');
}
