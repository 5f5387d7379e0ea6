import 'server-only';
import type { Hex } from 'viem';
import { db, type Db } from '@/lib/db';
import { log } from '@/lib/log';
import { parseTransferLog, type Erc20Move, type NftMove, type RawLog } from './logs';
import { onChainChange } from './chain';
import { RpcMethodError, hexNum, rpc } from './rpc';
import { fromParityTraces, type CallFrame, type ParityTrace } from './transfers';
import { markUnsupported, nodeCapabilities, type BlockTracer } from './capabilities';

/**
 * Wallet-independent facts of one transaction (transaction, receipt, transfers, call tree, block time),
 * fetched from the node once and kept in memory and in the database when the block is final, so a
 * history page costs a keyset query plus reads of immutable rows, not node calls.
 */

export interface TxFacts {
  hash: string;
  blockNumber: number;
  blockHash: string;
  timestamp: number;
  txIndex: number;
  type: string | null;
  from: string;
  to: string | null;
  value: string;
  nonce: string;
  gas: string;
  gasPrice: string;
  selector: string | null;
  status: 0 | 1;
  gasUsed: string;
  cumulativeGasUsed: string;
  contractAddress: string | null;
  erc20: Erc20Move[];
  nft: NftMove[];
  /**
   * Calls below the top level, in execution order; null when the node offers no tracer; undefined while
   * they are still being read (a first sight's page, see txFactsMany): never kept so.
   */
  calls?: CallFrame[] | null;
}

const MEMORY_MAX = 20_000;
/**
 * Reuse rule: facts of a transaction in a final block (at or below head - EVM_REORG_DEPTH), in memory and
 * in evm_tx, until the chain check (chain.ts) finds the node left the chain they were read from: then
 * the rows above the fork are dropped and this memory is forgotten (a transaction re-included after a
 * reorg has another block). Unfinal transactions are read from the node each time.
 */
const memory = new Map<string, TxFacts>();
/** How many chain changes this process has seen per chain: facts read before one are neither remembered nor kept. */
const changes = new Map<number, number>();
onChainChange((chainId) => {
  for (const m of [memory, blockMemory, earlyTraces]) for (const k of m.keys()) if (k.startsWith(`${chainId}:`)) m.delete(k);
  changes.set(chainId, (changes.get(chainId) ?? 0) + 1);
});

function remember(chainId: number, f: TxFacts) {
  if (memory.size >= MEMORY_MAX) memory.delete(memory.keys().next().value!);
  memory.set(`${chainId}:${f.hash}`, f);
}

/**
 * Facts of these transactions, in no particular order. Blocks up to `finalBlock` are cached for good.
 *
 * `traces: 'later'` (a wallet page's first sight, issue 22): the facts are answered once the
 * transactions, receipts and block times are read, with `calls: undefined` on those that ran code; their
 * traces go on being read, and the complete facts are kept as usual, so the complete page asked next
 * (the published API, the browser's follow-up) waits only for what is left. A transaction being read
 * is read once, whoever asks for it meanwhile.
 */
export async function txFactsMany(chainId: number, hashes: string[], finalBlock: number, opts: { traces?: 'now' | 'later' } = {}): Promise<Map<string, TxFacts>> {
  const staged = txFactsStaged(chainId, hashes, finalBlock);
  return opts.traces === 'later' ? staged.partial : staged.complete;
}

/**
 * txFactsMany's two stages at once: `partial` (traces possibly still being read, as with traces 'later')
 * and `complete`. What a page derives from the rest of the facts (token facts, method labels) can then
 * be read while the traces are (history.ts).
 */
export function txFactsStaged(chainId: number, hashes: string[], finalBlock: number): { partial: Promise<Map<string, TxFacts>>; complete: Promise<Map<string, TxFacts>> } {
  const known = knownOrReading(chainId, hashes, finalBlock);
  const stage = (which: 'partial' | 'complete') =>
    known.then(async ({ out, pending }) => {
      const m = new Map(out);
      for (const f of await Promise.all(pending.map((r) => r[which]))) m.set(f.hash, f);
      return m;
    });
  const partial = stage('partial');
  const complete = stage('complete');
  // A caller may await only one of them: the other is never unhandled.
  partial.catch(() => undefined);
  complete.catch(() => undefined);
  return { partial, complete };
}

