import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyPageSchema, type HistoryPage } from '../../lib/interface/history';
import { oracle, startForeignChain, type ForeignChain, type OracleTx } from '../support/foreign-chain';
import { startLantern, type LanternInstance } from '../support/lantern';
import { startRpcProxy, type RpcCall, type RpcProxy } from '../support/rpc-proxy';
import { freshDatabase, requireServices } from '../support/services';

/**
 * History read in windows (lib/sources/evm-node/activity.ts): a first page reads only the blocks that
 * hold it, the rest is read in the background once per wallet across instances, and every page, served
 * before, during and after that, equals what the node says. A chain Lantern did not write (foreign-chain.ts),
 * two instances on one PostgreSQL, each through its own counting proxy. The oracle is the node alone
 * (blocks, receipts, logs, callTracer); the bound on a first page's work is the node's own newest-page
 * query, asked here directly. EVM_HISTORY_WINDOW=27 makes the background job take several windows.
 */
const available = await requireServices(['postgres'], 'history window tests');

// Above any foreground window of these tests (a page of at most 25 asks for at most 26), so holding
// the calls of this size holds only the background job.
const WINDOW = 27;
let chain: ForeignChain;
let facts: OracleTx[];
let database: Awaited<ReturnType<typeof freshDatabase>>;
let sql: pg.Client;
const proxies: RpcProxy[] = [];
const lanterns: LanternInstance[] = [];

const expectedFor = (wallet: string) => facts.filter((t) => t.parties.has(wallet)).sort((a, b) => a.block - b.block || a.index - b.index).map((t) => t.hash);

async function page(l: LanternInstance, wallet: string, order: 'ASC' | 'DESC', limit: number, cursor = ''): Promise<HistoryPage> {
  const res = await fetch(`${l.url}/api/v2.2/wallets/${wallet}/history?order=${order}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  return historyPageSchema.parse(body);
}

async function allHashes(l: LanternInstance, wallet: string, order: 'ASC' | 'DESC', limit: number): Promise<string[]> {
  const out: string[] = [];
  let cursor = '';
  for (let n = 0; n < 500; n++) {
    const p = await page(l, wallet, order, limit, cursor);
    out.push(...p.result.map((t) => t.hash));
    if (!p.cursor) return out;
    expect(p.result.length).toBe(limit);
    cursor = p.cursor;
  }
  throw new Error('history did not end within 500 pages');
}

/** The wallet's node calls that read a block range (logs, traces), with the range they read. */
function rangeCalls(calls: RpcCall[], wallet: string): { method: string; from: number; to: number }[] {
  const topic = `0x${'0'.repeat(24)}${wallet.slice(2)}`;
  return calls.flatMap((c) => {
    const f = c.params[0] as { fromBlock?: string; toBlock?: string; topics?: unknown[]; fromAddress?: string[]; toAddress?: string[] } | undefined;
    if (!f || typeof f !== 'object' || !f.fromBlock) return [];
    const mine = c.method === 'eth_getLogs' ? JSON.stringify(f.topics ?? []).includes(topic) : c.method === 'trace_filter' && [...(f.fromAddress ?? []), ...(f.toAddress ?? [])].includes(wallet);
    return mine ? [{ method: c.method, from: Number(f.fromBlock), to: Number(f.toBlock) }] : [];
  });
}

async function fillOf(wallet: string) {
  const { rows } = await sql.query<{ status: string; windows: number; jobs_started: number }>('SELECT status, windows, jobs_started FROM evm_wallet_fill WHERE address = $1', [wallet]);
  const spans = (await sql.query<{ lo: string; hi: string }>('SELECT lo, hi FROM evm_span WHERE scope = $1 ORDER BY lo', [wallet])).rows.map((r) => [Number(r.lo), Number(r.hi)]);
  return { row: rows[0], spans };
}

async function untilFilled(wallet: string) {
  for (let i = 0; i < 600; i++) {
    const f = await fillOf(wallet);
    if (f.row?.status === 'done') return f;
    if (f.row?.status === 'failed') throw new Error(`the fill of ${wallet} failed`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the fill of ${wallet} did not finish`);
}

