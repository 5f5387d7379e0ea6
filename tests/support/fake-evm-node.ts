import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, vi } from 'vitest';
import { keccak256, toHex, type Hex } from 'viem';
import type { Db, Queryable } from '@/lib/db';
import { resetConfigForTests } from '@/lib/config';
import { migrations } from '@/lib/db/migrations';

/**
 * A tiny EVM node for unit tests of the code that reads one: a chain model (blocks of transactions with
 * their receipts' logs and callTracer trees) answered over a real local HTTP socket in JSON-RPC, batches
 * included, so Lantern's own transport, breaker and batching run unchanged. It answers the methods the
 * history core uses, as geth (debug_*, callTracer) and Erigon/anvil (trace_*, Parity format) shape them;
 * a method switched off answers -32601 as nodes do for a method they lack. Every call is recorded.
 */

export interface FakeLog {
  address: string;
  topics: Hex[];
  data: Hex;
}

/** A callTracer frame as the test writes it (quantities as bigint, the node's answer hexes them). */
export interface FakeFrame {
  type: 'CALL' | 'DELEGATECALL' | 'STATICCALL' | 'CREATE' | 'CREATE2' | 'SELFDESTRUCT';
  from: string;
  to: string;
  value?: bigint;
  gas?: bigint;
  gasUsed?: bigint;
  input?: Hex;
  output?: Hex;
  error?: string;
  calls?: FakeFrame[];
}

export interface FakeTx {
  from: string;
  to: string | null;
  value?: bigint;
  input?: Hex;
  gas?: bigint;
  gasUsed?: bigint;
  gasPrice?: bigint;
  nonce?: number;
  status?: 0 | 1;
  contractAddress?: string;
  logs?: FakeLog[];
  /** The calls below the top level (callTracer's `calls` of the root frame). */
  calls?: FakeFrame[];
}

export interface MinedTx extends FakeTx {
  hash: Hex;
  blockNumber: number;
  index: number;
}

export interface FakeBlock {
  number: number;
  hash: Hex;
  parentHash: Hex;
  timestamp: number;
  txs: MinedTx[];
}

export interface RpcCall {
  method: string;
  params: unknown[];
  /** Whether it came in a JSON-RPC batch (an array, however long) rather than a request of its own. */
  batched: boolean;
  /** Which HTTP request it came in (numbered from 1 in the order they arrive): calls of one batch share it. */
  request?: number;
}

type Handler = (params: unknown[]) => unknown;

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const hex = (n: number | bigint) => `0x${n.toString(16)}` as Hex;
const hashOf = (s: string) => keccak256(toHex(s));

export class FakeChain {
  readonly blocks: FakeBlock[] = [];
  readonly calls: RpcCall[] = [];
  /** Methods answered -32601 (the node does not offer them). */
  readonly lacking = new Set<string>();
  /** Answers that replace the model's for a method (a refusal, a malformed answer). */
  readonly overrides = new Map<string, Handler>();
  /** eth_getLogs refuses a wider block range than this, as hosted providers do ("exceeds limit of N"). */
  logRangeLimit = Infinity;

  constructor(
    readonly chainId: number,
    genesisTime = 1_700_000_000,
  ) {
    this.blocks.push({ number: 0, hash: hashOf(`${chainId}:0`), parentHash: `0x${'0'.repeat(64)}`, timestamp: genesisTime, txs: [] });
  }

  get head(): FakeBlock {
    return this.blocks[this.blocks.length - 1]!;
  }

  /** Mines a block holding these transactions, `dt` seconds after the previous one. */
  mine(txs: FakeTx[] = [], dt = 12): FakeBlock {
    const number = this.blocks.length;
    const b: FakeBlock = {
      number,
      hash: hashOf(`${this.chainId}:${number}`),
      parentHash: this.head.hash,
      timestamp: this.head.timestamp + dt,
      txs: txs.map((t, index) => ({ ...t, hash: hashOf(`${this.chainId}:${number}:${index}`), blockNumber: number, index })),
    };
    this.blocks.push(b);
    return b;
  }

