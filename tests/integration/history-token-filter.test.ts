import { keccak256, pad, toHex, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadManifest } from '../../devnet/evm/index.mjs';
import { historyPageSchema } from '../../lib/interface/history';
import { rpcClient, type Rpc } from '../support/foreign-chain';
import { startLantern, type LanternInstance } from '../support/lantern';

/**
 * The history filtered by token contract (`token_addresses`, Lantern's extension), against the node.
 * For every scenario wallet of the devnet and every contract whose logs name it, the filtered history,
 * followed page by page through its cursors in both orders, holds exactly the transactions of that
 * contract's logs naming the wallet, read here with plain eth_getLogs: a Transfer (ERC-20 or ERC-721)
 * from or to it, an ERC-1155 TransferSingle/Batch from or to it, or an Approval / ApprovalForAll it gave.
 * A Lantern in hosted mode (fronting the first) refuses the filter with a 400 naming it.
 */

const m = loadManifest();
const KEY = 'token-filter-key-0123456789abcdef';
const TRANSFER = keccak256(toHex('Transfer(address,address,uint256)'));
const APPROVAL = keccak256(toHex('Approval(address,address,uint256)'));
const APPROVAL_FOR_ALL = keccak256(toHex('ApprovalForAll(address,address,bool)'));
const SINGLE = keccak256(toHex('TransferSingle(address,address,address,uint256,uint256)'));
const BATCH = keccak256(toHex('TransferBatch(address,address,address,uint256[],uint256[])'));

interface Log {
  address: string;
  topics: Hex[];
  blockNumber: Hex;
  transactionIndex: Hex;
  transactionHash: string;
}

let rpc: Rpc;
let node: LanternInstance;
let hosted: LanternInstance;
const wallets = Object.values(m.accounts).map((a) => a.address.toLowerCase());

const topicOf = (a: string) => pad(a as Hex, { size: 32 }).toLowerCase() as Hex;

/** The oracle: per contract, the wallet's transactions whose logs of that contract name it, oldest first. */
async function oracle(wallet: string, head: number): Promise<Map<string, { block: number; index: number; hash: string }[]>> {
  const w = topicOf(wallet);
  const logs = (topics: (Hex | Hex[] | null)[]) => rpc.call('eth_getLogs', [{ fromBlock: '0x0', toBlock: toHex(head), topics }]) as Promise<Log[]>;
  const found = [
    ...(await logs([TRANSFER, w])),
    ...(await logs([TRANSFER, null, w])),
    ...(await logs([[SINGLE, BATCH], null, w])),
    ...(await logs([[SINGLE, BATCH], null, null, w])),
    ...(await logs([APPROVAL, w])).filter((l) => l.topics.length === 3), // an ERC-721 Approval (4 topics) names one token, not an allowance
    ...(await logs([APPROVAL_FOR_ALL, w])),
  ].filter((l) => l.topics.length >= 3);
  const out = new Map<string, Map<string, { block: number; index: number; hash: string }>>();
  for (const l of found) {
    const c = l.address.toLowerCase();
    if (!out.has(c)) out.set(c, new Map());
    out.get(c)!.set(l.transactionHash.toLowerCase(), { block: Number(l.blockNumber), index: Number(l.transactionIndex), hash: l.transactionHash.toLowerCase() });
  }
  return new Map([...out].map(([c, txs]) => [c, [...txs.values()].sort((a, b) => a.block - b.block || a.index - b.index)]));
}