/** The facts in memory or kept, and the reads of the others (started here where nobody reads them yet). */
async function knownOrReading(chainId: number, hashes: string[], finalBlock: number): Promise<{ out: Map<string, TxFacts>; pending: { partial: Promise<TxFacts>; complete: Promise<TxFacts> }[] }> {
  const out = new Map<string, TxFacts>();
  let missing = hashes.filter((h) => {
    const m = memory.get(`${chainId}:${h}`);
    if (m) out.set(h, m);
    return !m;
  });
  if (missing.length === 0) return { out, pending: [] };
  const d = await db();
  const { rows } = await d.query<{ hash: string; facts: string }>('SELECT hash, facts FROM evm_tx WHERE chain_id = $1 AND hash = ANY($2)', [chainId, missing]);
  for (const r of rows) {
    const f = JSON.parse(r.facts) as TxFacts;
    remember(chainId, f);
    out.set(r.hash, f);
  }
  missing = missing.filter((h) => !out.has(h));
  if (missing.length === 0) return { out, pending: [] };
  // Those another caller is reading already, and the rest, read now (once, for everyone). Looked up
  // again: a read may have ended (its facts remembered) while the query above ran.
  const toRead = missing.filter((h) => !reads.has(`${chainId}:${h}`) && !memory.has(`${chainId}:${h}`));
  if (toRead.length > 0) startReading(chainId, toRead, finalBlock);
  const pending: { partial: Promise<TxFacts>; complete: Promise<TxFacts> }[] = [];
  for (const h of missing) {
    const r = reads.get(`${chainId}:${h}`);
    const m = memory.get(`${chainId}:${h}`);
    if (r) pending.push(r);
    else if (m) out.set(h, m);
  }
  return { out, pending };
}

/**
 * Transactions being read from the node (their facts without traces first, then complete) and blocks
 * being traced: on globalThis, so the route bundles (the published API, the wallet page) share one read.
 */
const gr = globalThis as unknown as {
  __lanternTxReads?: Map<string, { partial: Promise<TxFacts>; complete: Promise<TxFacts> }>;
  __lanternBlockTraces?: Map<string, Promise<Map<string, CallFrame[]> | null>>;
};
const reads = (gr.__lanternTxReads ??= new Map());

function startReading(chainId: number, hashes: string[], finalBlock: number): void {
  const seen = changes.get(chainId) ?? 0;
  const read = Promise.all(hashes.map((h) => readTx(chainId, h)));
  const times = read.then((rs) => Promise.all(rs.map((r) => blockTimestamp(chainId, Number(r.tx.blockNumber)))));
  const partial = Promise.all([read, times]).then(([rs, ts]) => rs.map((r, i) => toFacts(r, ts[i]!, ranNoCode(r.tx, r.receipt) ? [] : undefined)));
  const complete = (async () => {
    const rs = await read;
    // A trace replays the block up to the transaction, the dearest read of a page: only where code ran,
    // and one per block where several of these transactions share one.
    const [calls, ts] = await Promise.all([traceMany(chainId, rs.filter((r) => !ranNoCode(r.tx, r.receipt)).map((r) => r.tx)), times]);
    const fetched = rs.map((r, i) => toFacts(r, ts[i]!, ranNoCode(r.tx, r.receipt) ? [] : (calls.get(r.tx.hash.toLowerCase()) ?? null)));
    // Remembered now and kept in the database after the answer (a page waits for neither the INSERT
    // nor its CPU): until then this read stays in `reads`, so no reader in this process misses them.
    if ((changes.get(chainId) ?? 0) === seen) for (const f of fetched) if (f.blockNumber <= finalBlock) remember(chainId, f);
    return fetched;
  })();
  const written = complete.then((fetched) => keepLater(chainId, fetched.filter((f) => f.blockNumber <= finalBlock), seen));
  // Nobody may be waiting for the complete facts (a first sight's page already answered): never unhandled.
  complete.catch(() => undefined);
  const done = written.finally(() => {
    for (const h of hashes) if (reads.get(`${chainId}:${h}`)?.complete === byHash.get(h)) reads.delete(`${chainId}:${h}`);
  });
  done.catch(() => undefined);
  const pick = (list: Promise<TxFacts[]>, h: string) => list.then((fs) => fs.find((f) => f.hash === h.toLowerCase())!);
  const byHash = new Map(hashes.map((h) => [h, pick(complete, h)] as const));
  for (const h of hashes) {
    const c = byHash.get(h)!;
    c.catch(() => undefined);
    const p = pick(partial, h);
    p.catch(() => undefined);
    reads.set(`${chainId}:${h}`, { partial: p, complete: c });
  }
}

