import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Db } from '@/lib/db';
import { migrations } from '@/lib/db/migrations';
import { activityHead, ensureCovered, readingPage, walletIndexState, walletTransactionCount } from '@/lib/sources/evm-node/activity';
import { TOPIC_TRANSFER, addressTopic } from '@/lib/sources/evm-node/logs';
import { log } from '@/lib/log';
import { resetConfigForTests } from '@/lib/config';
import { callBudget, headInfo, inBackground, rpc } from '@/lib/sources/evm-node/rpc';

// activity.ts's node reads and SQL, against an in-process JSON-RPC node over a real HTTP socket (a small
// chain model answering the methods activity uses, as Otterscan, Erigon/Reth and anvil define them) and
// an in-memory PGlite under Lantern's migrations. Expected rows come from the model chain's own
// transactions. Each test uses its own chain id: what Lantern keeps per chain (capabilities, the verified
// head, trace_filter's range) does not leak between tests.

const W = '0x00000000000000000000000000000000000000aa';
const OTHER = '0x00000000000000000000000000000000000000bb';
const TOKEN = '0x00000000000000000000000000000000000000cc';

interface Tx {
  block: number;
  index: number;
  hash: string;
  from: string;
  to: string;
  /** A token Transfer log naming these parties (the wallet appears only here for a log-only row). */
  transfer?: { from: string; to: string };
  /** A SELFDESTRUCT in the transaction paying this address (an internal frame ots_ does not report). */
  beneficiary?: string;
}

interface Model {
  head: number;
  txs: Tx[];
  ots: boolean;
  traceFilter: boolean;
  /** Widest trace_filter range the node takes (anvil: 300). */
  traceLimit?: number;
  /** ots_getApiLevel answers, but the searches are not offered (a proxy in front of the node, say). */
  otsSearchMissing?: boolean;
  /** trace_filter answers the capability probe (the head block), then refuses as not offered. */
  traceFilterProbeOnly?: boolean;
  /** debug_traceBlockByNumber with callTracer (Geth's tracer). */
  debug?: boolean;
  /** Blocks from `from` up are of another branch (a reorg): other hashes. */
  fork?: { from: number; tag: number };
  /** ots_searchTransactionsBefore from this block or below fails (a node error, not a refusal). */
  failBelow?: number;
  /** Every trace_filter call fails with this error (-32000), whatever its range. */
  traceFilterError?: string;
  /** Awaited before a request (a call or a batch) is answered. */
  hold?: (request: unknown) => Promise<void>;
  /** When each call arrived (performance.now). */
  calls: { method: string; params: unknown[]; at: number }[];
}

const hashOf = (n: number, m?: Model) => `0x${(m?.fork && n >= m.fork.from ? m.fork.tag : 0).toString(16).padStart(8, '0')}${n.toString(16).padStart(56, '0')}`;
const hex = (n: number) => `0x${n.toString(16)}`;
const txHash = (block: number, index: number) => `0x${'ab'.repeat(28)}${block.toString(16).padStart(6, '0')}${index.toString(16).padStart(2, '0')}`;

// Whether the wallet is a party the node's index reports: ots_ (sender, recipient), trace_filter.
const direct = (t: Tx, a: string) => t.from === a || t.to === a;