  /** Empty blocks up to `n`. */
  mineTo(n: number, dt = 12): void {
    while (this.head.number < n) this.mine([], dt);
  }

  tx(hash: string): MinedTx | undefined {
    for (const b of this.blocks) for (const t of b.txs) if (t.hash === hash.toLowerCase()) return t;
    return undefined;
  }

  count(method: string): number {
    return this.calls.filter((c) => c.method === method).length;
  }

  private block(tag: unknown): FakeBlock | undefined {
    if (tag === 'latest') return this.head;
    return this.blocks[Number(tag)];
  }

  private logsOf(t: MinedTx, base: number) {
    return (t.logs ?? []).map((l, i) => ({
      address: l.address, topics: l.topics, data: l.data, blockNumber: hex(t.blockNumber), blockHash: this.blocks[t.blockNumber]!.hash,
      transactionHash: t.hash, transactionIndex: hex(t.index), logIndex: hex(base + i), removed: false,
    }));
  }

  /** A block's logs, numbered in transaction order across the block (as the log index is). */
  private blockLogs(b: FakeBlock) {
    let base = 0;
    return b.txs.flatMap((t) => {
      const ls = this.logsOf(t, base);
      base += ls.length;
      return ls;
    });
  }

  private txObject(t: MinedTx) {
    return {
      hash: t.hash, blockNumber: hex(t.blockNumber), blockHash: this.blocks[t.blockNumber]!.hash, transactionIndex: hex(t.index), type: '0x2',
      from: t.from, to: t.to, value: hex(t.value ?? 0n), nonce: hex(t.nonce ?? 0), gas: hex(t.gas ?? 100_000n), gasPrice: hex(t.gasPrice ?? 1_000_000_000n), input: t.input ?? '0x',
    };
  }

  private rootFrame(t: MinedTx): FakeFrame {
    return { type: t.to ? 'CALL' : 'CREATE', from: t.from, to: t.to ?? t.contractAddress ?? '0x', value: t.value ?? 0n, gas: t.gas ?? 100_000n, gasUsed: t.gasUsed ?? 21_000n, input: t.input ?? '0x', calls: t.calls };
  }

  private callTrace(f: FakeFrame): unknown {
    return {
      type: f.type, from: f.from, to: f.to, value: hex(f.value ?? 0n), gas: hex(f.gas ?? 0n), gasUsed: hex(f.gasUsed ?? 0n), input: f.input ?? '0x',
      ...(f.output ? { output: f.output } : {}), ...(f.error ? { error: f.error } : {}), ...(f.calls ? { calls: f.calls.map((c) => this.callTrace(c)) } : {}),
    };
  }

  /** The Parity (trace_*) form of a call tree: one entry per frame, depth-first, with its traceAddress. */
  private parity(t: MinedTx): unknown[] {
    const out: unknown[] = [];
    const walk = (f: FakeFrame, address: number[]) => {
      const create = f.type === 'CREATE' || f.type === 'CREATE2';
      const suicide = f.type === 'SELFDESTRUCT';
      out.push({
        type: create ? 'create' : suicide ? 'suicide' : 'call',
        action: create
          ? { from: f.from, value: hex(f.value ?? 0n), gas: hex(f.gas ?? 0n), init: f.input ?? '0x', creationMethod: f.type.toLowerCase() }
          : suicide
            ? { address: f.from, refundAddress: f.to, balance: hex(f.value ?? 0n) }
            : { callType: f.type.toLowerCase(), from: f.from, to: f.to, value: hex(f.value ?? 0n), gas: hex(f.gas ?? 0n), input: f.input ?? '0x' },
        result: f.error ? null : create ? { address: f.to, gasUsed: hex(f.gasUsed ?? 0n), code: '0x' } : suicide ? null : { gasUsed: hex(f.gasUsed ?? 0n), output: f.output ?? '0x' },
        ...(f.error ? { error: f.error } : {}),
        subtraces: f.calls?.length ?? 0,
        traceAddress: address,
        transactionHash: t.hash,
        transactionPosition: t.index,
        blockNumber: t.blockNumber,
        blockHash: this.blocks[t.blockNumber]!.hash,
      });
      (f.calls ?? []).forEach((c, i) => walk(c, [...address, i]));
    };
    walk(this.rootFrame(t), []);
    return out;
  }