const KEEP_AFTER_MS = 100;
const gw = globalThis as unknown as { __lanternTxFactWrites?: Map<number, Promise<void>> };
const writes = (gw.__lanternTxFactWrites ??= new Map<number, Promise<void>>());

/**
 * Resolves once every final transaction's facts and every block time read so far on the chain are in
 * evm_tx and evm_block (or their write failed and was logged).
 */
export function txFactsKept(chainId: number): Promise<void> {
  return writes.get(chainId) ?? Promise.resolve();
}

/**
 * Queues `write` after the chain's pending ones, a moment after the page that read its data has gone out
 * (the database may run in this thread, PGlite, and a page's answer must not wait behind an INSERT's CPU);
 * dropped after a chain change since the data was read (its clean-up has run).
 */
function keepAfterAnswer(chainId: number, seen: number, what: Record<string, unknown>, write: (d: Db) => Promise<void>): Promise<void> {
  // The database taken now: nothing after the delay reads the configuration (a test's may be gone by then).
  const database = db();
  database.catch(() => undefined);
  const queued = txFactsKept(chainId)
    .then(() => new Promise((r) => setTimeout(r, KEEP_AFTER_MS)))
    .then(async () => {
      if ((changes.get(chainId) ?? 0) !== seen) return;
      await write(await database);
    })
    // Not kept this time: read from the node again once they leave memory.
    .catch((e: unknown) => log().warn({ chainId, ...what, err: e instanceof Error ? e.message : String(e) }, 'facts read from the node could not be kept; they are read again next time'));
  writes.set(chainId, queued);
  void queued.finally(() => {
    if (writes.get(chainId) === queued) writes.delete(chainId);
  });
  return queued;
}

function keepLater(chainId: number, facts: TxFacts[], seen: number): Promise<void> {
  if (facts.length === 0) return Promise.resolve();
  return keepAfterAnswer(chainId, seen, { txs: facts.length }, async (d) => {
    const values = facts.map((_, i) => `($1, $${i * 3 + 2}, $${i * 3 + 3}, $${i * 3 + 4})`).join(',');
    await d.query(`INSERT INTO evm_tx (chain_id, hash, block_number, facts) VALUES ${values} ON CONFLICT DO NOTHING`, [
      chainId,
      ...facts.flatMap((f) => [f.hash, f.blockNumber, JSON.stringify(f)]),
    ]);
  });
}

/** Block times read from the node and not yet written, per chain and chain change: written together, in one INSERT. */
const blocksToKeep = new Map<string, Map<number, number>>();

function keepBlockLater(chainId: number, n: number, timestamp: number, seen: number): void {
  const key = `${chainId}:${seen}`;
  let batch = blocksToKeep.get(key);
  if (batch) return void batch.set(n, timestamp);
  batch = new Map([[n, timestamp]]);
  blocksToKeep.set(key, batch);
  const taken = batch;
  void keepAfterAnswer(chainId, seen, { blocks: taken.size }, async (d) => {
    // Those read until now join this write; a block read after this point starts the next one.
    if (blocksToKeep.get(key) === taken) blocksToKeep.delete(key);
    const rows = [...taken];
    const values = rows.map((_, i) => `($1, $${i * 2 + 2}, $${i * 2 + 3})`).join(',');
    await d.query(`INSERT INTO evm_block (chain_id, number, timestamp) VALUES ${values} ON CONFLICT DO NOTHING`, [chainId, ...rows.flat()]);
  }).finally(() => {
    if (blocksToKeep.get(key) === taken) blocksToKeep.delete(key);
  });
}

/** A transaction and its receipt as eth_getTransactionByHash / eth_getTransactionReceipt answer (the fields read). */
export interface RpcTx {
  hash: string; blockNumber: Hex; blockHash: string; transactionIndex: Hex; type?: Hex; from: string; to: string | null;
  value: Hex; nonce: Hex; gas: Hex; gasPrice?: Hex; input: Hex;
}
export interface RpcReceipt {
  status: Hex; gasUsed: Hex; cumulativeGasUsed: Hex; effectiveGasPrice?: Hex; contractAddress: string | null; logs: RawLog[];
}
/** One frame of debug_traceTransaction's callTracer answer. */
export interface CallTrace {
  type: string; from: string; to?: string; value?: Hex; gas?: Hex; gasUsed?: Hex; input?: Hex; output?: Hex; error?: string; calls?: CallTrace[];
}