function answer(m: Model, method: string, params: unknown[]): unknown {
  m.calls.push({ method, params, at: performance.now() });
  const broken = () => {
    throw Object.assign(new Error('internal error'), { rpc: -32000 });
  };
  const none = () => {
    throw Object.assign(new Error('the method does not exist'), { rpc: -32601 });
  };
  switch (method) {
    case 'eth_chainId':
      return hex(chainOf(m));
    case 'eth_getBlockByNumber': {
      const n = params[0] === 'latest' ? m.head : Number(params[0]);
      if (n > m.head) return null;
      const body = m.txs.filter((t) => t.block === n);
      const transactions = params[1] ? body.map((t) => ({ hash: t.hash, from: t.from, to: t.to, nonce: '0x0', transactionIndex: hex(t.index) })) : body.map((t) => t.hash);
      return { number: hex(n), hash: hashOf(n, m), parentHash: hashOf(Math.max(0, n - 1), m), timestamp: hex(1_700_000_000 + n), transactions };
    }
    case 'ots_getApiLevel':
      return m.ots ? 8 : none();
    case 'ots_searchTransactionsBefore':
    case 'ots_searchTransactionsAfter': {
      if (!m.ots || m.otsSearchMissing) return none();
      const [address, block, size] = params as [string, number, number];
      const before = method === 'ots_searchTransactionsBefore';
      const start = before && block === 0 ? m.head + 1 : block;
      if (m.failBelow && before && start <= m.failBelow) broken();
      const cands = m.txs.filter((t) => direct(t, address.toLowerCase()) && (before ? t.block < start : t.block > start)).sort((a, b) => (before ? b.block - a.block : a.block - b.block));
      const page: Tx[] = [];
      for (const t of cands) {
        if (page.length >= size && t.block !== page[page.length - 1]!.block) break;
        page.push(t);
      }
      const end = page.length === cands.length;
      // Otterscan returns a page newest first either way.
      const txs = [...page].sort((a, b) => b.block - a.block || b.index - a.index).map((t) => ({ hash: t.hash.toUpperCase().replace('0X', '0x'), blockNumber: hex(t.block), transactionIndex: hex(t.index) }));
      return { txs, receipts: [], firstPage: before ? block === 0 : end, lastPage: before ? end : false };
    }
    case 'trace_filter': {
      if (!m.traceFilter) return none();
      const f = params[0] as { fromBlock: string; toBlock: string; fromAddress?: string[]; toAddress?: string[] };
      const lo = Number(f.fromBlock);
      const hi = Number(f.toBlock);
      if (m.traceFilterProbeOnly && !(lo === m.head && hi === m.head)) return none();
      if (m.traceFilterError && !(lo === m.head && hi === m.head)) throw Object.assign(new Error(m.traceFilterError), { rpc: -32000 });
      if (m.traceLimit && hi - lo + 1 > m.traceLimit) throw Object.assign(new Error(`block range is limited to ${m.traceLimit} blocks`), { rpc: -32000 });
      const out: unknown[] = [];
      for (const t of m.txs) {
        if (t.block < lo || t.block > hi) continue;
        const from = f.fromAddress?.map((a) => a.toLowerCase());
        const to = f.toAddress?.map((a) => a.toLowerCase());
        const frames = [{ from: t.from, to: t.to }, ...(t.beneficiary ? [{ from: t.to, to: t.beneficiary }] : [])];
        if (frames.some((fr) => from?.includes(fr.from) || to?.includes(fr.to))) out.push({ blockNumber: t.block, transactionHash: t.hash, transactionPosition: t.index, action: {} });
      }
      // A block reward: no transaction.
      if (to(f)?.includes(W) && lo <= 1 && hi >= 1) out.push({ blockNumber: 1, action: { author: W }, type: 'reward' });
      return out;
    }
    case 'trace_block':
      return m.traceFilter ? [] : none();
    case 'debug_traceBlockByNumber': {
      if (!m.debug) return none();
      const n = Number(params[0]);
      return m.txs
        .filter((t) => t.block === n)
        .map((t) => ({ txHash: t.hash, result: { type: 'CALL', from: t.from, to: t.to, calls: t.beneficiary ? [{ type: 'SELFDESTRUCT', from: t.to, to: t.beneficiary }] : [] } }));
    }
    case 'eth_getLogs': {
      const f = params[0] as { fromBlock: string; toBlock: string; topics: (string | string[] | null)[] };
      const lo = Number(f.fromBlock);
      const hi = Number(f.toBlock);
      const match = (want: string | string[] | null | undefined, got: string | undefined) => want == null || (Array.isArray(want) ? want.includes(got!) : want === got);
      return m.txs
        .filter((t) => t.transfer && t.block >= lo && t.block <= hi)
        .map((t) => ({ topics: [TOPIC_TRANSFER, addressTopic(t.transfer!.from), addressTopic(t.transfer!.to)], t }))
        .filter(({ topics }) => f.topics.every((want, i) => match(want, topics[i])))
        .map(({ topics, t }) => ({
          address: TOKEN,
          topics,
          data: `0x${'0'.repeat(63)}1`,
          blockNumber: hex(t.block),
          blockHash: hashOf(t.block, m),
          transactionHash: t.hash,
          transactionIndex: hex(t.index),
          logIndex: '0x0',
          removed: false,
        }));
    }
    default:
      return none();
  }
}
const to = (f: { toAddress?: string[] }) => f.toAddress?.map((a) => a.toLowerCase());

let server: Server;
let url = '';
const models = new Map<number, Model>();
const chainOf = (m: Model) => [...models.entries()].find(([, x]) => x === m)![0];
let pg: PGlite;
const g = globalThis as unknown as { __lanternActivityTestPg?: Promise<PGlite>; __lanternDb?: Promise<Db>; __lanternActivity?: { fills: Map<string, Promise<void>> } };
let before: Promise<Db> | undefined;

