import { describe, expect, it, vi } from 'vitest';
import { encodeAbiParameters, encodeEventTopics, parseAbi, parseEther, type Hex } from 'viem';
import { blockTimestamp, prefetchFacts, txFactsKept, txFactsMany } from '@/lib/sources/evm-node/tx-facts';
import { RpcMethodError, rpc } from '@/lib/sources/evm-node/rpc';
import { db } from '@/lib/db';
import { FakeChain, freshChainId, NODE_TIMEOUT, onChain, RpcError, testDbForFile, type FakeFrame, type FakeTx } from '../../support/fake-evm-node';

// txFactsMany and blockTimestamp against a node: a chain model answered over a local HTTP socket
// (tests/support/fake-evm-node.ts) and Lantern's database in PGlite. Expected facts are what the node's
// answers mean: receipt status, Transfer logs per ERC-20, callTracer frames below the top level (a
// frame under a failed one is reverted with it), Parity traces read as the same frames; what the node
// is asked, and how often, is counted from its own call log.
const ALICE = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const BOB = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc';
const TOKEN = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const VAULT = '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512';
const INNER = '0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0';

const transferTopics = encodeEventTopics({ abi: parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)']), eventName: 'Transfer', args: { from: ALICE, to: BOB } }) as Hex[];
const tokenTransfer: FakeTx = {
  from: ALICE, to: TOKEN, input: '0xa9059cbb0000', gasUsed: 51_000n,
  logs: [{ address: TOKEN, topics: transferTopics, data: encodeAbiParameters([{ type: 'uint256' }], [7n]) }],
};
// The vault pays bob 2 ETH, then calls a contract that sends 1 wei on and fails: that inner call and its child revert.
const vaultCalls: FakeFrame[] = [
  { type: 'CALL', from: VAULT, to: BOB, value: parseEther('2'), gas: 2300n, gasUsed: 0n },
  { type: 'CALL', from: VAULT, to: INNER, value: 0n, gas: 9000n, gasUsed: 9000n, input: '0x12345678', error: 'execution reverted', calls: [{ type: 'CALL', from: INNER, to: BOB, value: 1n }] },
];
const vaultWithdraw: FakeTx = { from: ALICE, to: VAULT, input: '0x3ccfd60b', gasUsed: 60_000n, calls: vaultCalls };
const plain: FakeTx = { from: ALICE, to: BOB, value: parseEther('1') };

/** The frames fromCallTrace / fromParityTraces give for vaultCalls: callTracer's view of the same calls. */
const vaultFrames = [
  { type: 'CALL', from: VAULT, to: BOB, value: '2000000000000000000', gas: '2300', gasUsed: '0', input: '0x', output: null, depth: 1, reverted: false },
  { type: 'CALL', from: VAULT, to: INNER, value: '0', gas: '9000', gasUsed: '9000', input: '0x12345678', output: null, depth: 1, reverted: true },
  { type: 'CALL', from: INNER, to: BOB, value: '1', gas: '0', gasUsed: '0', input: '0x', output: null, depth: 2, reverted: true },
];
// Parity gives a failed frame no result, so no gasUsed nor output; the rest reads alike.
const vaultFramesParity = vaultFrames.map((f, i) => (i === 1 ? { ...f, gasUsed: null } : { ...f, output: f.output ?? '0x' }));

/** The test's chain: ETH alone in block 1, two transactions that ran code in 2, one in 3, two more in 41 (unfinal at FINAL). */
function standard(c: FakeChain) {
  c.mine([plain]);
  c.mine([tokenTransfer, vaultWithdraw]);
  c.mine([{ ...vaultWithdraw, nonce: 1 }]);
  c.mineTo(40);
  c.mine([{ ...tokenTransfer, nonce: 2 }, { ...vaultWithdraw, nonce: 3 }]);
}
const TRACE_METHODS = ['trace_block', 'trace_transaction', 'trace_filter', 'debug_traceBlockByNumber', 'debug_traceTransaction'];
const KINDS = {
  parity: [] as string[],
  geth: ['trace_block', 'trace_transaction', 'trace_filter'],
  bare: TRACE_METHODS,
};
const FINAL = 30;


const dbh = testDbForFile();

// Each test its own chain and node: a chain's capabilities and kept facts are the process's.
async function onNode(kind: keyof typeof KINDS, build: (c: FakeChain) => void, fn: (c: FakeChain) => Promise<void>) {
  const c = new FakeChain(freshChainId());
  for (const m of KINDS[kind]) c.lacking.add(m);
  build(c);
  await onChain(c, fn);
}

/** The model's block trace without the transaction hashes (as some nodes answer). */
const unnamedBlockTraces = (c: FakeChain, params: unknown[]) =>
  (c.model('debug_traceBlockByNumber', params) as { txHash: string; result: unknown }[]).map((r) => ({ result: r.result }));
const hashes = (c: FakeChain, ...blocks: number[]) => blocks.flatMap((b) => c.blocks[b]!.txs.map((t) => t.hash));
/** Forgets the facts kept in this process's memory, as a change of chain does (chain.ts tells tx-facts). */
const forgetMemory = (chainId: number) => {
  for (const fn of (globalThis as unknown as { __lanternChain: { listeners: Set<(id: number) => void> } }).__lanternChain.listeners) fn(chainId);
};
const traceCalls = (c: FakeChain) => c.calls.filter((x) => (x.method.startsWith('trace_') && x.method !== 'trace_filter') || x.method.startsWith('debug_')).map((x) => `${x.method} ${String(x.params[0])}`).sort();

/**
 * A trace (the dearest read: it replays the block) travels in a request of its own, since a batch is
 * answered whole and it would hold back the quick reads sent beside it. Counted over the transactions'
 * own traces (the capability probe's trace of the genesis aside), beside whether the quick reads
 * (transactions, receipts) did travel in batches, so the count is not of a node that never sees one.
 */
const tracesInBatches = (c: FakeChain) => {
  const traces = c.calls.filter((x) => /^(trace_(block|transaction)|debug_trace)/.test(x.method) && x.params[0] !== '0x0');
  return { traces: traces.length, batched: traces.filter((x) => x.batched).length, quickBatched: c.calls.some((x) => x.method === 'eth_getTransactionReceipt' && x.batched) };
};

const lacking = (m: string) => () => {
  throw new RpcError(-32601, `the method ${m} does not exist/is not available`);
};

describe('txFactsMany against a node with Parity traces (trace_block, trace_transaction)', NODE_TIMEOUT, () => {
  it('reads each transaction, its receipt and block time; traces only what ran code, a block of two traced once', () =>
    onNode('parity', standard, async (c) => {
      const [p, t, v] = hashes(c, 1, 2);
      const [v3] = hashes(c, 3);
      const facts = await txFactsMany(c.chainId, [p!, t!, v!, v3!], FINAL);
      expect([...facts.keys()].sort()).toEqual([p, t, v, v3].sort());
      const fp = facts.get(p!)!;
      expect([fp.blockNumber, fp.txIndex, fp.timestamp, fp.from, fp.to, fp.value, fp.status, fp.calls]).toEqual([1, 0, c.blocks[1]!.timestamp, ALICE, BOB, '1000000000000000000', 1, []]);
      expect(facts.get(t!)!.erc20).toEqual([{ token: TOKEN, from: ALICE, to: BOB, value: '7', logIndex: 0 }]);
      expect(facts.get(t!)!.calls).toEqual([]);
      expect(facts.get(v!)!.calls).toEqual(vaultFramesParity);
      expect(facts.get(v3!)!.calls).toEqual(vaultFramesParity);
      expect([facts.get(v!)!.timestamp, facts.get(v3!)!.timestamp]).toEqual([c.blocks[2]!.timestamp, c.blocks[3]!.timestamp]);
      // The plain transfer is never traced; block 2 once for its two, block 3's one alone (the probe traced the genesis).
      expect(traceCalls(c)).toEqual(['trace_block 0x0', 'trace_block 0x2', 'trace_transaction ' + v3]);
      // One block read per block's time.
      expect(c.calls.filter((x) => x.method === 'eth_getBlockByNumber' && x.params[0] !== 'latest').map((x) => x.params[0]).sort()).toEqual(['0x1', '0x2', '0x3']);
      expect(tracesInBatches(c)).toEqual({ traces: 2, batched: 0, quickBatched: true });
    }));

  it("a page's transactions, receipts and block headers travel in batches of their own, never beside a window's eth_getLogs and trace_filter sent in the same tick (issue 22)", () =>
    onNode('parity', standard, async (c) => {
      const hs = hashes(c, 1, 2, 3);
      // A window's slow reads, sent at the very moment the facts' reads start (right after tx-facts has
      // looked for the transactions, and for a block's time, in the database), as a first page sends them.
      const d = await db();
      const query = d.query.bind(d);
      const windows: Promise<unknown>[] = [];
      const spy = vi.spyOn(d, 'query').mockImplementation((async (sql: string, params?: unknown[]) => {
        const r = await query(sql, params);
        if (/FROM evm_(tx|block) WHERE/.test(sql)) {
          const range = { fromBlock: '0x0', toBlock: '0x28' };
          windows.push(Promise.all([rpc(c.chainId, 'eth_getLogs', [{ ...range, topics: [] }]), rpc(c.chainId, 'trace_filter', [{ ...range, toAddress: [BOB] }])]));
        }
        return r;
      }) as typeof d.query);
      try {
        const facts = await txFactsMany(c.chainId, hs, FINAL, { traces: 'later' });
        expect([...facts.keys()].sort()).toEqual([...hs].sort());
        await Promise.all(windows);
      } finally {
        spy.mockRestore();
      }
      const requestsOf = (re: RegExp) => new Set(c.calls.filter((x) => re.test(x.method) && x.params[0] !== 'latest').map((x) => x.request));
      const factReads = requestsOf(/^eth_(getTransactionByHash|getTransactionReceipt|getBlockByNumber)$/);
      const windowReads = requestsOf(/^(eth_getLogs|trace_filter)$/);
      // The window's reads did go in batches, and so did the facts' (a node never sent a batch proves nothing).
      expect(c.calls.filter((x) => /^(eth_getLogs|trace_filter)$/.test(x.method)).every((x) => x.batched)).toBe(true);
      expect(c.calls.some((x) => x.method === 'eth_getTransactionReceipt' && x.batched)).toBe(true);
      expect(c.calls.some((x) => x.method === 'eth_getBlockByNumber' && x.params[0] !== 'latest' && x.batched)).toBe(true);
      expect([...factReads].filter((r) => windowReads.has(r))).toEqual([]);
    }));

  it("a page's facts in their batch of their own still time out: a receipt the node never answers fails the read as a timeout", async () => {
    // viem ends a request at its timeout through its own abort signal, which a batch of its own replaces (rpc.ts' lanes).
    vi.stubEnv('UPSTREAM_TIMEOUT_MS', '1000');
    let release!: () => void;
    const stalled = new Promise<void>((r) => (release = r));
    await onNode('parity', standard, async (c) => {
      const [stuck] = hashes(c, 1);
      c.overrides.set('eth_getTransactionReceipt', async (params) => {
        if (params[0] === stuck) await stalled;
        return c.model('eth_getTransactionReceipt', params);
      });
      try {
        // The node's chain checked and its tracing probed first: only the stalled read can time out.
        await txFactsMany(c.chainId, hashes(c, 2), FINAL);
        await expect(txFactsMany(c.chainId, [stuck!], FINAL)).rejects.toMatchObject({ code: 'upstream_timeout', message: expect.stringMatching(/eth_getTransaction(ByHash|Receipt) in time/) });
        expect(c.calls.find((x) => x.method === 'eth_getTransactionReceipt' && x.params[0] === stuck)!.batched).toBe(true);
      } finally {
        release();
      }
    });
  });

  it('final facts are kept: asked again, from memory; after memory is forgotten, from the database; neither asks the node', () =>
    onNode('parity', standard, async (c) => {
      const hs = hashes(c, 1, 2, 3, 41);
      const first = await txFactsMany(c.chainId, hs, FINAL);
      // Kept after the answer.
      await txFactsKept(c.chainId);
      const { rows } = await dbh.pg.query<{ hash: string; block_number: string }>('SELECT hash, block_number::text FROM evm_tx WHERE chain_id = $1', [c.chainId]);
      // Block 41 is above FINAL: not kept.
      expect(rows.map((r) => r.hash).sort()).toEqual(hashes(c, 1, 2, 3).sort());
      expect(rows.map((r) => Number(r.block_number)).sort()).toEqual([1, 2, 2, 3]);
      expect(JSON.parse((await dbh.pg.query<{ facts: string }>('SELECT facts FROM evm_tx WHERE hash = $1', [hs[2]])).rows[0]!.facts)).toEqual(first.get(hs[2]!));
      const finals = hashes(c, 1, 2, 3);
      c.calls.length = 0;
      const again = await txFactsMany(c.chainId, finals, FINAL);
      expect(finals.map((h) => again.get(h))).toEqual(finals.map((h) => first.get(h)));
      forgetMemory(c.chainId);
      const fromDb = await txFactsMany(c.chainId, finals, FINAL);
      expect(finals.map((h) => fromDb.get(h))).toEqual(finals.map((h) => first.get(h)));
      expect(c.calls).toEqual([]);
      // A mix: the kept ones from the database, only the unfinal ones from the node.
      forgetMemory(c.chainId);
      const mixed = await txFactsMany(c.chainId, [finals[0]!, ...hashes(c, 41)], FINAL);
      expect(mixed.size).toBe(3);
      expect(c.calls.filter((x) => x.method === 'eth_getTransactionByHash').map((x) => x.params[0]).sort()).toEqual(hashes(c, 41).sort());
      // Forgetting another chain keeps this one's memory: with its rows gone from the database, still no node call.
      await txFactsMany(c.chainId, finals, FINAL);
      await txFactsKept(c.chainId);
      await dbh.pg.query('DELETE FROM evm_tx WHERE chain_id = $1', [c.chainId]);
      forgetMemory(freshChainId());
      c.calls.length = 0;
      expect((await txFactsMany(c.chainId, finals, FINAL)).size).toBe(4);
      expect(await blockTimestamp(c.chainId, 2)).toBe(c.blocks[2]!.timestamp);
      expect(c.calls).toEqual([]);
    }));

  it('facts read across a change of chain are neither remembered nor kept: asked of the node again', () =>
    onNode('parity', standard, async (c) => {
      const hs = hashes(c, 2);
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let tracing!: () => void;
      const atNode = new Promise<void>((r) => (tracing = r));
      // The block's trace is held at the node while the chain changes (the node left the chain they were read from).
      c.overrides.set('trace_block', async (params) => {
        if (params[0] === '0x2') {
          tracing();
          await held;
        }
        return c.model('trace_block', params);
      });
      const read = txFactsMany(c.chainId, hs, FINAL);
      await atNode;
      forgetMemory(c.chainId);
      release();
      expect((await read).size).toBe(2);
      await txFactsKept(c.chainId);
      await new Promise((r) => setImmediate(r));
      expect((await dbh.pg.query('SELECT 1 FROM evm_tx WHERE chain_id = $1', [c.chainId])).rows).toEqual([]);
      c.calls.length = 0;
      await txFactsMany(c.chainId, hs, FINAL);
      expect(c.count('eth_getTransactionReceipt')).toBe(2);
      // Read on the chain as it is now: remembered and kept as ever.
      await txFactsKept(c.chainId);
      expect((await dbh.pg.query('SELECT 1 FROM evm_tx WHERE chain_id = $1', [c.chainId])).rows).toHaveLength(2);
    }));

  it('unfinal facts are not kept: read from the node each time, kept once their block is final', () =>
    onNode('parity', standard, async (c) => {
      const hs = hashes(c, 41);
      const a = await txFactsMany(c.chainId, hs, FINAL);
      expect(a.get(hs[1]!)!.calls).toEqual(vaultFramesParity);
      expect(c.count('eth_getTransactionReceipt')).toBe(2);
      const b = await txFactsMany(c.chainId, hs, FINAL);
      expect(b).toEqual(a);
      expect(c.count('eth_getTransactionReceipt')).toBe(4);
      await txFactsKept(c.chainId);
      // Its block trace is not kept either: traced again (the block at that height may be another by now).
      expect(traceCalls(c)).toEqual(['trace_block 0x0', 'trace_block 0x29', 'trace_block 0x29']);
      expect((await dbh.pg.query('SELECT 1 FROM evm_tx WHERE chain_id = $1', [c.chainId])).rows).toEqual([]);
      // Final at exactly its block: kept.
      await txFactsMany(c.chainId, hs, 41);
      await txFactsKept(c.chainId);
      expect((await dbh.pg.query('SELECT 1 FROM evm_tx WHERE chain_id = $1 AND block_number = 41', [c.chainId])).rows).toHaveLength(2);
      await txFactsMany(c.chainId, hs, 41);
      expect(c.count('eth_getTransactionReceipt')).toBe(6);
    }));

  it("traces 'later': answered without the calls of what ran code, which follow and are kept; the complete read is shared", () =>
    onNode('parity', (c) => (c.mine([plain, tokenTransfer, vaultWithdraw]), c.mineTo(20)), async (c) => {
      // The block trace is held until the partial facts are in.
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      c.overrides.set('trace_block', (params) => {
        const answer = c.model('trace_block', params);
        return params[0] === '0x0' ? answer : held.then(() => answer);
      });
      const hs = hashes(c, 1);
      const partial = await txFactsMany(c.chainId, hs, 10, { traces: 'later' });
      expect(hs.map((h) => partial.get(h)!.calls)).toEqual([[], undefined, undefined]);
      expect(partial.get(hs[1]!)!.erc20).toHaveLength(1);
      // Asked meanwhile for the complete facts, and for the partial ones again: no second read of the transactions.
      const complete = txFactsMany(c.chainId, hs, 10);
      const partialAgain = txFactsMany(c.chainId, [hs[2]!], 10, { traces: 'later' });
      expect((await partialAgain).get(hs[2]!)!.calls).toBeUndefined();
      release();
      const full = await complete;
      expect(hs.map((h) => full.get(h)!.calls)).toEqual([[], [], vaultFramesParity]);
      expect(c.count('eth_getTransactionByHash')).toBe(3);
      expect(c.count('trace_block')).toBe(2);
      c.calls.length = 0;
      expect((await txFactsMany(c.chainId, hs, 10, { traces: 'later' })).get(hs[2]!)!.calls).toEqual(vaultFramesParity);
      expect(c.calls).toEqual([]);
    }));

  it('a transaction the node does not have in a block fails the read, naming the hash; asked again, it is read again', () =>
    onNode('parity', standard, async (c) => {
      const missing = `0x${'ab'.repeat(32)}`;
      const e = await txFactsMany(c.chainId, [missing], FINAL).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(RpcMethodError);
      expect((e as Error).message).toMatch(new RegExp(`transaction ${missing} is not in a block`));
      await expect(txFactsMany(c.chainId, [missing], FINAL)).rejects.toThrow(/is not in a block/);
      expect(c.count('eth_getTransactionReceipt')).toBe(2);
    }));

  it('a transaction whose receipt the node does not have yet fails the read, naming the hash', () =>
    onNode('parity', standard, async (c) => {
      const [p] = hashes(c, 1);
      c.overrides.set('eth_getTransactionReceipt', () => null);
      const e = await txFactsMany(c.chainId, [p!], FINAL).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(RpcMethodError);
      expect((e as Error).message).toMatch(new RegExp(`transaction ${p} is not in a block`));
    }));

  it("prefetchFacts: a block where two of a page's transactions may run code is traced ahead, once, and the read takes that trace; every block's time is read ahead", () =>
    onNode(
      'parity',
      (c) => {
        c.mine([plain, { ...plain, nonce: 1 }]);
        c.mine([tokenTransfer, vaultWithdraw]);
        c.mine([{ ...vaultWithdraw, nonce: 1 }]);
        c.mineTo(40);
      },
      async (c) => {
        // As a window's answer tells them: two payments in block 1, two calls in 2, one in 3.
        prefetchFacts(c.chainId, [{ block: 1, mayRunCode: false }, { block: 1, mayRunCode: false }, { block: 2, mayRunCode: true }, { block: 2, mayRunCode: true }, { block: 3, mayRunCode: true }]);
        const blockReads = () => c.calls.filter((x) => x.method === 'eth_getBlockByNumber' && x.params[0] !== 'latest').map((x) => x.params[0]).sort();
        await vi.waitFor(() => expect([traceCalls(c), blockReads()]).toEqual([['trace_block 0x0', 'trace_block 0x2'], ['0x1', '0x2', '0x3']]), { timeout: 20_000, interval: 20 });
        // Block 3's one transaction is traced alone by the read, as ever; block 2 is not traced again.
        const hs = hashes(c, 1, 2, 3);
        const facts = await txFactsMany(c.chainId, hs, FINAL);
        expect(hs.map((h) => facts.get(h)!.calls)).toEqual([[], [], [], vaultFramesParity, vaultFramesParity]);
        expect(traceCalls(c)).toEqual(['trace_block 0x0', 'trace_block 0x2', `trace_transaction ${hs[4]}`]);
        expect(blockReads()).toEqual(['0x1', '0x2', '0x3']);
      },
    ));

  it('two reads at once of transactions of one block share one trace of the block', () =>
    onNode('parity', (c) => (c.mine([0, 1, 2, 3].map((nonce) => ({ ...vaultWithdraw, nonce }))), c.mineTo(20)), async (c) => {
      // The block's trace is held until both reads have asked for it.
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      c.overrides.set('trace_block', (params) => {
        const answer = c.model('trace_block', params);
        return params[0] === '0x0' ? answer : held.then(() => answer);
      });
      const hs = hashes(c, 1);
      const [first, second] = [hs.slice(0, 2), hs.slice(2)];
      // Each answered without its calls once its transactions are read, so each has asked for the trace by then.
      await txFactsMany(c.chainId, first, 10, { traces: 'later' });
      await txFactsMany(c.chainId, second, 10, { traces: 'later' });
      release();
      const [a, b] = await Promise.all([txFactsMany(c.chainId, first, 10), txFactsMany(c.chainId, second, 10)]);
      expect([...first.map((h) => a.get(h)!.calls), ...second.map((h) => b.get(h)!.calls)]).toEqual(hs.map(() => vaultFramesParity));
      expect(traceCalls(c)).toEqual(['trace_block 0x0', 'trace_block 0x1']);
    }));
});

describe('txFactsMany against a node with callTracer only (debug_*)', NODE_TIMEOUT, () => {
  it('traces a block of two with debug_traceBlockByNumber and one alone with debug_traceTransaction', () =>
    onNode('geth', standard, async (c) => {
      const hs = hashes(c, 1, 2, 3);
      const facts = await txFactsMany(c.chainId, hs, FINAL);
      expect(hs.map((h) => facts.get(h)!.calls)).toEqual([[], [], vaultFrames, vaultFrames]);
      expect(traceCalls(c)).toEqual(['debug_traceBlockByNumber 0x0', 'debug_traceBlockByNumber 0x2', `debug_traceTransaction ${hs[3]}`, 'trace_block 0x0']);
      // callTracer is asked for by name.
      expect(c.calls.find((x) => x.method === 'debug_traceTransaction')!.params[1]).toEqual({ tracer: 'callTracer' });
      expect(c.calls.find((x) => x.method === 'debug_traceBlockByNumber' && x.params[0] === '0x2')!.params[1]).toEqual({ tracer: 'callTracer' });
      expect(tracesInBatches(c)).toEqual({ traces: 2, batched: 0, quickBatched: true });
    }));

  it("a block trace that does not name its transactions is matched to the block's transactions in order", () =>
    onNode('geth', standard, async (c) => {
      c.overrides.set('debug_traceBlockByNumber', (params) => unnamedBlockTraces(c, params));
      const hs = hashes(c, 2);
      const facts = await txFactsMany(c.chainId, hs, FINAL);
      expect(hs.map((h) => facts.get(h)!.calls)).toEqual([[], vaultFrames]);
      // The block's one trace is enough: no transaction traced alone.
      expect(c.count('debug_traceTransaction')).toBe(0);
    }));

  it('a block trace that names no transaction and has more results than the block has transactions: traced one by one', () =>
    onNode('geth', standard, async (c) => {
      c.overrides.set('debug_traceBlockByNumber', (params) => {
        const list = unnamedBlockTraces(c, params);
        return params[0] === '0x2' ? [...list, list[1]] : list;
      });
      const hs = hashes(c, 2);
      const facts = await txFactsMany(c.chainId, hs, FINAL);
      expect(hs.map((h) => facts.get(h)!.calls)).toEqual([[], vaultFrames]);
      expect(c.count('debug_traceTransaction')).toBe(2);
    }));

  it('a block trace that names no transaction, of a block the node no longer has (a reorg meanwhile): traced one by one', () =>
    onNode('geth', standard, async (c) => {
      c.overrides.set('debug_traceBlockByNumber', (params) => unnamedBlockTraces(c, params));
      // The block's time was read before; its body is gone now.
      expect(await blockTimestamp(c.chainId, 2)).toBe(c.blocks[2]!.timestamp);
      c.overrides.set('eth_getBlockByNumber', (params) => (params[0] === '0x2' ? null : c.model('eth_getBlockByNumber', params)));
      const hs = hashes(c, 2);
      const facts = await txFactsMany(c.chainId, hs, FINAL);
      expect(hs.map((h) => facts.get(h)!.calls)).toEqual([[], vaultFrames]);
      expect(c.count('debug_traceTransaction')).toBe(2);
    }));

  it('a block trace with a failed result: traced one by one', () =>
    onNode('geth', standard, async (c) => {
      c.overrides.set('debug_traceBlockByNumber', (params) => {
        const list = c.model('debug_traceBlockByNumber', params) as { txHash: string; result?: unknown; error?: string }[];
        return params[0] === '0x2' ? [list[0], { txHash: list[1]!.txHash, error: 'tracer timed out' }] : list;
      });
      const facts = await txFactsMany(c.chainId, hashes(c, 2), FINAL);
      expect(hashes(c, 2).map((h) => facts.get(h)!.calls)).toEqual([[], vaultFrames]);
      expect(c.count('debug_traceTransaction')).toBe(2);
    }));
});

describe('txFactsMany when tracing fails or is missing', NODE_TIMEOUT, () => {
  it('a node without any tracer: calls null where code ran, [] where none did', () =>
    onNode('bare', standard, async (c) => {
      const hs = hashes(c, 1, 2, 3);
      const facts = await txFactsMany(c.chainId, hs, FINAL);
      expect(hs.map((h) => facts.get(h)!.calls)).toEqual([[], null, null, null]);
      // Probed once (the genesis), then never asked again.
      expect(traceCalls(c)).toEqual(['debug_traceBlockByNumber 0x0', 'trace_block 0x0']);
    }));

  it('a block too large to trace (refused, not unsupported): its transactions are traced one by one', () =>
    onNode('parity', (c) => (c.mine([tokenTransfer, vaultWithdraw, { ...vaultWithdraw, nonce: 1 }]), c.mineTo(20)), async (c) => {
      c.overrides.set('trace_block', (params) => {
        if (params[0] === '0x0') return [];
        throw new RpcError(-32000, 'trace timed out');
      });
      const hs = hashes(c, 1);
      const facts = await txFactsMany(c.chainId, hs, 10);
      expect(hs.map((h) => facts.get(h)!.calls)).toEqual([[], vaultFramesParity, vaultFramesParity]);
      expect(traceCalls(c)).toEqual(['trace_block 0x0', 'trace_block 0x1', ...hs.map((h) => `trace_transaction ${h}`)].sort());
    }));

  it('a block traced by number that lacks some of them (another block after a reorg): those are traced alone', () =>
    onNode('parity', (c) => (c.mine([tokenTransfer, vaultWithdraw]), c.mineTo(20)), async (c) => {
      const hs = hashes(c, 1);
      c.overrides.set('trace_block', (params) =>
        params[0] === '0x0' ? [] : (c.model('trace_block', params) as { transactionHash: string | null }[]).filter((t) => t.transactionHash !== hs[1]),
      );
      const facts = await txFactsMany(c.chainId, hs, 10);
      expect(hs.map((h) => facts.get(h)!.calls)).toEqual([[], vaultFramesParity]);
      expect(traceCalls(c)).toEqual(['trace_block 0x0', 'trace_block 0x1', `trace_transaction ${hs[1]}`]);
    }));

  it('trace_* offered at the probe but refused in use as missing: debug_* from then on; debug_* refused too: no calls', () =>
    onNode('parity', (c) => (c.mine([tokenTransfer, vaultWithdraw]), c.mine([vaultWithdraw]), c.mine([vaultWithdraw]), c.mineTo(20)), async (c) => {
      c.overrides.set('trace_block', (params) => (params[0] === '0x0' ? [] : lacking('trace_block')()));
      c.overrides.set('trace_transaction', lacking('trace_transaction'));
      const hs = hashes(c, 1, 2);
      const facts = await txFactsMany(c.chainId, hs, 10);
      expect(hs.map((h) => facts.get(h)!.calls)).toEqual([[], vaultFrames, vaultFrames]);
      const used = c.calls.filter((x) => x.params[0] !== '0x0' && /^(trace_(block|transaction)|debug_)/.test(x.method)).map((x) => x.method);
      expect(used.filter((m) => m.startsWith('debug_')).sort()).toEqual(['debug_traceBlockByNumber', 'debug_traceTransaction']);
      // debug_traceTransaction refused in use too: no tracer left, the calls are unknown.
      c.overrides.set('debug_traceTransaction', lacking('debug_traceTransaction'));
      const [h3] = hashes(c, 3);
      expect((await txFactsMany(c.chainId, [h3!], 10)).get(h3!)!.calls).toBeNull();
      c.calls.length = 0;
      const [v] = hashes(c, 2);
      await txFactsKept(c.chainId);
      forgetMemory(c.chainId);
      await dbh.pg.query('DELETE FROM evm_tx WHERE chain_id = $1', [c.chainId]);
      expect((await txFactsMany(c.chainId, [v!], 10)).get(v!)!.calls).toBeNull();
      expect(traceCalls(c)).toEqual([]);
    }));

  it('debug_traceBlockByNumber refused in use as missing: its transactions are not traced either', () =>
    onNode('geth', (c) => (c.mine([tokenTransfer, vaultWithdraw]), c.mineTo(20)), async (c) => {
      c.overrides.set('debug_traceBlockByNumber', (params) => (params[0] === '0x0' ? [] : lacking('debug_traceBlockByNumber')()));
      const hs = hashes(c, 1);
      const facts = await txFactsMany(c.chainId, hs, 10);
      expect(hs.map((h) => facts.get(h)!.calls)).toEqual([null, null]);
      expect(c.count('debug_traceTransaction')).toBe(0);
    }));

  it('an error that is not the node refusing the method fails the read', () =>
    onNode('parity', (c) => (c.mine([vaultWithdraw]), c.mineTo(20)), async (c) => {
      c.overrides.set('trace_transaction', () => {
        throw new RpcError(-32000, 'missing trie node');
      });
      await expect(txFactsMany(c.chainId, hashes(c, 1), 10)).rejects.toThrow(/missing trie node/);
    }));
});

describe('blockTimestamp', NODE_TIMEOUT, () => {
  it("reads a block's time once: then from memory, or from the database once memory is forgotten", () =>
    onNode('parity', standard, async (c) => {
      const n = 17;
      const at = c.blocks[n]!.timestamp;
      expect(await Promise.all([blockTimestamp(c.chainId, n), blockTimestamp(c.chainId, n)])).toEqual([at, at]);
      const reads = () => c.calls.filter((x) => x.method === 'eth_getBlockByNumber' && x.params[0] === '0x11').length;
      expect(reads()).toBe(1);
      // Kept in the database once the answer that read it has gone out.
      await txFactsKept(c.chainId);
      expect((await dbh.pg.query<{ timestamp: string }>('SELECT timestamp::text FROM evm_block WHERE chain_id = $1 AND number = $2', [c.chainId, n])).rows).toEqual([{ timestamp: String(at) }]);
      forgetMemory(c.chainId);
      expect(await blockTimestamp(c.chainId, n)).toBe(at);
      expect(await blockTimestamp(c.chainId, n)).toBe(at);
      expect(reads()).toBe(1);
      // Another block is another read.
      expect(await blockTimestamp(c.chainId, n + 1)).toBe(c.blocks[n + 1]!.timestamp);
      // Kept in memory, it is answered without the database.
      await dbh.pg.query('DELETE FROM evm_block WHERE chain_id = $1', [c.chainId]);
      expect(await blockTimestamp(c.chainId, n)).toBe(at);
      expect(reads()).toBe(1);
    }));

  it('after a change of chain (its blocks dropped and memory forgotten, as chain.ts does), a block time is read again', () =>
    onNode('parity', standard, async (c) => {
      const n = 17;
      expect(await blockTimestamp(c.chainId, n)).toBe(c.blocks[n]!.timestamp);
      // The node's block n is now another, mined a minute later.
      c.blocks[n]!.timestamp += 60;
      await dbh.pg.query('DELETE FROM evm_block WHERE chain_id = $1 AND number >= $2', [c.chainId, n]);
      forgetMemory(c.chainId);
      expect(await blockTimestamp(c.chainId, n)).toBe(c.blocks[n]!.timestamp);
    }));

  it('a block time read across a change of chain is neither remembered nor kept; those read beside it on the chain as it is are', () =>
    onNode('parity', standard, async (c) => {
      const n = 17;
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let asked!: () => void;
      const atNode = new Promise<void>((r) => (asked = r));
      c.overrides.set('eth_getBlockByNumber', async (params) => {
        if (params[0] === '0x11') {
          asked();
          await held;
        }
        return c.model('eth_getBlockByNumber', params);
      });
      const read = blockTimestamp(c.chainId, n);
      await atNode;
      forgetMemory(c.chainId);
      // Read after the change: kept, several of them together.
      const others = await Promise.all([18, 19, 20].map((b) => blockTimestamp(c.chainId, b)));
      expect(others).toEqual([18, 19, 20].map((b) => c.blocks[b]!.timestamp));
      release();
      expect(await read).toBe(c.blocks[n]!.timestamp);
      await txFactsKept(c.chainId);
      const kept = await dbh.pg.query<{ number: string }>('SELECT number::text FROM evm_block WHERE chain_id = $1 ORDER BY number', [c.chainId]);
      expect(kept.rows.map((r) => Number(r.number))).toEqual([18, 19, 20]);
      // Not remembered either: asked of the node again.
      const before = c.calls.filter((x) => x.method === 'eth_getBlockByNumber' && x.params[0] === '0x11').length;
      expect(await blockTimestamp(c.chainId, n)).toBe(c.blocks[n]!.timestamp);
      expect(c.calls.filter((x) => x.method === 'eth_getBlockByNumber' && x.params[0] === '0x11').length).toBe(before + 1);
    }));

  it('a block the node does not have is an error naming it', () =>
    onNode('parity', standard, async (c) => {
      await expect(blockTimestamp(c.chainId, 999)).rejects.toThrow(/block 999 is not known to the node/);
    }));
});