async function readTx(chainId: number, hash: string): Promise<{ tx: RpcTx; receipt: RpcReceipt }> {
  // In a batch of their own (rpc.ts' facts lane): a page's rows wait for them alone, not for the slow
  // reads of its window (eth_getLogs, trace_filter) sent in the same tick (issue 22).
  const [tx, receipt] = await Promise.all([
    rpc<RpcTx | null>(chainId, 'eth_getTransactionByHash', [hash], { lane: 'facts' }),
    rpc<RpcReceipt | null>(chainId, 'eth_getTransactionReceipt', [hash], { lane: 'facts' }),
  ]);
  if (!tx || !receipt || !tx.blockNumber) throw new RpcMethodError('eth_getTransactionReceipt', undefined, `transaction ${hash} is not in a block`);
  return { tx, receipt };
}

/** The facts of one transaction from the node's answers (pure: the reads are the callers'); `calls` undefined: still being read. */
export function toFacts({ tx, receipt }: { tx: RpcTx; receipt: RpcReceipt }, timestamp: number, calls: CallFrame[] | null | undefined): TxFacts {
  const blockNumber = Number(tx.blockNumber);
  const erc20: Erc20Move[] = [];
  const nft: NftMove[] = [];
  for (const log of receipt.logs) {
    const t = parseTransferLog(log);
    if (t.erc20) erc20.push(t.erc20);
    if (t.nft) nft.push(...t.nft);
  }
  const lower = (a: string | null | undefined) => (a ? a.toLowerCase() : null);
  return {
    hash: tx.hash.toLowerCase(),
    blockNumber,
    blockHash: tx.blockHash,
    timestamp,
    txIndex: Number(tx.transactionIndex),
    type: tx.type !== undefined ? String(Number(tx.type)) : null,
    from: tx.from.toLowerCase(),
    to: lower(tx.to),
    value: BigInt(tx.value).toString(),
    nonce: BigInt(tx.nonce).toString(),
    gas: BigInt(tx.gas).toString(),
    gasPrice: BigInt(receipt.effectiveGasPrice ?? tx.gasPrice ?? '0x0').toString(),
    selector: tx.input && tx.input.length >= 10 ? tx.input.slice(0, 10).toLowerCase() : null,
    status: Number(receipt.status) === 1 ? 1 : 0,
    gasUsed: BigInt(receipt.gasUsed).toString(),
    cumulativeGasUsed: BigInt(receipt.cumulativeGasUsed).toString(),
    contractAddress: lower(receipt.contractAddress),
    erc20,
    nft,
    calls,
  };
}

/**
 * A call with no input that used exactly the intrinsic 21,000 gas ran no opcode that costs gas, so it made
 * no internal call (every CALL, CREATE or SELFDESTRUCT costs gas; so does reaching a precompile or a
 * delegated EOA's code).
 */
export function ranNoCode(tx: { to: string | null; input: string }, receipt: { gasUsed: string }): boolean {
  return tx.to !== null && (tx.input === '0x' || tx.input === '') && BigInt(receipt.gasUsed) === 21_000n;
}

/** Internal calls below the top level of a callTracer tree, in execution order. */
export function fromCallTrace(root: CallTrace): CallFrame[] {
  const out: CallFrame[] = [];
  const walk = (c: CallTrace, depth: number, reverted: boolean) => {
    const r = reverted || !!c.error;
    if (depth > 0) {
      out.push({
        type: c.type.toUpperCase(), from: c.from.toLowerCase(), to: c.to ? c.to.toLowerCase() : null,
        value: BigInt(c.value ?? '0x0').toString(), gas: c.gas ? BigInt(c.gas).toString() : null,
        gasUsed: c.gasUsed ? BigInt(c.gasUsed).toString() : null, input: c.input ?? '0x', output: c.output ?? null, depth, reverted: r,
      });
    }
    for (const s of c.calls ?? []) walk(s, depth + 1, r);
  };
  walk(root, 0, false);
  return out;
}

/** How many of a block's traced transactions make one trace of the whole block the cheaper read. */
const BLOCK_TRACE_FROM = 2;