beforeAll(async () => {
  // Kept for the worker (unit files share one, isolate: false): a mutation run re-runs this file once
  // per mutant, and PGlite's start and Lantern's migrations are most of its time. Each test has its own
  // chain id, so rows of earlier runs are apart.
  pg = await (g.__lanternActivityTestPg ??= (async () => {
    const p = await PGlite.create();
    for (const m of migrations) await p.exec(m.sql);
    return p;
  })());
  let chain: Promise<unknown> = Promise.resolve();
  const database: Db = {
    kind: 'pglite',
    query: async <T,>(sql: string, params: unknown[] = []) => ({ rows: (await pg.query<T>(sql, params)).rows }),
    exec: async (sql: string) => void (await pg.exec(sql)),
    transaction<T>(fn: (tx: Parameters<Parameters<Db['transaction']>[0]>[0]) => Promise<T>): Promise<T> {
      const run = chain.then(() => pg.transaction(async (tx) => fn({ query: async <R,>(sql: string, params: unknown[] = []) => ({ rows: (await tx.query<R>(sql, params)).rows }), exec: async (sql: string) => void (await tx.exec(sql)) })));
      chain = run.catch(() => undefined);
      return run;
    },
    close: async () => undefined,
  };
  before = g.__lanternDb;
  g.__lanternDb = Promise.resolve(database);
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', async () => {
      const chainId = Number(req.url!.slice(1));
      const m = models.get(chainId)!;
      if (m.hold) await m.hold(JSON.parse(body) as unknown);
      const one = (r: { id: unknown; method: string; params?: unknown[] }) => {
        try {
          return { jsonrpc: '2.0', id: r.id, result: answer(m, r.method, r.params ?? []) };
        } catch (e) {
          return { jsonrpc: '2.0', id: r.id, error: { code: (e as { rpc?: number }).rpc ?? -32000, message: (e as Error).message } };
        }
      };
      const parsed = JSON.parse(body) as unknown;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(Array.isArray(parsed) ? parsed.map(one) : one(parsed as never)));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  g.__lanternDb = before;
  await new Promise((r) => server.close(r));
});

let nextChain = 0x7a6900 + Math.floor(Math.random() * 0xff) * 0x100;
let chainId = 0;
function chain(m: Omit<Model, 'calls'>): Model {
  chainId = ++nextChain;
  const model = { ...m, calls: [] };
  models.set(chainId, model);
  vi.stubEnv('EVM_RPC_URLS', `${hex(chainId)}=${url}/${chainId}`);
  vi.stubEnv('EVM_RPC_URL', '');
  vi.stubEnv('EVM_REORG_DEPTH', '5');
  vi.stubEnv('EVM_HISTORY_WINDOW', '10');
  // Work the last test left running (a page's facts read after its answer) may have parsed the
  // configuration again after that test's environment was undone: parse it from this one.
  resetConfigForTests();
  return model;
}
beforeEach(() => vi.stubEnv('NODE_ENV', 'test'));
afterEach(async () => {
  // A background fill still running would read after the test's environment is gone.
  await Promise.all([...(g.__lanternActivity?.fills.values() ?? [])]);
});

// The wallet's transactions as the history rule defines them (docs/evm-node.md), from the model chain.
const walletRows = (m: Model, beneficiaries = true) =>
  m.txs
    .filter((t) => direct(t, W) || t.transfer?.from === W || t.transfer?.to === W || (beneficiaries && t.beneficiary === W))
    .map((t) => ({ block: t.block, index: t.index, hash: t.hash }))
    .sort((a, b) => b.block - a.block || b.index - a.index);
const indexed = async () =>
  (
    await pg.query<{ b: string; tx_index: number; tx_hash: string }>(
      'SELECT block_number::text AS b, tx_index, tx_hash FROM evm_wallet_activity WHERE chain_id = $1 AND address = $2 ORDER BY block_number DESC, tx_index DESC',
      [chainId, W],
    )
  ).rows.map((r) => ({ block: Number(r.b), index: r.tx_index, hash: r.tx_hash }));
const spans = async () => (await pg.query<{ l: string; h: string }>('SELECT lo::text AS l, hi::text AS h FROM evm_span WHERE chain_id = $1 AND scope = $2 ORDER BY lo', [chainId, W])).rows.map((r) => [Number(r.l), Number(r.h)]);

/** A chain of `head` blocks: the wallet's transactions every `every` blocks, in every kind the rule names, and others' between. */
function txsOf(head: number, every: number): Tx[] {
  const out: Tx[] = [];
  for (let b = 1; b <= head; b++) {
    out.push({ block: b, index: 0, hash: txHash(b, 0), from: OTHER, to: TOKEN });
    if (b % every !== 0) continue;
    const k = (b / every) % 4;
    const t: Tx = { block: b, index: 1, hash: txHash(b, 1), from: OTHER, to: TOKEN };
    if (k === 0) t.from = W;
    else if (k === 1) t.to = W;
    else if (k === 2) t.transfer = { from: OTHER, to: W };
    else t.beneficiary = W;
    out.push(t);
  }
  return out;
}

const page = (rows: { block: number; index: number; hash: string }[], n: number, after?: { block: number; index: number }) =>
  rows.filter((r) => !after || r.block < after.block || (r.block === after.block && r.index < after.index)).slice(0, n);

const fillOf = async () =>
  (await pg.query<{ status: string; windows: number; jobs_started: number }>('SELECT status, windows, jobs_started FROM evm_wallet_fill WHERE chain_id = $1 AND address = $2', [chainId, W])).rows[0];
const fillJob = () => g.__lanternActivity?.fills.get(`${chainId}:${W}`);
const otsReadsOf = (m: Model, a: string) => m.calls.filter((c) => c.method.startsWith('ots_search') && c.params[0] === a);

