import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyPageSchema, type WalletTransaction } from '../../lib/interface/history';
import { oracle, startForeignChain, ZERO, type ForeignChain, type OracleTx } from '../support/foreign-chain';
import { startLantern, type LanternInstance } from '../support/lantern';
import { NODE_KINDS, startRpcProxy, type LogLimits, type RpcProxy } from '../support/rpc-proxy';

// The kinds of node Lantern meets, made from one anvil chain (chain 31337: health names it `devnet`) (tests/support/foreign-chain.ts) by a proxy:
// Reth without ots (trace_* only), a node without debug_ (internal calls from trace_transaction), Geth (no
// ots_, no trace_*: eth_ and debug_ only) and hosted providers
// that refuse eth_getLogs over more than 2,000 blocks or 10,000 results, in Infura's and in Alchemy's
// words. The chain spreads its transactions over more than 4,200 blocks, so every wallet's log queries
// meet the range limit. What each wallet's history must hold comes from the node (blocks, receipts,
// logs, callTracer): everything by the rule where the node allows it; on Geth, exactly the transactions
// in which the wallet is the sender, recipient or created contract or a token-transfer party.

// EVM_REORG_DEPTH's default, set explicitly: blocks this close to the head are read again by later scans.
const REORG_DEPTH = 12;
let chain: ForeignChain;
let facts: OracleTx[];
interface Kind {
  name: string;
  proxy: RpcProxy;
  lantern?: LanternInstance;
}
const kinds: Record<'traceOnly' | 'noDebug' | 'geth' | 'infura' | 'alchemy', Kind> = {} as never;

const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const SINGLE = '0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62';
const BATCH = '0x4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb';
const INFURA: LogLimits = { maxBlocks: 2000, maxResults: 10_000, style: 'infura' };
// The chain is too small for 10,000 results: a cap as small as the busiest single block allows (see
// busiestBlock) makes the result-count refusal happen too, and always leaves a range that works.
const ALCHEMY: LogLimits = { maxBlocks: 2000, maxResults: 10_000, style: 'alchemy' };

const GETH_MISSING =
  "This node offers neither ots_ nor trace_filter, so Lantern cannot see internal calls when it looks for a wallet's transactions. " +
  "Not shown: transactions in which this wallet only took part through a contract's internal call, such as ETH it received " +
  "from a contract (a withdrawal, a payout, a self-destructed contract's balance) or a call a contract made to it, when no token " +
  'transfer names it. Shown: every transaction it sent, received or created, and every token transfer to or from it. ' +
  'A node with ots_ (Erigon, anvil) or trace_filter (Erigon, Reth) shows them all.';

beforeAll(async () => {
  // anvil keeps the state of old blocks (which tracing needs) only when told to, on a chain this long.
  chain = await startForeignChain(29, { extraArgs: ['--max-persisted-states', '20000'] });
  // Three rounds 2,100 empty blocks apart: each wallet's activity spans more than two 2,000-block windows.
  await chain.round(90);
  await chain.rpc.call('anvil_mine', ['0x834']);
  await chain.round(90);
  await chain.rpc.call('anvil_mine', ['0x834']);
  await chain.round(90);
  facts = await oracle(chain.rpc);
  const proxy = async (setup: (p: RpcProxy) => void) => {
    const p = await startRpcProxy(chain.url);
    setup(p);
    return p;
  };
  kinds.traceOnly = { name: 'trace only (Reth without ots)', proxy: await proxy((p) => (p.refuseMethods = NODE_KINDS.traceOnly)) };
  kinds.noDebug = { name: 'no debug_ (Erigon or Reth without the debug namespace)', proxy: await proxy((p) => (p.refuseMethods = /^debug_/)) };
  kinds.geth = { name: 'Geth-like (no ots_, no trace_)', proxy: await proxy((p) => (p.refuseMethods = NODE_KINDS.gethLike)) };
  kinds.infura = { name: 'provider, Infura wording', proxy: await proxy((p) => (p.logLimits = INFURA)) };
  ALCHEMY.maxResults = await busiestBlock();
  // Alchemy serves trace_ and debug_ but no ots_: Lantern reads windows of blocks, whose logs can pass the cap.
  kinds.alchemy = {
    name: 'provider, Alchemy wording (trace_, no ots_)',
    proxy: await proxy((p) => {
      p.logLimits = ALCHEMY;
      p.refuseMethods = NODE_KINDS.traceOnly;
    }),
  };
  await Promise.all(Object.values(kinds).map(async (k) => (k.lantern = await startLantern({ EVM_RPC_URL: k.proxy.url, EVM_REORG_DEPTH: String(REORG_DEPTH) }))));
}, 300_000);

