import { createPublicClient, formatUnits, http } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyPageSchema, type HistoryPage, type WalletTransaction } from '../../lib/interface/history';
import { nftPageSchema } from '../../lib/interface/nfts';
import { expectMatchesNode, partiesOfLogs } from '../support/holdings-oracle';
import { oracle, startForeignChain, ZERO, type ForeignChain, type OracleTx } from '../support/foreign-chain';
import { startLantern, type LanternInstance } from '../support/lantern';
import { startRpcProxy, type RpcProxy } from '../support/rpc-proxy';

// Lantern in node mode on a chain it did not write (tests/support/foreign-chain.ts): several hundred
// random transactions among 8 wallets over OpenZeppelin tokens, a WETH-like wrapper, a DELEGATECALL
// proxy, a CREATE2 factory, SELFDESTRUCT, CALLCODE, STATICCALL, reverted frames and transactions. What
// every wallet's history must hold comes from the node alone (blocks, receipts, logs, callTracer traces,
// balances), never from the scenario. Three Lantern instances read the same chain: directly (ots_ plus
// trace_filter), through a proxy whose node has no trace_filter (SELFDESTRUCT beneficiaries from the
// per-chain block scan) and through one with no ots_ (trace_filter alone). Every wallet's tokens and
// approvals are checked against the node too (tests/support/holdings-oracle.ts).

let chain: ForeignChain;
let facts: OracleTx[];
const instances: { name: string; lantern: LanternInstance; proxy?: RpcProxy }[] = [];

beforeAll(async () => {
  chain = await startForeignChain();
  await chain.round(360);
  facts = await oracle(chain.rpc);
  const noTraceFilter = await startRpcProxy(chain.url);
  noTraceFilter.refuseMethods = /^trace_/;
  const noOts = await startRpcProxy(chain.url);
  noOts.refuseMethods = /^ots_/;
  // A short unfinal tail: the chain is a few dozen blocks, and with the default (12) most of it would be
  // unfinal, so every page would read its transactions from the node again instead of from the database.
  // EVM_HEAD_TTL_MS=0: each request reads the node's head, so the last check sees the blocks it adds
  // without waiting out the head's shared lifetime (as in evm-reorg.test.ts).
  const env = { EVM_REORG_DEPTH: '2', EVM_HEAD_TTL_MS: '0' };
  const [direct, a, b] = await Promise.all([
    startLantern({ ...env, EVM_RPC_URL: chain.url }),
    startLantern({ ...env, EVM_RPC_URL: noTraceFilter.url }),
    startLantern({ ...env, EVM_RPC_URL: noOts.url }),
  ]);
  instances.push({ name: 'ots + trace_filter', lantern: direct }, { name: 'no trace_filter', lantern: a, proxy: noTraceFilter }, { name: 'no ots', lantern: b, proxy: noOts });
}, 300_000);

afterAll(async () => {
  await Promise.allSettled(instances.flatMap((i) => [i.lantern.stop(), i.proxy?.stop()]));
  await chain?.stop();
});