describe('activity over an Otterscan node with trace_filter', () => {
  it('a first page, the next, and an oldest-first page read the windows holding them; the count is the whole history', async () => {
    const m = chain({ head: 400, txs: txsOf(400, 3), ots: true, traceFilter: true });
    const all = walletRows(m);
    const at = await activityHead(chainId);
    expect(at.head).toBe(400);
    await readingPage(chainId, W, () => ensureCovered(chainId, W, at, { order: 'DESC', from: 1, to: 400, need: 26 }));
    const first = page(await indexed(), 26);
    expect(first).toEqual(page(all, 26));
    // Not the whole chain: the first window stops near the page's rows (ots_ pages of whole blocks).
    expect((await indexed()).length).toBeLessThan(all.length);
    // The unfinal tail (above head - 5) is not stored as read.
    for (const [, hi] of await spans()) expect(hi).toBeLessThanOrEqual(395);

    const cursor = first[first.length - 1]!;
    await ensureCovered(chainId, W, at, { order: 'DESC', after: { block: cursor.block, index: cursor.index }, from: 1, to: 400, need: 26 });
    expect(page(await indexed(), 26, cursor)).toEqual(page(all, 26, cursor));

    await ensureCovered(chainId, W, at, { order: 'ASC', from: 1, to: 400, need: 26 });
    const asc = [...all].reverse().slice(0, 26);
    expect([...(await indexed())].reverse().slice(0, 26)).toEqual(asc);

    expect(await walletTransactionCount(chainId, W, 30_000)).toBe(all.length);
    expect(await indexed()).toEqual(all);
    expect(await spans()).toEqual([[1, 395]]);
    expect((await walletIndexState(chainId, W)).complete).toBe(true);
    // The job marks itself done once it finds no gap left (just after the count saw the index complete).
    await Promise.all([...(g.__lanternActivity?.fills.values() ?? [])]);
    const fill = await pg.query<{ status: string; windows: number }>('SELECT status, windows FROM evm_wallet_fill WHERE chain_id = $1 AND address = $2', [chainId, W]);
    expect(fill.rows[0]!.status).toBe('done');
    expect(fill.rows[0]!.windows).toBeGreaterThan(0);
  }, 60_000);

  it('a page whose range ends below the head, and an empty range, read nothing past it', async () => {
    const m = chain({ head: 200, txs: txsOf(200, 2), ots: true, traceFilter: true });
    const at = await activityHead(chainId);
    await ensureCovered(chainId, W, at, { order: 'DESC', from: 10, to: 5, need: 26 });
    expect(await indexed()).toEqual([]);
    await ensureCovered(chainId, W, at, { order: 'DESC', from: 1, to: 100, need: 26 });
    const rows = await indexed();
    expect(rows.every((r) => r.block <= 100)).toBe(true);
    expect(page(rows, 26)).toEqual(page(walletRows(m).filter((r) => r.block <= 100), 26));
  }, 60_000);
});

describe('activity over a node without ots_', () => {
  it('trace_filter by block ranges (a node limiting its range), transfer logs, and the fill to the genesis', async () => {
    const m = chain({ head: 5000, txs: txsOf(5000, 40), ots: false, traceFilter: true, traceLimit: 300 });
    const all = walletRows(m);
    const at = await activityHead(chainId);
    await ensureCovered(chainId, W, at, { order: 'DESC', from: 1, to: 5000, need: 26 });
    expect(page(await indexed(), 26)).toEqual(page(all, 26));
    // trace_filter asked over 10000 blocks first, then the 300 the node names.
    const ranges = m.calls.filter((c) => c.method === 'trace_filter' && (c.params[0] as { fromAddress?: unknown }).fromAddress).map((c) => {
      const f = c.params[0] as { fromBlock: string; toBlock: string };
      return Number(f.toBlock) - Number(f.fromBlock) + 1;
    });
    expect(Math.max(...ranges.slice(1))).toBeLessThanOrEqual(300);
    // ... and asked in full.
    expect(ranges.slice(1)).toContain(300);
    // Not the whole chain: the window stops after the first block range (2000 blocks) holding the page's rows.
    const lowest = Math.min(...m.calls.filter((c) => c.method === 'trace_filter').map((c) => Number((c.params[0] as { fromBlock: string }).fromBlock)));
    expect(lowest).toBeGreaterThan(3000);
    expect(m.calls.some((c) => c.method === 'ots_searchTransactionsBefore')).toBe(false);
    await ensureCovered(chainId, W, at, { order: 'ASC', from: 1, to: 5000, need: 26 });
    expect([...(await indexed())].reverse().slice(0, 26)).toEqual([...all].reverse().slice(0, 26));
    // Without ots_, SELFDESTRUCT beneficiaries come from trace_filter toAddress: every kind is found.
    expect(await walletTransactionCount(chainId, W, 30_000)).toBe(all.length);
    expect(await indexed()).toEqual(all);
  }, 60_000);
});