/**
 * Internal calls of these transactions (by lower-case hash; null where the node offers no tracer).
 * Tracing one transaction replays its block up to it, so where at least BLOCK_TRACE_FROM of them share
 * a block (on average they sit halfway down it) the block is traced once instead: `trace_block`, or
 * `debug_traceBlockByNumber` (callTracer), as the capability probe found (capabilities.ts), else one
 * `trace_transaction` / `debug_traceTransaction` each.
 */
async function traceMany(chainId: number, txs: RpcTx[]): Promise<Map<string, CallFrame[] | null>> {
  const out = new Map<string, CallFrame[] | null>();
  if (txs.length === 0) return out;
  const blocks = new Map<number, RpcTx[]>();
  for (const t of txs) {
    const n = Number(t.blockNumber);
    blocks.set(n, [...(blocks.get(n) ?? []), t]);
  }
  await Promise.all(
    [...blocks].map(async ([n, inBlock]) => {
      if (inBlock.length >= BLOCK_TRACE_FROM) {
        const traced = await traceBlock(chainId, n);
        // A block traced by number may be another than these transactions' after a reorg: those missing are traced alone.
        if (traced) {
          inBlock = inBlock.filter((t) => {
            const calls = traced.get(t.hash.toLowerCase());
            if (calls !== undefined) out.set(t.hash.toLowerCase(), calls);
            return calls === undefined;
          });
        }
      }
      await Promise.all(inBlock.map(async (t) => out.set(t.hash.toLowerCase(), await traceTx(chainId, t.hash))));
    }),
  );
  return out;
}

/** Which tracing the chain's node offers, with what its calls have taught since the probe. */
async function tracer(chainId: number): Promise<BlockTracer> {
  return (await nodeCapabilities(chainId)).blockTrace;
}

/** One transaction's internal calls: trace_transaction, else debug_traceTransaction (callTracer), else null. */
async function traceTx(chainId: number, hash: string): Promise<CallFrame[] | null> {
  for (;;) {
    const t = await tracer(chainId);
    if (t === null) return null;
    const method = t === 'debug_traceBlockByNumber' ? 'debug_traceTransaction' : 'trace_transaction';
    try {
      if (method === 'debug_traceTransaction') return fromCallTrace(await rpc<CallTrace>(chainId, method, [hash, { tracer: 'callTracer' }], { alone: true }));
      return fromParityTraces(await rpc<ParityTrace[]>(chainId, method, [hash], { alone: true }));
    } catch (e) {
      if (!(e instanceof RpcMethodError && e.unsupported)) throw e;
      markUnsupported(chainId, method);
    }
  }
}

/**
 * Internal calls of every transaction of block `n`, by lower-case hash; null when the node traces no
 * blocks or refused this one for another reason than not offering the method (a block too large to
 * trace in its time limit, say): its transactions are then traced one by one.
 */
function traceBlock(chainId: number, n: number): Promise<Map<string, CallFrame[]> | null> {
  // Two pages (or a page and the transaction view) asking at once share one trace.
  const k = `${chainId}:${n}`;
  const early = earlyTraces.get(k);
  if (early) {
    earlyTraces.delete(k);
    return early;
  }
  let reading = blockTraces.get(k);
  if (!reading) {
    reading = readBlockTrace(chainId, n).finally(() => blockTraces.delete(k));
    blockTraces.set(k, reading);
  }
  return reading;
}
const blockTraces = (gr.__lanternBlockTraces ??= new Map());

/** Block traces started ahead of the transactions' reads (prefetchFacts), each taken once by traceMany, or dropped after this. */
const EARLY_TRACE_MS = 10_000;
const earlyTraces = new Map<string, Promise<Map<string, CallFrame[]> | null>>();

/**
 * Starts what a page's facts of these transactions will need, from what a window's answer already tells of
 * them (block, and a hint that code ran): their blocks' times, and a trace of each block where at least
 * BLOCK_TRACE_FROM of them may have run code (traceMany's own rule), so neither waits for the
 * transactions' reads. A hint that proves wrong costs a read, never an answer: traceMany takes the trace
 * by hash and reads alone whatever it lacks.
 */