/** The most transfer logs one of Lantern's filters (one per topic position an address takes as sender or recipient) can match in a single block. */
async function busiestBlock(): Promise<number> {
  const logs = (await chain.rpc.call('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }])) as { blockNumber: string; topics: string[] }[];
  const counts = new Map<string, number>();
  const count = (k: string) => counts.set(k, (counts.get(k) ?? 0) + 1);
  for (const l of logs) {
    const [t0, t1, t2, t3] = l.topics;
    // Keyed by topic position: Transfer's recipient and ERC-1155's sender (both topic 2) share a filter.
    const sides = t0 === TRANSFER ? [`1:${t1}`, `2:${t2}`] : t0 === SINGLE || t0 === BATCH ? [`2:${t2}`, `3:${t3}`] : [];
    // The zero address (mints, burns) is no wallet Lantern is asked about.
    for (const side of sides) if (!side.endsWith('0'.repeat(40))) count(`${l.blockNumber}:${side}`);
  }
  return Math.max(...counts.values());
}

afterAll(async () => {
  await Promise.allSettled(Object.values(kinds).flatMap((k) => [k.lantern?.stop(), k.proxy.stop()]));
  await chain?.stop();
});

/** Every page to the end (the cursor contract: full pages until the last, no repeats). */
async function allHistory(lantern: LanternInstance, wallet: string, order: 'ASC' | 'DESC', limit: number): Promise<WalletTransaction[]> {
  const out: WalletTransaction[] = [];
  let cursor = '';
  for (let n = 0; n < 500; n++) {
    const res = await fetch(`${lantern.url}/api/v2.2/wallets/${wallet}/history?order=${order}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    const p = historyPageSchema.parse(body);
    out.push(...p.result);
    if (!p.cursor) break;
    expect(p.result.length).toBe(limit);
    cursor = p.cursor;
  }
  expect(new Set(out.map((t) => t.hash)).size, `repeats in ${wallet}'s ${order} pages`).toBe(out.length);
  return out;
}

const wallets = () => [...new Set(facts.flatMap((t) => [...t.parties]))].filter((a) => a !== ZERO).sort();
const byPosition = (a: OracleTx, b: OracleTx) => a.block - b.block || a.index - b.index;
const transfersOf = (t: WalletTransaction) => t.native_transfers.map((n) => `${n.from_address}>${n.to_address}:${n.value}`).sort();

/** Every party's history, ASC to the end (DESC too for the scenario's wallets), against `want`. */
async function checkAll(kind: Kind, want: (wallet: string) => OracleTx[]) {
  const byHash = new Map(facts.map((t) => [t.hash, t]));
  const own = new Set(chain.wallets.map((w) => w.toLowerCase()));
  for (const wallet of wallets()) {
    const expected = want(wallet).sort(byPosition).map((t) => t.hash);
    const asc = await allHistory(kind.lantern!, wallet, 'ASC', 23);
    expect(asc.map((t) => t.hash), `${kind.name}: history of ${wallet}`).toEqual(expected);
    if (own.has(wallet)) expect((await allHistory(kind.lantern!, wallet, 'DESC', 40)).map((t) => t.hash), `${kind.name}: DESC of ${wallet}`).toEqual([...expected].reverse());
    // The transactions shown are whole: their ETH movements are the node's (debug_ or trace_ on every kind).
    for (const t of asc) expect(transfersOf(t), `${kind.name}: native transfers of ${t.hash}`).toEqual(byHash.get(t.hash)!.transfers);
  }
}

const decode = (html: string) => html.replace(/&#x27;|&#39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, '&');

/** RPC calls by method, for the record (figures go to the report, not into assertions on speed). */
function callCounts(p: RpcProxy): string {
  const by = new Map<string, number>();
  for (const c of p.calls) by.set(c.method, (by.get(c.method) ?? 0) + 1);
  return `${p.calls.length} calls: ${[...by].sort((a, b) => b[1] - a[1]).map(([m, n]) => `${m} ${n}`).join(', ')}`;
}

describe('node kinds: each wallet history equals what the node lets Lantern see', { shuffle: false }, () => {
  it('the chain is long enough for the range limit and has internal-only parties', () => {
    expect(Math.max(...facts.map((t) => t.block))).toBeGreaterThan(4200);
    expect(facts.length).toBeGreaterThanOrEqual(270);
    // Transactions a block body and the logs cannot attribute to some party: what Geth cannot show.
    expect(facts.filter((t) => [...t.parties].some((p) => !t.shallow.has(p))).length).toBeGreaterThan(20);
  });

  it('trace only (Reth without ots): every wallet complete; ots_ asked once; health says complete', async () => {
    const k = kinds.traceOnly;
    await checkAll(k, (w) => facts.filter((t) => t.parties.has(w)));
    expect(k.proxy.calls.filter((c) => c.method.startsWith('ots_')).map((c) => c.method)).toEqual(['ots_getApiLevel']);
    expect(k.proxy.calls.some((c) => c.method === 'trace_filter')).toBe(true);
    const h = await (await fetch(`${k.lantern!.url}/api/health`)).json();
    expect(h.evm_history.devnet).toEqual({ complete: true, found_with: ['trace_filter', 'eth_getLogs (token transfers)'], missing: null });
    // Nothing to warn about: the page has no coverage note.
    const res = await fetch(`${k.lantern!.url}/wallet/${chain.wallets[0]}`);
    expect(res.status).toBe(200);
    expect(await res.text()).not.toContain('data-coverage');
    console.log(`[node kinds] ${k.name}: ${callCounts(k.proxy)}`);
  }, 600_000);

  it('no debug_ (Erigon or Reth without it): internal transfers from trace_transaction, every wallet complete', async () => {
    const k = kinds.noDebug;
    await checkAll(k, (w) => facts.filter((t) => t.parties.has(w)));
    // The capability probe finds trace_block offered, so debug_ is never asked: parity traces are (per
    // transaction, or per block where a page has several in one).
    const methods = k.proxy.calls.map((c) => c.method);
    expect(methods.filter((m) => m.startsWith('debug_'))).toEqual([]);
    expect(k.proxy.calls.filter((c) => c.method === 'trace_transaction' || (c.method === 'trace_block' && c.params[0] !== '0x0')).length).toBeGreaterThan(0);
    console.log(`[node kinds] ${k.name}: ${callCounts(k.proxy)}`);
  }, 600_000);

  it('Geth-like: exactly the sender/recipient/creation and token-transfer transactions; health and page say which are not shown', async () => {
    const k = kinds.geth;
    await checkAll(k, (w) => facts.filter((t) => t.shallow.has(w)));
    // What is missing, wallet by wallet: the transactions in which it is only an internal-call party.
    const missing = new Map(wallets().map((w) => [w, facts.filter((t) => t.parties.has(w) && !t.shallow.has(w)).length]));
    for (const heir of chain.heirs) {
      // Heirs only ever receive ETH from a SELFDESTRUCT or a CREATE2 child: nothing of theirs can be shown.
      const h = heir.toLowerCase();
      if (!missing.has(h)) continue;
      expect(facts.filter((t) => t.shallow.has(h))).toEqual([]);
      expect(missing.get(h)).toBeGreaterThan(0);
    }
    expect(chain.wallets.filter((w) => missing.get(w.toLowerCase())! > 0).length).toBeGreaterThan(0);
    // The node was never asked for ots_ or trace_ beyond the one probe each (trace_block: the tracer); block bodies were read once per block.
    expect(k.proxy.calls.filter((c) => /^(ots_|trace_)/.test(c.method)).map((c) => c.method).sort()).toEqual(['ots_getApiLevel', 'trace_block', 'trace_filter']);
    // Every block was read; a final one exactly once. Blocks within the reorg depth of the head are read
    // again by each later scan (block-parties.ts: the unfinal tail is never counted as done).
    const chainHead = Number(await chain.rpc.call('eth_blockNumber', []));
    const bodies = k.proxy.calls.filter((c) => c.method === 'eth_getBlockByNumber' && c.params[1] === true).map((c) => Number(c.params[0]));
    const final = bodies.filter((b) => b <= chainHead - REORG_DEPTH);
    expect(new Set(final).size).toBe(final.length);
    expect(new Set(bodies).size).toBe(chainHead);

    const h = await (await fetch(`${k.lantern!.url}/api/health`)).json();
    expect(h.evm_history.devnet).toEqual({
      complete: false,
      found_with: ['eth_getBlockByNumber (sender, recipient, created contract; each block once)', 'eth_getLogs (token transfers)'],
      missing: GETH_MISSING,
    });
    // The wallet page says it in words, above the rows it can show; a wallet it can show nothing of gets the same words.
    const withGaps = chain.wallets.find((w) => missing.get(w.toLowerCase())! > 0)!;
    for (const w of [withGaps, chain.heirs[0]!]) {
      const res = await fetch(`${k.lantern!.url}/wallet/${w}`);
      expect(res.status).toBe(200);
      const html = decode(await res.text());
      expect(html).toContain(`data-coverage="incomplete">${GETH_MISSING}</p>`);
    }
    // The published API answers the heir's (empty) history: 200, not a 5xx.
    const heir = await fetch(`${k.lantern!.url}/api/v2.2/wallets/${chain.heirs[0]}/history`);
    expect(heir.status).toBe(200);
    expect(historyPageSchema.parse(await heir.json()).result).toEqual([]);
    const hidden = [...missing].filter(([, n]) => n > 0);
    console.log(`[node kinds] ${k.name}: ${callCounts(k.proxy)}; not shown: ${hidden.reduce((a, [, n]) => a + n, 0)} wallet-transaction pairs over ${hidden.length} of ${missing.size} addresses`);
  }, 600_000);

  it('a provider refusing eth_getLogs over 2,000 blocks or 10,000 results (Infura wording): complete, ranges split', async () => {
    const k = kinds.infura;
    await checkAll(k, (w) => facts.filter((t) => t.parties.has(w)));
    // Once the node named its limit, every later query keeps to it: the first wallet's three filters (one per topic position) were the only refusals.
    expect(k.proxy.logRefusals).toEqual({ range: 3, results: 0 });
    const spans = k.proxy.calls.filter((c) => c.method === 'eth_getLogs' && /^0x/.test(String((c.params[0] as { toBlock?: string }).toBlock)));
    const wide = spans.filter((c) => {
      const f = c.params[0] as { fromBlock: string; toBlock: string };
      return Number(f.toBlock) - Number(f.fromBlock) + 1 > INFURA.maxBlocks;
    });
    expect(wide.length).toBe(3);
    const h = await (await fetch(`${k.lantern!.url}/api/health`)).json();
    expect(h.evm_history.devnet.complete).toBe(true);
    console.log(`[node kinds] ${k.name}: ${callCounts(k.proxy)}; refused ${JSON.stringify(k.proxy.logRefusals)}`);
  }, 600_000);

  it('a provider refusing by result count too (Alchemy wording, its suggested range): complete, no 5xx', async () => {
    const k = kinds.alchemy;
    await checkAll(k, (w) => facts.filter((t) => t.parties.has(w)));
    // Beyond the first wallet's three range refusals, windows with more logs than the cap were refused and split.
    expect(ALCHEMY.maxResults).toBeLessThan(50);
    expect(k.proxy.logRefusals.range).toBe(3);
    expect(k.proxy.logRefusals.results).toBeGreaterThan(0);
    console.log(`[node kinds] ${k.name}: ${callCounts(k.proxy)}; refused ${JSON.stringify(k.proxy.logRefusals)}`);
  }, 600_000);
});