describe('activity on nodes that offer less', () => {
  it('ots_ and trace_filter probed as offered but refused in use: block bodies, and no beneficiaries (as on Geth)', async () => {
    const m = chain({ head: 300, txs: txsOf(300, 3), ots: true, otsSearchMissing: true, traceFilter: true, traceFilterProbeOnly: true, debug: true });
    const all = walletRows(m, false);
    const at = await activityHead(chainId);
    await ensureCovered(chainId, W, at, { order: 'DESC', from: 1, to: 300, need: 26 });
    expect(page(await indexed(), 26)).toEqual(page(all, 26));
    // Asked once each, then known as not offered.
    expect(m.calls.filter((c) => c.method === 'ots_searchTransactionsBefore')).toHaveLength(1);
    expect(await walletTransactionCount(chainId, W, 30_000)).toBe(all.length);
    expect(await indexed()).toEqual(all);
    expect(m.calls.filter((c) => c.method.startsWith('ots_search'))).toHaveLength(1);
    // One range, both sides at once.
    expect(m.calls.filter((c) => c.method === 'trace_filter' && (c.params[0] as { fromBlock: string }).fromBlock !== hex(300))).toHaveLength(2);
  }, 60_000);

  it('ots_ without trace_filter: beneficiaries from the chain traced block by block', async () => {
    const m = chain({ head: 200, txs: txsOf(200, 3), ots: true, traceFilter: false, debug: true });
    const all = walletRows(m);
    const at = await activityHead(chainId);
    await ensureCovered(chainId, W, at, { order: 'ASC', from: 1, to: 200, need: 26 });
    expect([...(await indexed())].reverse().slice(0, 26)).toEqual([...all].reverse().slice(0, 26));
    expect(m.calls.some((c) => c.method === 'debug_traceBlockByNumber')).toBe(true);
    expect(await walletTransactionCount(chainId, W, 30_000)).toBe(all.length);
    expect(await indexed()).toEqual(all);
    // Refused at the probe, so never asked in use.
    expect(m.calls.filter((c) => c.method === 'trace_filter' && (c.params[0] as { fromBlock: string }).fromBlock !== hex(200))).toHaveLength(0);
  }, 60_000);
});

describe('a chain that changed under a page', () => {
  it('a window read on the old branch does not commit; it is read again on the chain as it is now', async () => {
    const m = chain({ head: 300, txs: txsOf(300, 3), ots: true, traceFilter: true });
    vi.stubEnv('EVM_HEAD_TTL_MS', '0');
    const old = await activityHead(chainId);
    // A reorg from block 250: the wallet's transactions there are replaced by others, every second block.
    m.fork = { from: 250, tag: 7 };
    m.txs = [...m.txs.filter((t) => t.block < 250), ...txsOf(300, 2).filter((t) => t.block >= 250).map((t) => ({ ...t, hash: t.hash.replace('0xabab', '0xcdcd') }))];
    const now = await activityHead(chainId);
    expect(now.epoch).toBeGreaterThan(old.epoch);
    await ensureCovered(chainId, W, old, { order: 'DESC', from: 1, to: 300, need: 26 });
    expect(page(await indexed(), 26)).toEqual(page(walletRows(m), 26));
    // Read again at the new head: its unfinal tail (above 300 - 5) is not stored as read either.
    for (const [, hi] of await spans()) expect(hi).toBeLessThanOrEqual(295);
  }, 60_000);
});

