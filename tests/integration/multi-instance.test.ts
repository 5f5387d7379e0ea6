import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLedgerDevnet } from '../../devnet/ledger/index.mjs';
import { startHostedStub, type HostedStub } from '../support/hosted-stub';
import { startLantern, type LanternInstance } from '../support/lantern';
import { migrations } from '@/lib/db/migrations';
import { flushRedis, freshDatabase, REDIS_TEST_URL, requireServices } from '../support/services';

/**
 * Many instances behave as one: two production servers share one PostgreSQL and one Redis.
 * Needs the machine's PostgreSQL and Redis on loopback (.ci/run starts both): under CI a missing one
 * fails this file saying what to start; elsewhere the file is skipped, saying so.
 */
const available = await requireServices(['postgres', 'redis'], 'multi-instance tests');

const KEY = 'multi-instance-key-0123456789';
let db: Awaited<ReturnType<typeof freshDatabase>>;
let stub: HostedStub;
let ledger: Awaited<ReturnType<typeof startLedgerDevnet>>;
let a: LanternInstance;
let b: LanternInstance;
// Same database and Redis, clock 10 minutes ahead (LANTERN_TEST_CLOCK_OFFSET_MS): what a and b will see
// once their cached answers' lifetimes are over, without waiting for it.
let later: LanternInstance;

describe.skipIf(!available)('two instances, one PostgreSQL, one Redis', () => {
  beforeAll(async () => {
    db = await freshDatabase();
    await flushRedis();
    stub = await startHostedStub({ apiKey: KEY });
    ledger = await startLedgerDevnet({ port: 0 });
    const env = {
      DATABASE_URL: db.url,
      REDIS_URL: REDIS_TEST_URL,
      DATA_API_KEY: KEY,
      DATA_API_URL: stub.url,
      AUTH_API_URL: stub.url,
      RATE_LIMIT_PER_MINUTE: '6',
      TRUSTED_PROXY: '1',
      LEDGER_API_URL_LOCAL: ledger.url,
    };
    // Started together on an empty database: the migrations must run exactly once between them.
    [a, b] = await Promise.all([startLantern(env), startLantern(env)]);
    later = await startLantern({ ...env, LANTERN_TEST_CLOCK_OFFSET_MS: String(10 * 60_000) });
  }, 180_000);

  afterAll(async () => {
    await Promise.allSettled([a?.stop(), b?.stop(), later?.stop()]);
    await stub?.close();
    await ledger?.stop();
    await db?.drop();
  });

  it('run each migration once when they start at the same time', async () => {
    // Wake both databases up (migrations run before the first query).
    expect((await fetch(`${a.url}/api/health`)).status).toBe(200);
    expect((await fetch(`${b.url}/api/health`)).status).toBe(200);
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    const { rows } = await c.query<{ id: number; name: string; applied_at: Date }>('SELECT id, name, applied_at FROM schema_migrations ORDER BY id');
    await c.end();
    // Every migration the code has, recorded once (id is the key) ...
    expect(rows.map((r) => [r.id, r.name])).toEqual(migrations.map((m) => [m.id, m.name]));
    // ... and all in one transaction (now() is the transaction's start): one instance migrated, the other
    // waited on the lock and found nothing left to do. Two racing runners would have failed one start-up
    // or split the work across transactions.
    expect(new Set(rows.map((r) => r.applied_at.toISOString())).size).toBe(1);
    for (const i of [a, b]) expect((await (await fetch(`${i.url}/api/health`)).json()).database).toMatchObject({ ok: true, kind: 'postgres' });
  });

  it('report the shared database as healthy', async () => {
    const h = await (await fetch(`${a.url}/api/health`)).json();
    expect(h.database).toMatchObject({ ok: true, kind: 'postgres' });
  });

  it('share cached upstream answers through Redis', async () => {
    stub.requests.length = 0;
    const path = '/api/v2.2/wallets/0x00000000000000000000000000000000000000a1/history?chain=eth';
    expect((await fetch(a.url + path, { headers: { 'X-Forwarded-For': '192.0.2.1' } })).status).toBe(200);
    expect((await fetch(b.url + path, { headers: { 'X-Forwarded-For': '192.0.2.1' } })).status).toBe(200);
    expect(stub.requests).toHaveLength(1);
  });

  it('judge a shared answer’s lifetime by Lantern’s clock, not Redis’s: an instance past its end asks upstream again', async () => {
    stub.requests.length = 0;
    const path = '/api/v2.2/wallets/0x00000000000000000000000000000000000000a2/history?chain=eth';
    const headers = { 'X-Forwarded-For': '192.0.2.2' };
    expect((await fetch(a.url + path, { headers })).status).toBe(200);
    expect((await fetch(b.url + path, { headers })).status).toBe(200); // within its lifetime: from Redis
    expect(stub.requests).toHaveLength(1);
    // Redis still holds it (its own clock has not moved), but for `later` the 5 s of an open hosted page
    // ended long ago: a miss, and one more upstream call.
    expect((await fetch(later.url + path, { headers })).status).toBe(200);
    expect(stub.requests).toHaveLength(2);
  });

  it('share ledger blocks: a block one instance fetched is answered by the other without asking the node', async () => {
    const headers = { 'X-Forwarded-For': '192.0.2.7' };
    const before = ledger.requestCount();
    const first = await fetch(`${a.url}/api/ledger/local/blocks/by_version/31900?with_transactions=true`, { headers });
    expect(first.status).toBe(200);
    const full = await first.json();
    const again = await fetch(`${b.url}/api/ledger/local/blocks/by_version/${full.last_version}?with_transactions=true`, { headers });
    expect(await again.json()).toEqual(full);
    const bare = await (await fetch(`${b.url}/api/ledger/local/blocks/by_version/${full.first_version}`, { headers })).json();
    expect(bare.block_hash).toBe(full.block_hash);
    expect(bare.transactions).toBeUndefined();
    expect(ledger.requestCount() - before).toBe(1);
  });

  it('count rate limits together', async () => {
    const headers = { 'X-Forwarded-For': '192.0.2.55' };
    const bad = '/api/v2.2/wallets/0x12/history';
    const seen: number[] = [];
    for (let i = 0; i < 6; i++) seen.push((await fetch((i % 2 ? b.url : a.url) + bad, { headers })).status);
    expect(seen).toEqual([400, 400, 400, 400, 400, 400]);
    expect((await fetch(a.url + bad, { headers })).status).toBe(429);
    expect((await fetch(b.url + bad, { headers })).status).toBe(429);
  });
});