  answer(method: string, params: unknown[], batched = false, request?: number): unknown {
    this.calls.push({ method, params, batched, ...(request !== undefined ? { request } : {}) });
    const o = this.overrides.get(method);
    return o ? o(params) : this.model(method, params);
  }

  /** The model's own answer (an override may start from it). */
  model(method: string, params: unknown[]): unknown {
    if (this.lacking.has(method)) throw new RpcError(-32601, `the method ${method} does not exist/is not available`);
    switch (method) {
      case 'eth_chainId':
        return hex(this.chainId);
      case 'eth_blockNumber':
        return hex(this.head.number);
      case 'eth_getBlockByNumber': {
        const b = this.block(params[0]);
        if (!b) return null;
        // The second parameter asks for whole transactions instead of their hashes.
        return { number: hex(b.number), hash: b.hash, parentHash: b.parentHash, timestamp: hex(b.timestamp), transactions: b.txs.map((t) => (params[1] ? this.txObject(t) : t.hash)) };
      }
      case 'eth_getTransactionByHash': {
        const t = this.tx(String(params[0]));
        return t ? this.txObject(t) : null;
      }
      case 'eth_getTransactionReceipt': {
        const t = this.tx(String(params[0]));
        if (!t) return null;
        const b = this.blocks[t.blockNumber]!;
        const before = b.txs.slice(0, t.index);
        const base = before.reduce((n, x) => n + (x.logs?.length ?? 0), 0);
        const cumulative = [...before, t].reduce((n, x) => n + (x.gasUsed ?? 21_000n), 0n);
        return {
          transactionHash: t.hash, status: hex(t.status ?? 1), gasUsed: hex(t.gasUsed ?? 21_000n), cumulativeGasUsed: hex(cumulative),
          effectiveGasPrice: hex(t.gasPrice ?? 1_000_000_000n), contractAddress: t.contractAddress ?? null, logs: this.logsOf(t, base),
        };
      }
      case 'debug_traceTransaction': {
        const t = this.tx(String(params[0]));
        if (!t) throw new RpcError(-32000, `transaction ${String(params[0])} not found`);
        return this.callTrace(this.rootFrame(t));
      }
      case 'debug_traceBlockByNumber': {
        const b = this.block(params[0]);
        if (!b) throw new RpcError(-32000, 'block not found');
        return b.txs.map((t) => ({ txHash: t.hash, result: this.callTrace(this.rootFrame(t)) }));
      }
      case 'trace_transaction': {
        const t = this.tx(String(params[0]));
        return t ? this.parity(t) : null;
      }
      case 'trace_block': {
        const b = this.block(params[0]);
        if (!b) return null;
        // The block reward: a trace of no transaction.
        return [...b.txs.flatMap((t) => this.parity(t)), { type: 'reward', action: { author: '0x' + '0'.repeat(40), rewardType: 'block', value: '0x0' }, result: null, subtraces: 0, traceAddress: [], transactionHash: null, transactionPosition: null, blockNumber: b.number, blockHash: b.hash }];
      }
      case 'trace_filter': {
        // Erigon's semantics: the traces of [fromBlock, toBlock] whose sender is in fromAddress or whose
        // recipient (a call's to, a creation's new address, a self-destruct's beneficiary) is in toAddress.
        const f = params[0] as { fromBlock: Hex; toBlock: Hex; fromAddress?: string[]; toAddress?: string[] };
        const lower = (xs: string[] | undefined) => xs?.map((x) => x.toLowerCase());
        const [froms, tos] = [lower(f.fromAddress), lower(f.toAddress)];
        type P = { action: { from?: string; address?: string; to?: string; refundAddress?: string }; result: { address?: string } | null };
        return this.blocks
          .slice(Number(f.fromBlock), Math.min(Number(f.toBlock), this.head.number) + 1)
          .flatMap((b) => b.txs.flatMap((t) => this.parity(t) as P[]))
          .filter((p) => {
            const from = (p.action.from ?? p.action.address)?.toLowerCase();
            const to = (p.action.to ?? p.result?.address ?? p.action.refundAddress)?.toLowerCase();
            return (!!froms && !!from && froms.includes(from)) || (!!tos && !!to && tos.includes(to));
          });
      }
      case 'eth_getLogs': {
        const f = params[0] as { fromBlock: Hex; toBlock: Hex; topics?: (Hex | Hex[] | null)[]; address?: string };
        const from = Number(f.fromBlock);
        const to = Math.min(Number(f.toBlock), this.head.number);
        if (to - from + 1 > this.logRangeLimit) throw new RpcError(-32602, `range ${to - from + 1} exceeds limit of ${this.logRangeLimit}`);
        const matches = (want: Hex | Hex[] | null | undefined, got: Hex | undefined) =>
          want === null || want === undefined || (got !== undefined && (Array.isArray(want) ? want.map((w) => w.toLowerCase()).includes(got.toLowerCase()) : want.toLowerCase() === got.toLowerCase()));
        return this.blocks
          .slice(from, to + 1)
          .flatMap((b) => this.blockLogs(b))
          .filter((l) => (!f.address || l.address.toLowerCase() === f.address.toLowerCase()) && (f.topics ?? []).every((w, i) => matches(w, l.topics[i])));
      }
      default:
        throw new RpcError(-32601, `the method ${method} does not exist/is not available`);
    }
  }
}