export function prefetchFacts(chainId: number, rows: { block: number; mayRunCode: boolean }[]): void {
  const code = new Map<number, number>();
  for (const r of rows) {
    void blockTimestamp(chainId, r.block).catch(() => undefined);
    if (r.mayRunCode) code.set(r.block, (code.get(r.block) ?? 0) + 1);
  }
  for (const [n, count] of code) {
    const k = `${chainId}:${n}`;
    if (count < BLOCK_TRACE_FROM || earlyTraces.has(k)) continue;
    const p = traceBlock(chainId, n);
    p.catch(() => undefined);
    earlyTraces.set(k, p);
    setTimeout(() => {
      if (earlyTraces.get(k) === p) earlyTraces.delete(k);
    }, EARLY_TRACE_MS).unref();
  }
}

async function readBlockTrace(chainId: number, n: number): Promise<Map<string, CallFrame[]> | null> {
  for (;;) {
    const method = await tracer(chainId);
    if (method === null) return null;
    const out = new Map<string, CallFrame[]>();
    try {
      if (method === 'debug_traceBlockByNumber') {
        const list = await rpc<{ txHash?: string; result?: CallTrace; error?: string }[]>(chainId, method, [hexNum(n), { tracer: 'callTracer' }], { alone: true });
        // Nodes that do not name each result's transaction answer in block order.
        const hashes = list.some((r) => !r.txHash) ? await blockTxHashes(chainId, n) : null;
        for (const [i, r] of list.entries()) {
          const hash = (r.txHash ?? hashes?.[i])?.toLowerCase();
          if (!hash || !r.result) return null;
          out.set(hash, fromCallTrace(r.result));
        }
      } else {
        const byTx = new Map<string, ParityTrace[]>();
        for (const t of await rpc<ParityTrace[]>(chainId, method, [hexNum(n)], { alone: true })) {
          // Block rewards belong to no transaction.
          if (!t.transactionHash) continue;
          const h = t.transactionHash.toLowerCase();
          byTx.set(h, [...(byTx.get(h) ?? []), t]);
        }
        for (const [h, ts] of byTx) out.set(h, fromParityTraces(ts));
      }
      return out;
    } catch (e) {
      if (!(e instanceof RpcMethodError)) throw e;
      if (!e.unsupported) return null;
      markUnsupported(chainId, method);
    }
  }
}

async function blockTxHashes(chainId: number, n: number): Promise<string[] | null> {
  const b = await rpc<{ transactions: string[] } | null>(chainId, 'eth_getBlockByNumber', [hexNum(n), false]);
  return b ? b.transactions : null;
}

/**
 * Reuse rule: a block's timestamp is kept (memory and evm_block), unfinal blocks too, because the chain
 * check drops the blocks above a fork and clears this memory whenever a kept block is replaced.
 */
const blockMemory = new Map<string, number>();

/** A block's timestamp (see the rule above). */
export function blockTimestamp(chainId: number, n: number): Promise<number> {
  const k = `${chainId}:${n}`;
  const m = blockMemory.get(k);
  if (m !== undefined) return Promise.resolve(m);
  // A page's transactions mostly share a few blocks: one read per block, however many ask at once.
  let reading = blockReads.get(k);
  if (!reading) {
    reading = readBlockTimestamp(chainId, n, k).finally(() => blockReads.delete(k));
    blockReads.set(k, reading);
  }
  return reading;
}
const blockReads = new Map<string, Promise<number>>();

async function readBlockTimestamp(chainId: number, n: number, k: string): Promise<number> {
  const seen = changes.get(chainId) ?? 0;
  const d = await db();
  const { rows } = await d.query<{ timestamp: string }>('SELECT timestamp FROM evm_block WHERE chain_id = $1 AND number = $2', [chainId, n]);
  const current = () => (changes.get(chainId) ?? 0) === seen;
  if (rows[0]) {
    if (current()) blockMemory.set(k, Number(rows[0].timestamp));
    return Number(rows[0].timestamp);
  }
  const b = await rpc<{ timestamp: Hex } | null>(chainId, 'eth_getBlockByNumber', [hexNum(n), false], { lane: 'facts' });
  if (!b) throw new RpcMethodError('eth_getBlockByNumber', undefined, `block ${n} is not known to the node`);
  const ts = Number(b.timestamp);
  // Remembered now and kept after the answer (a page's rows wait for neither the INSERT nor its place in
  // the embedded database's queue); not at all if the chain changed meanwhile.
  if (current()) {
    blockMemory.set(k, ts);
    keepBlockLater(chainId, n, ts, seen);
  }
  return ts;
}