async function page(lantern: LanternInstance, wallet: string, order: 'ASC' | 'DESC', limit: number, cursor = ''): Promise<HistoryPage> {
  const res = await fetch(`${lantern.url}/api/v2.2/wallets/${wallet}/history?order=${order}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  return historyPageSchema.parse(body);
}

/** Every page to the end; the cursor contract: full pages until the last, no repeats. */
async function allHistory(lantern: LanternInstance, wallet: string, order: 'ASC' | 'DESC', limit: number, start: { cursor: string; got: WalletTransaction[] } = { cursor: '', got: [] }) {
  const out = [...start.got];
  let cursor = start.cursor;
  for (let n = 0; n < 500; n++) {
    const p = await page(lantern, wallet, order, limit, cursor);
    out.push(...p.result);
    if (!p.cursor) break;
    expect(p.result.length).toBe(limit);
    cursor = p.cursor;
  }
  expect(new Set(out.map((t) => t.hash)).size, `repeats in ${wallet}'s ${order} pages`).toBe(out.length);
  return out;
}

/** The wallets to check: every party of every transaction, contracts and heirs included. */
const partiesOf = (txs: OracleTx[]) => [...new Set(txs.flatMap((t) => [...t.parties]))].filter((a) => a !== ZERO).sort();
const expectedFor = (txs: OracleTx[], wallet: string) => txs.filter((t) => t.parties.has(wallet)).sort((a, b) => a.block - b.block || a.index - b.index);
const transfersOf = (t: WalletTransaction) => t.native_transfers.map((n) => `${n.from_address}>${n.to_address}:${n.value}`).sort();
const tokensOf = (t: WalletTransaction) =>
  [
    ...t.erc20_transfer.map((e) => `erc20:${e.address}:${e.from_address}>${e.to_address}:${e.value}`),
    ...t.nft_transfers.map((n) => `nft:${n.token_address}:${n.token_id}:${n.from_address}>${n.to_address}:${n.amount}`),
  ].sort();

/** A token's decimals as its contract answers `decimals()`, or null when it does not. */
const decimalsCache = new Map<string, Promise<number | null>>();
function decimalsOf(token: string): Promise<number | null> {
  let p = decimalsCache.get(token);
  if (!p) {
    p = chain.rpc.call('eth_call', [{ to: token, data: '0x313ce567' }, 'latest']).then(
      (out) => ((out as string).length >= 66 ? Number(BigInt((out as string).slice(0, 66))) : null),
      () => null,
    );
    decimalsCache.set(token, p);
  }
  return p;
}

/** History of every wallet, both orders, against the oracle; returns the ASC lists. */
async function checkAll(lantern: LanternInstance, txs: OracleTx[], limit: number): Promise<Map<string, WalletTransaction[]>> {
  const byHash = new Map(txs.map((t) => [t.hash, t]));
  const out = new Map<string, WalletTransaction[]>();
  for (const wallet of partiesOf(txs)) {
    const want = expectedFor(txs, wallet).map((t) => t.hash);
    const asc = await allHistory(lantern, wallet, 'ASC', limit);
    expect(asc.map((t) => t.hash), `ASC history of ${wallet}`).toEqual(want);
    const desc = await allHistory(lantern, wallet, 'DESC', limit);
    expect(desc.map((t) => t.hash), `DESC history of ${wallet}`).toEqual([...want].reverse());
    for (const t of asc) {
      expect(transfersOf(t), `native transfers of ${t.hash}`).toEqual(byHash.get(t.hash)!.transfers);
      expect(tokensOf(t), `token transfers of ${t.hash}`).toEqual(byHash.get(t.hash)!.tokens);
      for (const e of t.erc20_transfer) {
        const decimals = await decimalsOf(e.address);
        expect([e.token_decimals, e.value_formatted], `decimals of ${e.address} in ${t.hash}`).toEqual(
          decimals === null ? [null, null] : [String(decimals), formatUnits(BigInt(e.value), decimals)],
        );
      }
    }
    out.set(wallet, asc);
  }
  return out;
}

// In written order: the last check adds blocks to the chain the others compare with the oracle.
describe('a foreign chain: every wallet history equals what the node says', { shuffle: false }, () => {
  it('the scenario has what it claims (hundreds of transactions, packed blocks, every awkward kind)', () => {
    expect(facts.length).toBeGreaterThanOrEqual(360);
    const perBlock = new Map<number, number>();
    for (const t of facts) perBlock.set(t.block, (perBlock.get(t.block) ?? 0) + 1);
    expect(Math.max(...perBlock.values())).toBeGreaterThanOrEqual(30);
    // SELFDESTRUCT heirs and the proxy's implementation are parties the old sources missed or misread.
    for (const heir of chain.heirs) expect(facts.some((t) => t.parties.has(heir))).toBe(true);
    expect(facts.some((t) => t.parties.has(chain.contracts.vault!.toLowerCase()))).toBe(true);
    // Frames that report a value that never moved, which a naive reading lists as transfers.
    const kinds = new Set(facts.filter((t) => t.transfers.length > 0 || t.kinds.size > 0).flatMap((t) => [...t.kinds]));
    expect([...kinds].sort()).toEqual(['CALLCODE', 'DELEGATECALL', 'SELFDESTRUCT', 'reverted']);
    // Out-of-gas and reverted transactions are in the chain and in the oracle (with no transfers).
    expect(facts.filter((t) => !t.ok).length).toBeGreaterThan(10);
  });

  it('directly (ots_ + trace_filter): both orders, every wallet, native transfers per transaction', async () => {
    await checkAll(instances[0]!.lantern, facts, 17);
  }, 600_000);

  it('native transfers reconcile with the node balances, block by block, for every wallet', async () => {
    const lists = await checkAll(instances[0]!.lantern, facts, 50);
    const head = Math.max(...facts.map((t) => t.block));
    const fees = new Map(facts.map((t) => [t.hash, t]));
    let checked = 0;
    for (const [wallet, txs] of lists) {
      const balances = (await chain.rpc.batch(Array.from({ length: head + 1 }, (_, n) => ['eth_getBalance', [wallet, `0x${n.toString(16)}`]]))) as string[];
      const net = new Map<number, bigint>();
      for (const t of txs) {
        let d = 0n;
        for (const n of t.native_transfers) {
          if (n.to_address === wallet) d += BigInt(n.value);
          if (n.from_address === wallet) d -= BigInt(n.value);
        }
        if (t.from_address === wallet) d -= fees.get(t.hash)!.fee;
        net.set(Number(t.block_number), (net.get(Number(t.block_number)) ?? 0n) + d);
      }
      for (let n = 1; n <= head; n++) {
        expect(net.get(n) ?? 0n, `balance change of ${wallet} in block ${n}`).toBe(BigInt(balances[n]!) - BigInt(balances[n - 1]!));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(500);
    // And transaction by transaction (prestateTracer's balance diff, fee included): in a transaction of a
    // wallet's history its native transfers less its fee are its balance change; in any other, nothing changed.
    let perTx = 0;
    for (const [wallet, txs] of lists) {
      const mine = new Map(txs.map((t) => [t.hash, t]));
      for (const o of facts) {
        const t = mine.get(o.hash);
        const change = o.balanceDiff.get(wallet) ?? 0n;
        if (!t) {
          expect(change, `${wallet}'s balance changed in ${o.hash}, which is not in its history`).toBe(0n);
          continue;
        }
        let d = 0n;
        for (const n of t.native_transfers) {
          if (n.to_address === wallet) d += BigInt(n.value);
          if (n.from_address === wallet) d -= BigInt(n.value);
        }
        if (t.from_address === wallet) d -= o.fee;
        expect(d, `balance change of ${wallet} in ${o.hash}`).toBe(change);
        perTx++;
      }
    }
    expect(perTx).toBeGreaterThan(facts.length);
  }, 600_000);

  it('on a node without trace_filter (block scan) and one without ots_ (trace_filter alone)', async () => {
    for (const i of instances.slice(1)) await checkAll(i.lantern, facts, 29);
    // The first did trace blocks; the second never asked for ots_ twice.
    expect(instances[1]!.proxy!.calls.some((c) => c.method === 'debug_traceBlockByNumber')).toBe(true);
    expect(instances[2]!.proxy!.calls.filter((c) => c.method.startsWith('ots_')).length).toBe(1);
  }, 600_000);

  it('NFT listings equal ownership read with ownerOf / balanceOf', async () => {
    const want = await ownership();
    expect([...want.values()].flat().length).toBeGreaterThan(10);
    for (const [wallet, owned] of want) expect(await nftListing(instances[0]!.lantern, wallet), `NFTs of ${wallet}`).toEqual(owned);
  }, 300_000);

  it('tokens and approvals of every wallet equal balanceOf / allowance / isApprovedForAll at the answer’s block', async () => {
    // The same oracle as every devnet chain's (holdings-every-chain.test.ts), here over OpenZeppelin's
    // ERC-20 (transferFrom lowers an allowance with no Approval log), ERC-721 and ERC-1155.
    const client = createPublicClient({ transport: http(chain.url) });
    const wallets = [...new Set([...partiesOf(facts), ...(await partiesOfLogs(client))])].sort();
    const seen = { held: 0, allowances: 0, operators: 0 };
    for (const wallet of wallets) {
      const n = await expectMatchesNode(client, instances[0]!.lantern.url, wallet, 'foreign');
      seen.held += n.held;
      seen.allowances += n.allowances;
      seen.operators += n.operators;
    }
    expect(seen.held).toBeGreaterThan(5);
    expect(seen.allowances).toBeGreaterThan(0);
    expect(seen.operators).toBeGreaterThan(0);
  }, 600_000);

  it('after more blocks arrive: the ASC end is fresh at once, old cursors go on without repeats or gaps', async () => {
    const lantern = instances[0]!.lantern;
    const w = chain.wallets[3]!.toLowerCase();
    const before = await allHistory(lantern, w, 'ASC', 20);
    const firstPage = await page(lantern, w, 'ASC', 20);
    expect(await nftListing(lantern, w)).toEqual((await ownership()).get(w));
    await chain.round(30, { only: chain.wallets[3] });
    await chain.round(40);
    const now = await oracle(chain.rpc);
    expect(expectedFor(now, w).length).toBeGreaterThan(before.length);
    // No wait: with EVM_HEAD_TTL_MS=0 the next request reads the new head.
    const after = await allHistory(lantern, w, 'ASC', 20);
    expect(after.map((t) => t.hash)).toEqual(expectedFor(now, w).map((t) => t.hash));
    // A cursor from before the new blocks continues into them.
    const continued = await allHistory(lantern, w, 'ASC', 20, { cursor: firstPage.cursor!, got: firstPage.result });
    expect(continued.map((t) => t.hash)).toEqual(expectedFor(now, w).map((t) => t.hash));
    for (const [wallet, owned] of await ownership()) expect(await nftListing(lantern, wallet), `NFTs of ${wallet} after new blocks`).toEqual(owned);
    // And every wallet again, in every instance (the per-chain selfdestruct scan and indexes extend).
    for (const i of instances) await checkAll(i.lantern, now, 31);
  }, 900_000);
});

/** What each holder owns now, read from the contracts: ownerOf for every Art id ever logged, balanceOf for every Kit holder and id ever logged. */
async function ownership(): Promise<Map<string, string[]>> {
  const art = chain.contracts.art!.toLowerCase();
  const kit = chain.contracts.kit!.toLowerCase();
  const logs = (await chain.rpc.call('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', address: art }])) as { topics: string[] }[];
  const artIds = new Set<bigint>();
  for (const l of logs) if (l.topics.length === 4) artIds.add(BigInt(l.topics[3]!));
  const want = new Map<string, string[]>(chain.wallets.map((w) => [w.toLowerCase(), []]));
  for (const id of artIds) {
    try {
      const out = (await chain.rpc.call('eth_call', [{ to: art, data: `0x6352211e${id.toString(16).padStart(64, '0')}` }, 'latest'])) as string;
      const owner = `0x${out.slice(26)}`.toLowerCase();
      if (!want.has(owner)) want.set(owner, []);
      want.get(owner)!.push(`${art}:${id}:1`);
    } catch {
      // burnt: ownerOf reverts
    }
  }
  // Kit: every (holder, id) its TransferSingle/TransferBatch logs ever named, asked balanceOf.
  const kitLogs = (await chain.rpc.call('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', address: kit }])) as { topics: string[]; data: string }[];
  const holders = new Set<string>();
  const kitIds = new Set<bigint>();
  for (const l of kitLogs) {
    if (l.topics.length !== 4) continue;
    holders.add(`0x${l.topics[3]!.slice(26)}`.toLowerCase());
    const words = (l.data.slice(2).match(/.{64}/g) ?? []).map((w) => BigInt(`0x${w}`));
    if (words.length === 2) kitIds.add(words[0]!);
    else for (const id of words.slice(3, 3 + Number(words[2]))) kitIds.add(id);
  }
  holders.delete(ZERO);
  for (const w of holders) {
    if (!want.has(w)) want.set(w, []);
    for (const id of kitIds) {
      const data = `0x00fdd58e${w.slice(2).padStart(64, '0')}${id.toString(16).padStart(64, '0')}`;
      const bal = BigInt((await chain.rpc.call('eth_call', [{ to: kit, data }, 'latest'])) as string);
      if (bal > 0n) want.get(w)!.push(`${kit}:${id}:${bal}`);
    }
  }
  for (const v of want.values()) v.sort();
  return want;
}

async function nftListing(lantern: LanternInstance, wallet: string): Promise<string[]> {
  let first = nftPageSchema.parse(await (await fetch(`${lantern.url}/api/v2.2/${wallet}/nft`)).json());
  for (let i = 0; i < 200 && first.status !== 'SYNCED'; i++) {
    await new Promise((r) => setTimeout(r, 100));
    first = nftPageSchema.parse(await (await fetch(`${lantern.url}/api/v2.2/${wallet}/nft`)).json());
  }
  expect(first.status).toBe('SYNCED');
  const got: string[] = [];
  let cursor = '';
  do {
    const res = await fetch(`${lantern.url}/api/v2.2/${wallet}/nft?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status).toBe(200);
    const p = nftPageSchema.parse(await res.json());
    for (const item of p.result) got.push(`${item.token_address}:${item.token_id}:${item.amount}`);
    cursor = p.cursor ?? '';
  } while (cursor);
  return got.sort();
}