describe('pages of one wallet', () => {
  it("the wallet page's queries at once (its newest row, its newest page, its oldest row) read the node once", async () => {
    const m = chain({ head: 60, txs: txsOf(60, 3), ots: true, traceFilter: true });
    const at = await activityHead(chainId);
    await Promise.all([
      ensureCovered(chainId, W, at, { order: 'DESC', from: 1, to: 60, need: 2 }),
      ensureCovered(chainId, W, at, { order: 'DESC', from: 1, to: 60, need: 26 }),
      ensureCovered(chainId, W, at, { order: 'ASC', from: 1, to: 60, need: 2 }),
    ]);
    // The newest window of a small wallet is all of it: the others wait for it and read nothing.
    expect(otsReadsOf(m, W)).toHaveLength(1);
    expect(await indexed()).toEqual(walletRows(m));
  }, 60_000);

  it('a page of one block reads that block', async () => {
    const m = chain({ head: 200, txs: txsOf(200, 3), ots: true, traceFilter: true });
    const at = await activityHead(chainId);
    // Block 153: the wallet a SELFDESTRUCT's beneficiary (trace_filter over that one block).
    await ensureCovered(chainId, W, at, { order: 'DESC', from: 153, to: 153, need: 26 });
    const inBlock = walletRows(m).filter((r) => r.block === 153);
    expect(inBlock).toHaveLength(1);
    expect((await indexed()).filter((r) => r.block === 153)).toEqual(inBlock);
  }, 60_000);

  it('a page of the newest block alone: the fill reads the rest, its unfinal blocks not stored as read', async () => {
    const m = chain({ head: 200, txs: txsOf(200, 3), ots: true, traceFilter: true });
    const at = await activityHead(chainId);
    await readingPage(chainId, W, () => ensureCovered(chainId, W, at, { order: 'DESC', from: 200, to: 200, need: 26 }));
    await fillJob();
    expect(await indexed()).toEqual(walletRows(m));
    expect(await spans()).toEqual([[1, 195]]);
    expect((await walletIndexState(chainId, W)).complete).toBe(true);
  }, 60_000);

  it('after the chain grew, a page reads only the new blocks', async () => {
    const m = chain({ head: 300, txs: txsOf(300, 3), ots: true, traceFilter: true });
    vi.stubEnv('EVM_HEAD_TTL_MS', '0');
    await ensureCovered(chainId, W, await activityHead(chainId), { order: 'DESC', from: 1, to: 300, need: 26 });
    m.head = 330;
    m.txs = txsOf(330, 3);
    const at = await activityHead(chainId);
    expect(at.head).toBe(330);
    const before = otsReadsOf(m, W).length;
    await ensureCovered(chainId, W, at, { order: 'DESC', from: 1, to: 330, need: 26 });
    // One search up from the blocks read before (296, past their final part), none down from the head.
    expect(otsReadsOf(m, W).slice(before).map((c) => [c.method, c.params[1]])).toEqual([['ots_searchTransactionsAfter', 295]]);
    expect(page(await indexed(), 26)).toEqual(page(walletRows(m), 26));
  }, 60_000);

  it('an ots_ search failing (not a refusal) fails the page; nothing slower stands in, and ots_ is asked again next time', async () => {
    const m = chain({ head: 200, txs: txsOf(200, 3), ots: true, traceFilter: true, failBelow: 1_000 });
    const at = await activityHead(chainId);
    await expect(ensureCovered(chainId, W, at, { order: 'DESC', from: 1, to: 200, need: 26 })).rejects.toThrow(/internal error/);
    expect(m.calls.some((c) => c.method === 'trace_filter' && (c.params[0] as { fromAddress?: unknown }).fromAddress)).toBe(false);
    expect(m.calls.some((c) => c.method === 'eth_getBlockByNumber' && c.params[1] === true)).toBe(false);
    m.failBelow = undefined;
    await ensureCovered(chainId, W, at, { order: 'DESC', from: 1, to: 200, need: 26 });
    expect(otsReadsOf(m, W)).toHaveLength(2);
    expect(page(await indexed(), 26)).toEqual(page(walletRows(m), 26));
  }, 60_000);
});

