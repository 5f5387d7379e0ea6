import { readFileSync } from 'node:fs';
import pg from 'pg';
import { encodeDeployData, encodeFunctionData, type Abi, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnAnvil } from '../../devnet/evm/anvil.mjs';
import { startLantern, type LanternInstance } from '../support/lantern';
import { freePort } from '../support/ports';
import { rpcClient, sendMined } from '../support/rpc';
import { flushRedis, freshDatabase, REDIS_TEST_URL, requireServices } from '../support/services';

/**
 * Lantern follows the node's chain. A dedicated anvil (never the shared devnet) serves two Lantern
 * instances that share one PostgreSQL and one Redis, with the page caches on. The chain is then
 * replaced under them: `anvil_reorg` (blocks replaced at the same height), `anvil_rollback` (the head
 * goes back, then other blocks come), and a restart of the anvil process on the same port with the
 * same genesis (fixed genesis timestamp: the genesis hash is the same, the blocks after it are not).
 * After each, both instances' history (DESC and ASC, paged) and NFT listings equal what the node says
 * now, read from its blocks, receipts, logs and ownerOf, and no transaction it no longer has is served.
 * EVM_REORG_DEPTH=0: every block is final to Lantern, so only the chain check can save it (the
 * unfinal-tail rescan cannot); EVM_HEAD_TTL_MS=0: each request reads the head, so the test needs no
 * sleep for the one-second head sharing.
 */
const available = await requireServices(['postgres', 'redis'], 'reorg tests');

const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const GENESIS_TS = '1700000000';
const artifact = JSON.parse(readFileSync('devnet/evm/artifacts/Lights721.json', 'utf8')) as { abi: Abi; bytecode: Hex };

let port: number;
let anvil: Awaited<ReturnType<typeof spawnAnvil>>;
let db: Awaited<ReturnType<typeof freshDatabase>>;
let a: LanternInstance;
let b: LanternInstance;
let accounts: Hex[];
let nft: Hex;

const node = rpcClient(() => anvil.url);
const rpc = node.call;

async function send(from: Hex, to: Hex | null, data: Hex = '0x', value = 0n): Promise<Hex> {
  // anvil mines at once, but its receipt may trail the answer by a moment: sendMined waits for it.
  return (await sendMined(node, { from, to, data, value, gas: '0x2dc6c0' }, { mustSucceed: true })).hash;
}

const call = (fn: string, args: unknown[]) => encodeFunctionData({ abi: artifact.abi, functionName: fn, args } as never);

async function deployNft(): Promise<Hex> {
  const hash = await send(accounts[0], null, encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args: ['Reorg Lights', 'RLT'] } as never));
  return (await rpc<{ contractAddress: Hex }>('eth_getTransactionReceipt', [hash])).contractAddress.toLowerCase() as Hex;
}

const wallet = () => accounts[1];
const topic = (a: string) => `0x${'0'.repeat(24)}${a.slice(2).toLowerCase()}`;

interface Row {
  hash: string;
  block: number;
  index: number;
  blockHash: string;
}

/** The oracle, from the node alone: every transaction whose sender, recipient, created contract or Transfer log names the wallet. */
async function nodeHistory(address: string): Promise<Row[]> {
  const head = Number(await rpc<Hex>('eth_blockNumber'));
  const out: Row[] = [];
  for (let n = 1; n <= head; n++) {
    const block = await rpc<{ hash: string; transactions: { hash: string; from: string; to: string | null; transactionIndex: Hex }[] }>('eth_getBlockByNumber', [`0x${n.toString(16)}`, true]);
    for (const t of block.transactions) {
      const r = await rpc<{ contractAddress: string | null; logs: { topics: string[] }[] }>('eth_getTransactionReceipt', [t.hash]);
      const mine =
        t.from.toLowerCase() === address ||
        t.to?.toLowerCase() === address ||
        r.contractAddress?.toLowerCase() === address ||
        r.logs.some((l) => l.topics[0] === TRANSFER && (l.topics[1] === topic(address) || l.topics[2] === topic(address)));
      if (mine) out.push({ hash: t.hash.toLowerCase(), block: n, index: Number(t.transactionIndex), blockHash: block.hash.toLowerCase() });
    }
  }
  return out;
}