async function get(lantern: LanternInstance, path: string) {
  const res = await fetch(`${lantern.url}${path}`, { headers: { 'X-API-Key': KEY } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & { parameter?: string; message?: string } };
}

/** Every page of a filtered history, by cursor. */
async function filtered(wallet: string, query: string) {
  const seen: { hash: string; block: number; index: number }[] = [];
  let cursor = '';
  for (let i = 0; i < 200; i++) {
    const { status, body } = await get(node, `/api/v2.2/wallets/${wallet}/history?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(status, JSON.stringify(body)).toBe(200);
    const page = historyPageSchema.parse(body);
    seen.push(...page.result.map((t) => ({ hash: t.hash.toLowerCase(), block: Number(t.block_number), index: Number(t.transaction_index) })));
    if (!page.cursor) return seen;
    cursor = page.cursor;
  }
  throw new Error('the cursors did not end');
}

beforeAll(async () => {
  rpc = rpcClient(inject('evmRpcUrl'));
  node = await startLantern({ API_KEYS: KEY, DEVNET_EVM_PORT: String(inject('evmPort')) });
  hosted = await startLantern({ DATA_API_KEY: KEY, DATA_API_URL: node.url, DEFAULT_CHAIN: 'devnet' });
}, 180_000);

afterAll(async () => {
  await Promise.allSettled([node?.stop(), hosted?.stop()]);
});

describe('token_addresses on the history, node mode', () => {
  it('for every scenario wallet and contract: exactly the transactions of that contract’s logs naming the wallet, in order, across pages', async () => {
    const head = Number(await rpc.call('eth_blockNumber'));
    let checked = 0;
    for (const wallet of wallets) {
      const want = await oracle(wallet, head);
      for (const [contract, txs] of want) {
        const asc = await filtered(wallet, `chain=devnet&order=ASC&limit=3&token_addresses=${contract}`);
        expect(asc.map((t) => t.hash), `${wallet} ${contract} ASC`).toEqual(txs.map((t) => t.hash));
        const desc = await filtered(wallet, `chain=devnet&limit=2&token_addresses[]=${contract.toUpperCase().replace('0X', '0x')}`);
        expect(desc.map((t) => t.hash), `${wallet} ${contract} DESC`).toEqual(txs.map((t) => t.hash).reverse());
        // Each row says where it is: the oracle's block and index.
        expect(desc.map((t) => [t.block, t.index])).toEqual(txs.map((t) => [t.block, t.index]).reverse());
        checked++;
      }
    }
    // The scenario is rich enough for this to mean something.
    expect(checked).toBeGreaterThan(10);
  });

  it('several contracts are their union; the comma form and repeated keys are the same filter; a block range cuts it', async () => {
    const holder = m.accounts.holder.address.toLowerCase();
    const head = Number(await rpc.call('eth_blockNumber'));
    const want = await oracle(holder, head);
    const [a, b] = [...want.keys()].sort((x, y) => want.get(y)!.length - want.get(x)!.length);
    expect(a && b).toBeTruthy();
    const union = [...new Map([...want.get(a!)!, ...want.get(b!)!].map((t) => [t.hash, t])).values()].sort((x, y) => y.block - x.block || y.index - x.index);
    expect((await filtered(holder, `chain=devnet&limit=4&token_addresses=${a},${b}`)).map((t) => t.hash)).toEqual(union.map((t) => t.hash));
    expect((await filtered(holder, `chain=devnet&limit=5&token_addresses=${b}&token_addresses=${a}`)).map((t) => t.hash)).toEqual(union.map((t) => t.hash));
    const mid = union[Math.floor(union.length / 2)]!.block;
    expect((await filtered(holder, `chain=devnet&limit=2&from_block=${mid}&token_addresses=${a},${b}`)).map((t) => t.hash)).toEqual(union.filter((t) => t.block >= mid).map((t) => t.hash));
  });

  it('a contract the wallet never dealt with is an empty history, not an error', async () => {
    const { status, body } = await get(node, `/api/v2.2/wallets/${m.accounts.alice.address}/history?chain=devnet&token_addresses=0x${'12'.repeat(20)}`);
    expect(status).toBe(200);
    expect(historyPageSchema.parse(body).result).toEqual([]);
  });

  it('a bad address is a 400 naming token_addresses; a cursor of another filter is a 400 naming cursor', async () => {
    const alice = m.accounts.alice.address;
    for (const q of ['token_addresses=0x1234', `token_addresses=${m.contracts.usdc.address},usdc`, `token_addresses[]=nope`, Array.from({ length: 11 }, (_, i) => `token_addresses=0x${String(i).padStart(40, '0')}`).join('&')]) {
      const { status, body } = await get(node, `/api/v2.2/wallets/${alice}/history?chain=devnet&${q}`);
      expect(status, q).toBe(400);
      expect(body.parameter, q).toBe('token_addresses');
    }
    const holder = m.accounts.holder.address;
    const head = Number(await rpc.call('eth_blockNumber'));
    const [[contract, txs], [other]] = [...(await oracle(holder.toLowerCase(), head))].sort((x, y) => y[1].length - x[1].length);
    expect(txs.length).toBeGreaterThan(1);
    const first = await get(node, `/api/v2.2/wallets/${holder}/history?chain=devnet&limit=1&token_addresses=${contract}`);
    const cursor = String(first.body.cursor);
    expect(cursor).not.toBe('');
    for (const q of [`token_addresses=${other}`, '']) {
      const { status, body } = await get(node, `/api/v2.2/wallets/${holder}/history?chain=devnet&limit=1&${q}&cursor=${encodeURIComponent(cursor)}`);
      expect(status, q).toBe(400);
      expect(body.parameter).toBe('cursor');
    }
  });
});

describe('token_addresses on the history, hosted mode', () => {
  it('is refused with a 400 naming it (the hosted API has no such filter); without it the history is served', async () => {
    const alice = m.accounts.alice.address;
    const refused = await get(hosted, `/api/v2.2/wallets/${alice}/history?chain=devnet&token_addresses=${m.contracts.usdc.address}`);
    expect(refused.status).toBe(400);
    expect(refused.body.parameter).toBe('token_addresses');
    expect(refused.body.message).toMatch(/node mode/);
    const served = await get(hosted, `/api/v2.2/wallets/${alice}/history?chain=devnet&limit=2`);
    expect(served.status).toBe(200);
  });
});