describe('a chain that changed under the fill', () => {
  it('the window it read on the old branch is not committed, and the next page resumes the fill on the new chain', async () => {
    const m = chain({ head: 300, txs: txsOf(300, 3), ots: true, traceFilter: true });
    vi.stubEnv('EVM_HEAD_TTL_MS', '0');
    const at = await activityHead(chainId);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let arrived!: () => void;
    const heldNow = new Promise<void>((r) => (arrived = r));
    // The fill's first search (the first below the page's window) waits until the chain has changed.
    m.hold = async (request) => {
      const calls = [request].flat() as { method: string; params: unknown[] }[];
      if (calls.some((c) => c.method === 'ots_searchTransactionsBefore' && (c.params[1] as number) < 301)) {
        m.hold = undefined;
        arrived();
        await held;
      }
    };
    await readingPage(chainId, W, () => ensureCovered(chainId, W, at, { order: 'DESC', from: 1, to: 300, need: 26 }));
    await heldNow;
    m.fork = { from: 250, tag: 7 };
    m.txs = [...m.txs.filter((t) => t.block < 250), ...txsOf(300, 2).filter((t) => t.block >= 250).map((t) => ({ ...t, hash: t.hash.replace('0xabab', '0xcdcd') }))];
    expect((await activityHead(chainId)).epoch).toBeGreaterThan(at.epoch);
    const warn = vi.spyOn(log(), 'warn');
    try {
      release();
      await fillJob();
      // Not a failure: no warning.
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
    expect(await walletTransactionCount(chainId, W, 10_000)).toBe(walletRows(m).length);
    expect(await indexed()).toEqual(walletRows(m));
  }, 60_000);
});

describe('trace_filter refusing in use', () => {
  it('an Otterscan node whose trace_filter is refused in use: beneficiaries from the chain traced block by block', async () => {
    const m = chain({ head: 200, txs: txsOf(200, 3), ots: true, traceFilter: true, traceFilterProbeOnly: true, debug: true });
    const all = walletRows(m);
    const at = await activityHead(chainId);
    await ensureCovered(chainId, W, at, { order: 'DESC', from: 1, to: 200, need: 26 });
    expect(page(await indexed(), 26)).toEqual(page(all, 26));
    expect(await walletTransactionCount(chainId, W, 30_000)).toBe(all.length);
    expect(await indexed()).toEqual(all);
    // Refused once (beside the probe of the head block), then known as not offered.
    expect(m.calls.filter((c) => c.method === 'trace_filter' && (c.params[0] as { fromBlock: string }).fromBlock !== hex(200))).toHaveLength(1);
  }, 60_000);

  it.each([
    ['without ots_ (its transactions)', false],
    ['with ots_ (its beneficiaries)', true],
  ])('a node failing every trace_filter range, %s: narrowed down to 10 blocks, then the page fails', async (_, ots) => {
    const m = chain({ head: 300, txs: txsOf(300, 3), ots, traceFilter: true, traceFilterError: 'internal error' });
    const at = await activityHead(chainId);
    await expect(ensureCovered(chainId, W, at, { order: 'DESC', from: 1, to: 300, need: 26 })).rejects.toThrow(/internal error/);
    const probe = (f: { fromBlock: string; toBlock: string }) => f.fromBlock === hex(300) && f.toBlock === hex(300);
    // One call per range for each side (toAddress: the beneficiaries, or with fromAddress the transactions).
    const ranges = m.calls.filter((c) => c.method === 'trace_filter' && !probe(c.params[0] as never) && (c.params[0] as { toAddress?: unknown }).toAddress).map((c) => {
      const f = c.params[0] as { fromBlock: string; toBlock: string };
      return Number(f.toBlock) - Number(f.fromBlock) + 1;
    });
    // Each refusal narrows the range (a quarter, as the message names no limit); none is below 10 blocks.
    expect(ranges.at(-1)).toBe(10);
    expect(ranges.filter((r) => r === 10)).toHaveLength(1);
    for (let i = 1; i < ranges.length; i++) expect(ranges[i]).toBeLessThanOrEqual(ranges[i - 1]!);
    expect(await indexed()).toEqual([]);
  }, 60_000);
});


describe('the background fill', () => {
  it('waits while another page of the wallet is read, and at most 2 s for another wallet\'s page', async () => {
    const m = chain({ head: 200, txs: txsOf(200, 3), ots: true, traceFilter: true });
    const at = await activityHead(chainId);
    let releaseMine!: () => void;
    let releaseOther!: () => void;
    const mine = readingPage(chainId, W, () => new Promise<void>((r) => (releaseMine = r)));
    const other = readingPage(chainId, OTHER, () => new Promise<void>((r) => (releaseOther = r)));
    // The first page ends (its fill starts) while the wallet's other page and another wallet's are read.
    await readingPage(chainId, W, () => ensureCovered(chainId, W, at, { order: 'DESC', from: 1, to: 200, need: 26 }));
    const firstPage = otsReadsOf(m, W).length;
    await vi.waitFor(async () => expect((await fillOf())?.status).toBe('running'));
    // Longer than the wait for another wallet's page: an absence is seen only by waiting.
    await new Promise((r) => setTimeout(r, 3_000));
    expect(otsReadsOf(m, W)).toHaveLength(firstPage);
    releaseMine();
    await mine;
    const released = performance.now();
    // Then it waits for the other wallet's page, which is still read: 2 s, no longer.
    await vi.waitFor(() => expect(otsReadsOf(m, W).length).toBeGreaterThan(firstPage), { timeout: 20_000, interval: 50 });
    expect(otsReadsOf(m, W)[firstPage]!.at - released).toBeGreaterThanOrEqual(1_990);
    // Its first window asks for EVM_HISTORY_WINDOW transactions, no more.
    expect(otsReadsOf(m, W)[firstPage]!.params[2]).toBe(10);
    releaseOther();
    await other;
    await fillJob();
    expect(await indexed()).toEqual(walletRows(m));
    expect((await fillOf())?.status).toBe('done');
  }, 60_000);

  it("background node calls wait while another wallet's page is read, between that page's own calls too", async () => {
    const m = chain({ head: 20, txs: txsOf(20, 3), ots: true, traceFilter: true });
    await activityHead(chainId);
    const budget = callBudget(chainId);
    let release!: () => void;
    // A page that has made its node calls and is doing its own work (its rows, its database): no call in flight.
    const other = readingPage(chainId, OTHER, () => new Promise<void>((r) => (release = r)));
    expect(budget.pagesInFlight).toBe(true);
    const { backgroundCalls, waitedCalls } = budget.stats;
    const bg = inBackground(() => rpc<unknown>(chainId, 'eth_getBlockByNumber', ['0x7', false]));
    await vi.waitFor(() => expect(budget.stats.backgroundCalls).toBe(backgroundCalls + 1));
    const releasedAt = performance.now();
    release();
    await other;
    expect(budget.pagesInFlight).toBe(false);
    await bg;
    const asked = m.calls.filter((c) => c.method === 'eth_getBlockByNumber' && c.params[0] === '0x7');
    expect(asked).toHaveLength(1);
    expect(asked[0]!.at).toBeGreaterThanOrEqual(releasedAt);
    expect(budget.stats.waitedCalls).toBe(waitedCalls + 1);
  });

  it("the chain's head, asked by background work, is read as a page's call (pages share it): never held behind a page's read", async () => {
    const m = chain({ head: 20, txs: txsOf(20, 3), ots: true, traceFilter: true });
    await activityHead(chainId);
    const budget = callBudget(chainId);
    let release!: () => void;
    const other = readingPage(chainId, OTHER, () => new Promise<void>((r) => (release = r)));
    const { backgroundCalls } = budget.stats;
    const head = await inBackground(() => headInfo(chainId, true));
    expect(head.number).toBe(m.head);
    // Answered while the page is still read, without waiting for the budget.
    expect(budget.pagesInFlight).toBe(true);
    expect(budget.stats.backgroundCalls).toBe(backgroundCalls);
    release();
    await other;
  });

  it("a window the fill has read is written only once another wallet's page, begun meanwhile, is read", async () => {
    const m = chain({ head: 200, txs: txsOf(200, 3), ots: true, traceFilter: true });
    const at = await activityHead(chainId);
    const budget = callBudget(chainId);
    let armed = false;
    let release!: () => void;
    let other: Promise<void> | undefined;
    // The fill's first window: when its logs are asked, another wallet's page begins.
    m.hold = async (request) => {
      if (!armed || !(Array.isArray(request) ? request : [request]).some((r: { method: string }) => r.method === 'eth_getLogs')) return;
      armed = false;
      other = readingPage(chainId, OTHER, () => new Promise<void>((r) => (release = r)));
    };
    await readingPage(chainId, W, async () => {
      await ensureCovered(chainId, W, at, { order: 'DESC', from: 1, to: 200, need: 26 });
      armed = true;
    });
    const firstPage = await indexed();
    // The window's node reads are answered; its write waits for the page.
    await vi.waitFor(() => expect(budget.waitingWrites).toBe(1), { timeout: 10_000, interval: 20 });
    expect(await indexed()).toEqual(firstPage);
    release();
    await other;
    await fillJob();
    expect(await indexed()).toEqual(walletRows(m));
    expect(budget.waitingWrites).toBe(0);
  }, 60_000);

  it('a wallet its first page reads whole starts no job', async () => {
    const m = chain({ head: 20, txs: txsOf(20, 3), ots: true, traceFilter: true });
    const at = await activityHead(chainId);
    await readingPage(chainId, W, () => ensureCovered(chainId, W, at, { order: 'DESC', from: 1, to: 20, need: 26 }));
    await fillJob();
    expect(await indexed()).toEqual(walletRows(m));
    expect((await walletIndexState(chainId, W)).complete).toBe(true);
    expect(await fillOf()).toBeUndefined();
  }, 60_000);

  it('the count waits up to its limit (null) while another instance reads the history, and takes over a job whose instance stopped', async () => {
    const m = chain({ head: 400, txs: txsOf(400, 3), ots: true, traceFilter: true });
    // Another instance's job, its heartbeat 2 s from stale.
    await pg.query("INSERT INTO evm_wallet_fill (chain_id, address, status, heartbeat_at) VALUES ($1, $2, 'running', now() - interval '58 seconds')", [chainId, W]);
    expect(await walletTransactionCount(chainId, W, 0)).toBeNull();
    const firstPage = otsReadsOf(m, W).length;
    expect(await indexed()).not.toEqual([]);
    // This instance reads none of it while that job runs, then takes it over once its heartbeat is stale.
    expect(await walletTransactionCount(chainId, W, 30_000)).toBe(walletRows(m).length);
    expect(otsReadsOf(m, W).length).toBeGreaterThan(firstPage);
    const fill = await fillOf();
    expect(fill).toMatchObject({ status: 'done', jobs_started: 2 });
  }, 60_000);

  it('a node failing under the fill: the job is marked failed, the count gives up at its limit, and the next page resumes it', async () => {
    const m = chain({ head: 300, txs: txsOf(300, 3), ots: true, traceFilter: true, failBelow: 200 });
    const at = await activityHead(chainId);
    const warn = vi.spyOn(log(), 'warn');
    try {
      await readingPage(chainId, W, () => ensureCovered(chainId, W, at, { order: 'DESC', from: 1, to: 300, need: 26 }));
      await fillJob();
      // The operator's warning names the wallet and the node's error.
      expect(warn).toHaveBeenCalledWith({ chainId, address: W, code: 'upstream_bad_response', err: expect.stringContaining('internal error') }, expect.any(String));
    } finally {
      warn.mockRestore();
    }
    expect((await fillOf())?.status).toBe('failed');
    expect(await walletTransactionCount(chainId, W, 500)).toBeNull();
    m.failBelow = undefined;
    expect(await walletTransactionCount(chainId, W, 30_000)).toBe(walletRows(m).length);
    expect(await indexed()).toEqual(walletRows(m));
    expect((await fillOf())?.status).toBe('done');
  }, 60_000);
});
