import { createServer, Socket, type Server } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadManifest } from '../../devnet/evm/index.mjs';
import { freePort } from '../support/ports';
import { startLantern, type LanternInstance } from '../support/lantern';
import { freshDatabase, requireServices } from '../support/services';

/**
 * PostgreSQL down, or starting up, is a known state: Lantern answers a coded 503 (`database_unavailable`)
 * naming it, logs one warn line per request without a stack, and never a 500 `internal_error`. The
 * machine's real PostgreSQL sits behind a TCP relay on loopback that the test can cut (every connection
 * reset, new ones refused) or turn into a server that is starting up (each new connection is told
 * SQLSTATE 57P03, as PostgreSQL does while it recovers), then restore.
 */
const available = await requireServices(['postgres'], 'database-down tests');
const m = loadManifest();
const wallets = Object.values(m.accounts).map((a) => (a as { checksumAddress: string }).checksumAddress);

type Mode = 'up' | 'down' | 'starting';

/** A TCP relay to PostgreSQL whose mode the test sets. */
async function startRelay(target: { host: string; port: number }) {
  const port = await freePort();
  const sockets = new Set<Socket>();
  let mode: Mode = 'up';
  let server: Server;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((client) => {
        sockets.add(client);
        client.on('close', () => sockets.delete(client));
        client.on('error', () => undefined);
        if (mode === 'starting') {
          // Reads the client's StartupMessage, then answers as a recovering server: FATAL 57P03.
          client.once('data', () => client.end(startingUp()));
          return;
        }
        const upstream = new Socket();
        sockets.add(upstream);
        upstream.on('close', () => sockets.delete(upstream));
        upstream.on('error', () => client.destroy());
        client.on('error', () => upstream.destroy());
        upstream.connect(target.port, target.host, () => {
          client.pipe(upstream);
          upstream.pipe(client);
        });
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
  await listen();
  const closeListener = () => new Promise<void>((r) => server.close(() => r()));
  return {
    port,
    async set(next: Mode) {
      const wasListening = mode !== 'down';
      mode = next;
      // Every open connection goes, as when the server stops or restarts.
      for (const s of sockets) s.destroy();
      if (next === 'down' && wasListening) await closeListener();
      if (next !== 'down' && !wasListening) await listen();
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      if (mode !== 'down') await closeListener();
    },
  };
}

/** PostgreSQL's ErrorResponse for a connection made while it is starting up (protocol 3: 'E', length, fields). */
function startingUp(): Buffer {
  const fields = Buffer.concat(
    [
      ['S', 'FATAL'],
      ['V', 'FATAL'],
      ['C', '57P03'],
      ['M', 'the database system is starting up'],
    ].map(([k, v]) => Buffer.from(`${k}${v}\0`, 'utf8')),
  );
  const body = Buffer.concat([fields, Buffer.from([0])]);
  const head = Buffer.alloc(5);
  head.write('E', 0);
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

// One story in steps: the log check reads what the outage left in the log.
describe.skipIf(!available)('PostgreSQL down or starting up', { shuffle: false }, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let relay: Awaited<ReturnType<typeof startRelay>>;
  let lantern: LanternInstance;

  beforeAll(async () => {
    database = await freshDatabase();
    const u = new URL(database.url);
    relay = await startRelay({ host: u.hostname, port: Number(u.port || 5432) });
    u.hostname = '127.0.0.1';
    u.port = String(relay.port);
    lantern = await startLantern({ DATABASE_URL: u.toString(), DEVNET_EVM_PORT: String(inject('evmPort')), DEVNET_LEDGER_PORT: String(inject('ledgerPort')), UPSTREAM_CACHE: 'off' });
  }, 180_000);
  afterAll(async () => {
    await lantern?.stop();
    await relay?.close();
    await database?.drop();
  });

  const history = (w: string) => fetch(`${lantern.url}/api/v2.2/wallets/${w}/history?chain=devnet&limit=5`);
  const read = async (res: Response) => ({ status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as { code?: string; message?: string; result?: unknown[] } });

  it('answers history 503 database_unavailable, never 500, while it is down or starting, and serves again once it is back', async () => {
    // Working: a wallet's history is read and kept.
    const before = await read(await history(wallets[0]));
    expect(before.status).toBe(200);

    for (const mode of ['down', 'starting'] as const) {
      await relay.set(mode);
      const answers = await Promise.all(wallets.slice(1, 5).map(async (w) => read(await history(w))));
      for (const a of answers) {
        expect(a.status, JSON.stringify(a)).toBe(503);
        expect(a.body.code).toBe('database_unavailable');
        expect(a.body.message).toBe(mode === 'starting' ? "Lantern's database is starting up; try again in a few seconds." : "Lantern's database is not answering; try again in a few seconds.");
        expect(Number(a.retryAfter)).toBeGreaterThanOrEqual(1);
      }
      // Health names it too (the instance is not useful without its database), yet answers 200: it is the
      // liveness check, and a restart would not bring the database back. Readiness says not ready, and why.
      const res = await fetch(`${lantern.url}/api/health`);
      const h = (await res.json()) as { ok: boolean; database: { ok: boolean } };
      expect([res.status, h.ok, h.database.ok]).toEqual([200, false, false]);
      const ready = await fetch(`${lantern.url}/api/health?ready`);
      expect([ready.status, await ready.json()]).toEqual([503, { ready: false, reason: 'database_unavailable', database: { ok: false, error: expect.any(String) } }]);
    }

    await relay.set('up');
    let back: Awaited<ReturnType<typeof read>> | undefined;
    for (let i = 0; i < 50 && back?.status !== 200; i++) {
      back = await read(await history(wallets[1]));
      expect([200, 503]).toContain(back.status);
      if (back.status !== 200) await new Promise((r) => setTimeout(r, 200));
    }
    expect(back?.status).toBe(200);
    const ready = await fetch(`${lantern.url}/api/health?ready`);
    expect([ready.status, await ready.json()]).toEqual([200, { ready: true }]);
  });

  it('logs each such request as one warn line naming the code, with no stack and no error-level line', () => {
    const lines = lantern
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { level: number; msg: string; code?: string; path?: string; source?: string });
    const failed = lines.filter((l) => l.path?.includes('/history') && l.level === 40);
    expect(failed.length).toBeGreaterThanOrEqual(8);
    for (const l of failed) expect([l.code, l.source, l.msg]).toEqual(['database_unavailable', 'database', expect.stringMatching(/^api request failed: Lantern's database /)]);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
    expect(lantern.output()).not.toMatch(/\n\s+at .+:\d+:\d+/);
    expect(lantern.output()).not.toContain('internal_error');
  });
});

describe.skipIf(!available)('what counts as the database being unavailable', () => {
  // The mapping itself, against real errors from a real pg client (not made-up objects).
  it('a refused connection and a terminated backend are; a bad query is not (a server starting up: above)', async () => {
    const { asDatabaseUnavailable } = await import('@/lib/db');
    const closed = new pg.Pool({ connectionString: `postgres://postgres@127.0.0.1:${await freePort()}/test`, connectionTimeoutMillis: 2000 });
    const refused = await closed.query('SELECT 1').catch((e: unknown) => e);
    await closed.end();
    expect(asDatabaseUnavailable(refused)).toMatchObject({ status: 503, code: 'database_unavailable' });

    const database = await freshDatabase();
    try {
      const victim = new pg.Client({ connectionString: database.url });
      await victim.connect();
      victim.on('error', () => undefined);
      const pid = (await victim.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      const admin = new pg.Client({ connectionString: database.url });
      await admin.connect();
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      await admin.end();
      const terminated = await victim.query('SELECT 1').catch((e: unknown) => e);
      expect(asDatabaseUnavailable(terminated)).toMatchObject({ status: 503, code: 'database_unavailable' });
      await victim.end().catch(() => undefined);

      const ok = new pg.Client({ connectionString: database.url });
      await ok.connect();
      const bad = await ok.query('SELEKT 1').catch((e: unknown) => e);
      await ok.end();
      expect(asDatabaseUnavailable(bad)).toBeUndefined();
    } finally {
      await database.drop();
    }
  });
});