export interface FakeNode {
  url: string;
  close(): Promise<void>;
}

/** Serves `chain` on 127.0.0.1 (a free port) until closed. */
export async function serveChain(chain: FakeChain): Promise<FakeNode> {
  let requests = 0;
  const one = async (req: { id: unknown; method: string; params?: unknown[] }, batched: boolean, request: number) => {
    try {
      return { jsonrpc: '2.0', id: req.id, result: await chain.answer(req.method, req.params ?? [], batched, request) };
    } catch (e) {
      const code = e instanceof RpcError ? e.code : -32603;
      return { jsonrpc: '2.0', id: req.id, error: { code, message: e instanceof Error ? e.message : String(e) } };
    }
  };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', async () => {
      const parsed = JSON.parse(body) as Parameters<typeof one>[0] | Parameters<typeof one>[0][];
      const request = ++requests;
      const out = Array.isArray(parsed) ? await Promise.all(parsed.map((r) => one(r, true, request))) : await one(parsed, false, request);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(out));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/**
 * A chain id no other test of this process has used: the code under test keeps what it learnt of a chain
 * (its node's capabilities, kept facts, range limits) for the process, and unit files share one.
 */
export function freshChainId(): number {
  const g = globalThis as unknown as { __fakeEvmChainId?: number };
  g.__fakeEvmChainId ??= 0x7a0000;
  return g.__fakeEvmChainId++;
}

/**
 * Lantern's database as an in-memory PGlite under Lantern's own migrations, installed as the process's
 * database (lib/db's db()) until `restore`; what was there before comes back. One PGlite per process,
 * made once (its migrations take seconds; a mutation run runs a test file hundreds of times): tests keep
 * apart by chain id (freshChainId).
 */