/** NFTs the wallet owns per the node: every ERC-721 token any Transfer log names, kept when ownerOf says the wallet. */
async function nodeNfts(address: string): Promise<string[]> {
  const logs = await rpc<{ address: string; topics: string[] }[]>('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', topics: [TRANSFER] }]);
  const tokens = new Set(logs.filter((l) => l.topics.length === 4).map((l) => `${l.address.toLowerCase()}:${BigInt(l.topics[3])}`));
  const owned: string[] = [];
  for (const t of tokens) {
    const [contract, id] = t.split(':');
    const owner = await rpc<Hex>('eth_call', [{ to: contract, data: call('ownerOf', [BigInt(id)]) }, 'latest']).catch(() => null);
    if (owner && `0x${owner.slice(26)}` === address) owned.push(t);
  }
  return owned.sort();
}

async function getJson(base: string, path: string) {
  const res = await fetch(base + path);
  return { status: res.status, body: await res.json() };
}

/** The wallet's whole history through the published API, paged by 3. */
async function lanternHistory(base: string, order: 'ASC' | 'DESC'): Promise<Row[]> {
  const out: Row[] = [];
  let cursor = '';
  for (let i = 0; i < 50; i++) {
    const { status, body } = await getJson(base, `/api/v2.2/wallets/${wallet()}/history?chain=devnet&order=${order}&limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(status, JSON.stringify(body)).toBe(200);
    for (const t of body.result) out.push({ hash: t.hash, block: Number(t.block_number), index: Number(t.transaction_index), blockHash: t.block_hash.toLowerCase() });
    cursor = body.cursor ?? '';
    if (!cursor) return out;
  }
  throw new Error('history did not end within 50 pages');
}

async function lanternNfts(base: string): Promise<string[]> {
  let first = await getJson(base, `/api/v2.2/${wallet()}/nft?chain=devnet`);
  // SYNCING is an event of the background job: ask again until it reports SYNCED.
  for (let i = 0; i < 200 && first.body.status !== 'SYNCED'; i++) {
    await new Promise((r) => setTimeout(r, 100));
    first = await getJson(base, `/api/v2.2/${wallet()}/nft?chain=devnet`);
  }
  expect(first.body.status).toBe('SYNCED');
  const got: string[] = [];
  let cursor = '';
  do {
    const { status, body } = await getJson(base, `/api/v2.2/${wallet()}/nft?chain=devnet&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(status).toBe(200);
    for (const item of body.result) got.push(`${item.token_address}:${item.token_id}`);
    cursor = body.cursor ?? '';
  } while (cursor);
  return got.sort();
}

/** Both instances, both orders, NFTs: what the node says now; and every served transaction is the node's, in the block it names. */
async function expectFollowsNode(instances: LanternInstance[]) {
  const want = await nodeHistory(wallet());
  const wantNfts = await nodeNfts(wallet());
  for (const i of instances) {
    const desc = await lanternHistory(i.url, 'DESC');
    const asc = await lanternHistory(i.url, 'ASC');
    expect(desc).toEqual([...want].reverse());
    expect(asc).toEqual(want);
    for (const t of desc) {
      const onNode = await rpc<{ blockHash: string } | null>('eth_getTransactionByHash', [t.hash]);
      expect(onNode?.blockHash.toLowerCase()).toBe(t.blockHash);
    }
    expect(await lanternNfts(i.url)).toEqual(wantNfts);
  }
  return want;
}

/** The chain's epoch in the shared database: how many times the instances together found the node on another chain. */
async function epoch(): Promise<number> {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    return (await c.query<{ epoch: number }>('SELECT epoch FROM evm_chain_state WHERE chain_id = 31337')).rows[0].epoch;
  } finally {
    await c.end();
  }
}

async function startChain(genesisTimestamp = GENESIS_TS) {
  anvil = await spawnAnvil({ port, args: ['--accounts', '6', '--timestamp', genesisTimestamp] });
  accounts = (await rpc<Hex[]>('eth_accounts')).map((x) => x.toLowerCase() as Hex);
}