/** The busiest wallet no test has asked for yet (each test starts from a never-seen wallet). */
const asked = new Set<string>();
const nextWallet = () => {
  const n = chain.wallets.map((w) => w.toLowerCase()).filter((w) => !asked.has(w));
  const w = n.sort((a, b) => expectedFor(b).length - expectedFor(a).length)[0]!;
  asked.add(w);
  return w;
};

describe.skipIf(!available)('history in windows', { shuffle: false }, () => {
  beforeAll(async () => {
    chain = await startForeignChain(23);
    await chain.round(450);
    // One wallet busy at the end of the chain: its newest page spans few blocks, its history many.
    await chain.round(200, { only: chain.wallets[0] });
    facts = await oracle(chain.rpc);
    database = await freshDatabase();
    sql = new pg.Client({ connectionString: database.url });
    for (let i = 0; i < 2; i++) proxies.push(await startRpcProxy(chain.url));
    // Two instances on one database, each reading the node through its own counting proxy.
    const env = { DATABASE_URL: database.url, EVM_HISTORY_WINDOW: String(WINDOW), EVM_HEAD_TTL_MS: '0', UPSTREAM_CACHE: 'off' };
    lanterns.push(...(await Promise.all(proxies.map((p) => startLantern({ ...env, EVM_RPC_URL: p.url })))));
    await sql.connect();
  }, 300_000);

  afterAll(async () => {
    for (const p of proxies) p.release();
    await Promise.allSettled(lanterns.map((l) => l.stop()));
    await Promise.allSettled(proxies.map((p) => p.stop()));
    await sql?.end().catch(() => undefined);
    await database?.drop();
    await chain?.stop();
  });

  it('a first page reads only the blocks of the node’s own newest page, and equals the node', async () => {
    const [a] = lanterns;
    const proxy = proxies[0]!;
    const wallet = chain.wallets[0]!.toLowerCase();
    asked.add(wallet);
    const want = expectedFor(wallet);
    expect(want.length).toBeGreaterThan(150);
    // The background job stops at its first window until released, so what follows runs before it.
    proxy.hold = (c) => c.method === 'ots_searchTransactionsBefore' && c.params[2] === WINDOW;
    const before = proxy.calls.length;
    const first = await page(a!, wallet, 'DESC', 25);
    expect(first.result.map((t) => t.hash)).toEqual([...want].reverse().slice(0, 25));
    const calls = proxy.calls.slice(before);
    // The floor: the node's own newest page (whole blocks down to the 26th transaction it finds).
    const floor = (await chain.rpc.call('ots_searchTransactionsBefore', [wallet, 0, 26])) as { txs: { blockNumber: string }[] };
    const lowest = Math.min(...floor.txs.map((t) => Number(t.blockNumber)));
    expect(lowest).toBeGreaterThan(facts[0]!.block);
    const ranges = rangeCalls(calls, wallet);
    expect(ranges.length).toBeGreaterThan(0);
    for (const r of ranges) expect(r.from, `${r.method} ${r.from}-${r.to} reaches below the newest page`).toBeGreaterThanOrEqual(lowest);
    // One newest-first window, no oldest-first scan.
    expect(calls.filter((c) => c.method === 'ots_searchTransactionsBefore' && c.params[2] === 26).length).toBe(1);
    expect(calls.filter((c) => c.method === 'ots_searchTransactionsAfter').length).toBe(0);
    // Each transaction read once: the facts the window's rows started reading are the page's, not read again.
    for (const method of ['eth_getTransactionByHash', 'eth_getTransactionReceipt']) {
      const read = calls.filter((c) => c.method === method).map((c) => String(c.params[0]).toLowerCase());
      expect(new Set(read).size, method).toBe(read.length);
      for (const t of first.result) expect(read, method).toContain(t.hash.toLowerCase());
    }
  });

  it('while older transactions are read, the page says so and every API page still answers, equal to the node', async () => {
    const [a, b] = lanterns;
    const wallet = chain.wallets[0]!.toLowerCase();
    const want = expectedFor(wallet);
    try {
      for (let i = 0; i < 100 && proxies[0]!.held === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(proxies[0]!.held).toBeGreaterThan(0); // the job is waiting at its first window
      const html = await (await fetch(`${a!.url}/wallet/${wallet}`)).text();
      expect(html).toContain('Older transactions are still being read from the node.');
      expect(html).toMatch(/data-testid="tx-count"[^>]*>Still counting</);
      // Deep pages read their own windows: both orders to the end, on both instances.
      expect(await allHashes(a!, wallet, 'DESC', 25)).toEqual([...want].reverse());
      expect(await allHashes(b!, wallet, 'ASC', 25)).toEqual(want);
    } finally {
      proxies[0]!.release();
    }
    const f = await untilFilled(wallet);
    expect(f.spans).toHaveLength(1);
    expect(f.spans[0]![0]).toBe(1);
    const after = await (await fetch(`${a!.url}/wallet/${wallet}`)).text();
    expect(after).not.toContain('Older transactions are still being read');
    expect(after).toMatch(new RegExp(`data-testid="tx-count"[^>]*>${want.length}<`));
  });

  it('the rest is read in the background in windows, once per wallet across instances', async () => {
    const [a, b] = lanterns;
    const wallet = nextWallet();
    const want = expectedFor(wallet);
    expect(want.length).toBeGreaterThan(2 * WINDOW + 11);
    const marks = proxies.map((p) => p.calls.length);
    const [pa, pb] = await Promise.all([page(a!, wallet, 'DESC', 10), page(b!, wallet, 'DESC', 10)]);
    for (const p of [pa, pb]) expect(p.result.map((t) => t.hash)).toEqual([...want].reverse().slice(0, 10));
    const f = await untilFilled(wallet);
    expect(f.spans).toEqual([[1, f.spans[0]![1]]]);
    // Each background window read once, by whichever instance holds the job.
    const windows = proxies.flatMap((p, i) => p.calls.slice(marks[i]).filter((c) => c.method === 'ots_searchTransactionsBefore' && c.params[0] === wallet && c.params[2] === WINDOW));
    expect(windows.length).toBe(f.row!.windows);
    expect(windows.length).toBeGreaterThanOrEqual(2);
    expect(new Set(windows.map((c) => c.params[1])).size).toBe(windows.length);
    expect(await allHashes(b!, wallet, 'DESC', 30)).toEqual([...want].reverse());
  });

  it('an ASC first page reads only the oldest blocks', async () => {
    const [, b] = lanterns;
    const wallet = nextWallet();
    const want = expectedFor(wallet);
    const before = proxies[1]!.calls.length;
    const first = await page(b!, wallet, 'ASC', 10);
    expect(first.result.map((t) => t.hash)).toEqual(want.slice(0, 10));
    // A window holds at least a page of 25 and one more (so the wallet page's small queries share it).
    const floor = (await chain.rpc.call('ots_searchTransactionsAfter', [wallet, 0, 26])) as { txs: { blockNumber: string }[] };
    const highest = Math.max(...floor.txs.map((t) => Number(t.blockNumber)));
    const ranges = rangeCalls(proxies[1]!.calls.slice(before), wallet);
    expect(ranges.length).toBeGreaterThan(0);
    for (const r of ranges) expect(r.to, `${r.method} ${r.from}-${r.to} reaches above the oldest page`).toBeLessThanOrEqual(highest);
  });

  it('after more blocks, every wallet’s history in both orders still equals the node, on both instances', async () => {
    await chain.round(80);
    facts = await oracle(chain.rpc);
    for (const wallet of chain.wallets.map((w) => w.toLowerCase())) {
      const want = expectedFor(wallet);
      expect(await allHashes(lanterns[0]!, wallet, 'DESC', 40), `DESC ${wallet}`).toEqual([...want].reverse());
      expect(await allHashes(lanterns[1]!, wallet, 'ASC', 40), `ASC ${wallet}`).toEqual(want);
    }
  });
});