export async function installTestDb(): Promise<{ pg: PGlite; restore(): Promise<void> }> {
  const g = globalThis as unknown as { __lanternDb?: Promise<Db>; __fakeEvmTestDb?: Promise<{ pg: PGlite; database: Db }> };
  const { pg, database } = await (g.__fakeEvmTestDb ??= openTestDb());
  const before = g.__lanternDb;
  g.__lanternDb = Promise.resolve(database);
  return {
    pg,
    async restore() {
      // A wallet's background fill may still be reading (its node already closed): it ends first, so it
      // never reaches for the default database (a PGlite on disk, whose start-up stalls the worker).
      const activity = (globalThis as { __lanternActivity?: { fills: Map<string, Promise<void>> } }).__lanternActivity;
      await Promise.allSettled([...(activity?.fills.values() ?? [])]);
      g.__lanternDb = before;
    },
  };
}

/**
 * A fresh PGlite under the migrations. Making one (initdb) takes seconds, 20 on a loaded machine, and a
 * mutation run starts many processes: the migrated database is kept as a data-dir dump in the system's
 * temporary directory, named for the migrations' text, and loaded from there (about five times faster).
 */
async function migratedPglite(): Promise<PGlite> {
  const key = createHash('sha256').update(migrations.map((m) => m.sql).join('\0')).digest('hex').slice(0, 16);
  const file = path.join(tmpdir(), `lantern-unit-pglite-${key}.tar`);
  if (existsSync(file)) return PGlite.create({ loadDataDir: new Blob([readFileSync(file)]) });
  const pg = await PGlite.create();
  for (const m of migrations) await pg.exec(m.sql);
  const dump = Buffer.from(await (await pg.dumpDataDir('none')).arrayBuffer());
  // Written whole, then renamed: a process reading it never sees half a dump.
  const part = `${file}.${process.pid}`;
  writeFileSync(part, dump);
  renameSync(part, file);
  return pg;
}

async function openTestDb(): Promise<{ pg: PGlite; database: Db }> {
  const pg = await migratedPglite();
  const wrap = (q: { query: PGlite['query']; exec: PGlite['exec'] }): Queryable => ({
    query: async <T,>(sql: string, params: unknown[] = []) => ({ rows: (await q.query<T>(sql, params)).rows }),
    exec: async (sql: string) => void (await q.exec(sql)),
  });
  let serial: Promise<unknown> = Promise.resolve();
  const database: Db = {
    ...wrap(pg),
    kind: 'pglite',
    transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      const run = serial.then(() => pg.transaction((tx) => fn(wrap(tx as unknown as PGlite))));
      serial = run.catch(() => undefined);
      return run;
    },
    // Shared by the process's tests: never closed by one of them.
    close: async () => undefined,
  };
  return { pg, database };
}

/** A test talks to a node over HTTP and, for most, to PGlite: on a loaded machine (a mutation run beside others' builds) the first takes seconds. */
export const NODE_TIMEOUT = { timeout: 30_000 };

/**
 * `chain` served as its chain id's configured node (EVM_RPC_URLS) while `fn` runs, then closed. Each test
 * takes a chain of its own: a chain's capabilities and kept facts are the process's.
 */
export async function onChain(chain: FakeChain, fn: (c: FakeChain) => Promise<void>): Promise<void> {
  const node = await serveChain(chain);
  vi.stubEnv('EVM_RPC_URLS', `0x${chain.chainId.toString(16)}=${node.url}`);
  // Parsed from this environment, whatever work an earlier test left running parsed meanwhile.
  resetConfigForTests();
  try {
    await fn(chain);
  } finally {
    await node.close();
  }
}

/** The test database (installTestDb) for the whole file: installed before its tests, restored after. */
export function testDbForFile(): { readonly pg: PGlite } {
  let dbh: Awaited<ReturnType<typeof installTestDb>> | undefined;
  beforeAll(async () => {
    dbh = await installTestDb();
  }, 60_000);
  afterAll(() => dbh?.restore());
  return {
    get pg() {
      if (!dbh) throw new Error('testDbForFile: the database is installed in beforeAll');
      return dbh.pg;
    },
  };
}