// One story in steps over one chain (indexed, reorganised, rolled back, restarted, replaced): in order.
describe.skipIf(!available)('a chain replaced under two Lantern instances', { shuffle: false }, () => {
  beforeAll(async () => {
    port = await freePort();
    await startChain();
    db = await freshDatabase();
    await flushRedis();
    const env = { EVM_RPC_URL: anvil.url, DATABASE_URL: db.url, REDIS_URL: REDIS_TEST_URL, EVM_REORG_DEPTH: '0', EVM_HEAD_TTL_MS: '0', UPSTREAM_CACHE: 'on' };
    [a, b] = await Promise.all([startLantern(env), startLantern(env)]);
    nft = await deployNft();
    for (let i = 0; i < 3; i++) await send(accounts[0], nft, call('mint', [wallet()]));
    await send(wallet(), accounts[2], '0x', 10n);
    await send(accounts[3], wallet(), '0x', 11n);
    await send(wallet(), nft, call('transferFrom', [wallet(), accounts[2], 1n]));
    await send(wallet(), accounts[2], '0x', 12n);
    await send(accounts[3], wallet(), '0x', 13n);
  });

  afterAll(async () => {
    await Promise.allSettled([a?.stop(), b?.stop()]);
    await anvil?.stop();
    await db?.drop();
  });

  it('serve the chain as indexed while it holds', async () => {
    const want = await expectFollowsNode([a, b]);
    expect(want).toHaveLength(8);
    expect(await epoch()).toBe(1);
  });

  it('after anvil_reorg replaces the last 4 blocks at the same height, serve the new blocks, not the old', async () => {
    const before = await nodeHistory(wallet());
    const head = Number(await rpc<Hex>('eth_blockNumber'));
    // The NFT transfer and the last three payments are taken away; one new payment to the wallet comes instead.
    await rpc('anvil_reorg', [4, [[{ from: accounts[4], to: wallet(), value: '0x77' }, 0], [{ from: accounts[4], to: accounts[5], value: '0x1' }, 1]]]);
    expect(Number(await rpc<Hex>('eth_blockNumber'))).toBe(head);
    // B sees the new chain first, then A (which cached pages of the old chain in the shared Redis).
    const after = await expectFollowsNode([b, a]);
    expect(after.filter((t) => before.some((o) => o.hash === t.hash))).toHaveLength(before.length - 4);
    expect(after).toHaveLength(before.length - 3);
    // Found once between the two instances: the second saw the first's drop, it did not drop again.
    expect(await epoch()).toBe(2);
  });

  it('after anvil_rollback (the head goes back) and other blocks, serve those', async () => {
    await rpc('anvil_rollback', [2]);
    await send(wallet(), accounts[5], '0x', 21n);
    await expectFollowsNode([a, b]);
    expect(await epoch()).toBe(3);
  });

  it('after the node restarts on the same port from the same genesis with other blocks, serve the new chain', async () => {
    const genesis = (await rpc<{ hash: string }>('eth_getBlockByNumber', ['0x0', false])).hash;
    await anvil.stop();
    await startChain();
    expect((await rpc<{ hash: string }>('eth_getBlockByNumber', ['0x0', false])).hash).toBe(genesis);
    // The same deployer nonce: the NFT contract is at the same address, with other owners.
    expect(await deployNft()).toBe(nft);
    await send(accounts[3], wallet(), '0x', 31n);
    await send(accounts[0], nft, call('mint', [accounts[2]]));
    await send(accounts[0], nft, call('mint', [wallet()]));
    await expectFollowsNode([a, b]);
    expect(await epoch()).toBe(4);
  });

  it('page ASC to the end, then again after new blocks: the end page is not served from the cache', async () => {
    await expectFollowsNode([a, b]);
    await send(accounts[4], wallet(), '0x', 41n);
    await send(accounts[0], nft, call('mint', [wallet()]));
    const want = await expectFollowsNode([b, a]);
    expect(want.at(-1)!.block).toBe(Number(await rpc<Hex>('eth_blockNumber')));
    expect(await epoch()).toBe(4); // new blocks on the same chain are no change of chain
  });

  it('after the node restarts on the same port from another genesis, serve only the new chain', async () => {
    const genesis = (await rpc<{ hash: string }>('eth_getBlockByNumber', ['0x0', false])).hash;
    await anvil.stop();
    await startChain('1800000000');
    expect((await rpc<{ hash: string }>('eth_getBlockByNumber', ['0x0', false])).hash).not.toBe(genesis);
    expect(await deployNft()).toBe(nft);
    await send(wallet(), accounts[3], '0x', 51n);
    await send(accounts[0], nft, call('mint', [wallet()]));
    const want = await expectFollowsNode([b, a]);
    expect(want).toHaveLength(2);
    expect(await epoch()).toBe(5);
  });
});
