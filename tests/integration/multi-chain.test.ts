import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Moralis from 'moralis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { activeChainsSchema } from '../../lib/interface/active-chains';
import { historyPageSchema, type WalletTransaction } from '../../lib/interface/history';
import { nftPageSchema } from '../../lib/interface/nfts';
import { secondSigners } from '../../devnet/evm/second.mjs';
import { ACCOUNTS, MNEMONIC } from '../../devnet/evm/index.mjs';
import { oracle, rpcClient, type OracleTx, type Rpc } from '../support/foreign-chain';
import { startHostedStub, type HostedStub } from '../support/hosted-stub';
import { startLantern, type LanternInstance } from '../support/lantern';
import { NODE_KINDS, startRpcProxy, type RpcProxy } from '../support/rpc-proxy';
import { toFunctionSelector } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';

/**
 * Many chains, one server. One Lantern reads both devnets (chain 31337 `devnet` and 31338 `devnet2`,
 * its default nodes); per chain, every answer of the published API (history, NFTs, balance, active
 * chains) is what that chain's node says, computed from the node itself (blocks, receipts, callTracer,
 * logs, eth_call, eth_getBalance). A second Lantern fronts it in hosted mode and must answer the same per
 * chain; a third mixes its own node (devnet2) with a hosted API (a stub) for every other chain. Servers
 * that name a node of another chain, or two nodes for one chain, do not start.
 */

const KEY = 'multi-chain-key-0123456789abcdef';
const STUB_KEY = 'multi-chain-stub-key-0123456789';
let rpc: Record<'devnet' | 'devnet2', Rpc>;
let facts: Record<'devnet' | 'devnet2', OracleTx[]>;
let node: LanternInstance;
let hosted: LanternInstance;
let mixed: LanternInstance;
let stub: HostedStub;
let proxy: RpcProxy;

const CHAINS = ['devnet', 'devnet2'] as const;
type ChainName = (typeof CHAINS)[number];
const account = (index: number) => mnemonicToAccount(MNEMONIC, { addressIndex: index }).address;
const alice = account(ACCOUNTS.alice.index);
const bob = account(ACCOUNTS.bob.index);
const dave = account(ACCOUNTS.dave.index);
const oscar = account(ACCOUNTS.oscar.index);
const nadia = secondSigners().nadia.address;

beforeAll(async () => {
  rpc = { devnet: rpcClient(inject('evmRpcUrl')), devnet2: rpcClient(inject('evm2RpcUrl')) };
  const [f1, f2] = await Promise.all([oracle(rpc.devnet, { balances: false }), oracle(rpc.devnet2, { balances: false })]);
  facts = { devnet: f1, devnet2: f2 };
  stub = await startHostedStub({ apiKey: STUB_KEY });
  proxy = await startRpcProxy(inject('evmRpcUrl'));
  // `node` names no node: its default nodes are the run's two devnets (global-setup's DEVNET_EVM_PORT, DEVNET_EVM2_PORT).
  [node, mixed] = await Promise.all([
    startLantern({ API_KEYS: KEY }),
    startLantern({ DATA_API_KEY: STUB_KEY, DATA_API_URL: stub.url, AUTH_API_URL: stub.url, EVM_RPC_URLS: `devnet2=${inject('evm2RpcUrl')}`, UPSTREAM_CACHE: 'off' }),
  ]);
  hosted = await startLantern({ DATA_API_KEY: KEY, DATA_API_URL: node.url, DEFAULT_CHAIN: 'devnet' });
}, 300_000);

afterAll(async () => {
  await Promise.all([node?.stop(), hosted?.stop(), mixed?.stop()]);
  await Promise.all([stub?.close(), proxy?.stop()]);
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are parsed with the interface schemas where it matters
async function get(base: string, p: string): Promise<{ status: number; body: any }> {
  const res = await fetch(base + p, { headers: { 'X-API-Key': KEY } });
  const text = await res.text();
  return { status: res.status, body: text.startsWith('{') ? JSON.parse(text) : text };
}

async function allHistory(base: string, wallet: string, chain: string | null): Promise<WalletTransaction[]> {
  const out: WalletTransaction[] = [];
  let cursor = '';
  for (let n = 0; n < 50; n++) {
    const q = `order=ASC&limit=100${chain ? `&chain=${chain}` : ''}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const r = await get(base, `/api/v2.2/wallets/${wallet}/history?${q}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const page = historyPageSchema.parse(r.body);
    out.push(...page.result);
    if (!page.cursor) return out;
    cursor = page.cursor;
  }
  throw new Error('history did not end');
}

/** The wallet's transactions on a chain, oldest first, as the node's blocks, receipts and traces say. */
const expectedHistory = (chain: ChainName, wallet: string) =>
  facts[chain].filter((t) => t.parties.has(wallet.toLowerCase())).sort((a, b) => a.block - b.block || a.index - b.index);

const transfersOf = (t: WalletTransaction) => t.native_transfers.map((n) => `${n.from_address}>${n.to_address}:${n.value}`).sort();

describe('one server, two chains: each answer is what that chain’s node says', () => {
  it.each([
    ['devnet', dave],
    ['devnet', oscar],
    ['devnet', nadia],
    ['devnet2', alice],
    ['devnet2', bob],
    ['devnet2', nadia],
  ] as const)('history on %s of %s: every transaction of the node, with its native transfers', async (chain, wallet) => {
    const want = expectedHistory(chain, wallet);
    const got = await allHistory(node.url, wallet, chain);
    expect(got.map((t) => t.hash)).toEqual(want.map((t) => t.hash));
    const byHash = new Map(want.map((t) => [t.hash, t]));
    for (const t of got) expect(transfersOf(t), t.hash).toEqual(byHash.get(t.hash)!.transfers);
    if (chain === 'devnet2') expect(got.length).toBeGreaterThan(0);
  });

  it('a wallet active on both chains has each chain’s own history; no chain named means DEFAULT_CHAIN’s one meaning (here the first node, devnet)', async () => {
    const newest = (chain: ChainName) => expectedHistory(chain, alice).reverse().slice(0, 25).map((t) => t.hash);
    for (const chain of [...CHAINS, null]) {
      const r = await get(node.url, `/api/v2.2/wallets/${alice}/history?limit=25${chain ? `&chain=${chain}` : ''}`);
      expect(r.status).toBe(200);
      expect(historyPageSchema.parse(r.body).result.map((t) => t.hash)).toEqual(newest(chain ?? 'devnet'));
    }
    expect(newest('devnet')).not.toEqual(newest('devnet2'));
  });

  it('balances: eth_getBalance of each chain’s node', async () => {
    for (const chain of CHAINS) {
      for (const wallet of [alice, bob, nadia]) {
        const want = BigInt((await rpc[chain].call('eth_getBalance', [wallet, 'latest'])) as string).toString();
        const r = await get(node.url, `/api/v2.2/${wallet}/balance?chain=${chain === 'devnet' ? '0x7a69' : '0x7a6a'}`);
        expect([r.status, r.body], `${wallet} on ${chain}`).toEqual([200, { balance: want }]);
      }
    }
  });

  it('NFTs: what each chain’s node says the wallet owns now (ownerOf, balanceOf)', async () => {
    for (const [chain, wallet] of [
      ['devnet', bob],
      ['devnet2', bob],
      ['devnet2', alice],
      ['devnet2', nadia],
    ] as const) {
      const want = await ownedOnChain(rpc[chain], wallet);
      let page = nftPageSchema.parse((await get(node.url, `/api/v2.2/${wallet}/nft?chain=${chain}&limit=100`)).body);
      for (let i = 0; i < 150 && page.status !== 'SYNCED'; i++) {
        await new Promise((r) => setTimeout(r, 100));
        page = nftPageSchema.parse((await get(node.url, `/api/v2.2/${wallet}/nft?chain=${chain}&limit=100`)).body);
      }
      expect(page.status).toBe('SYNCED');
      expect(page.result.map((n) => `${n.token_address}:${n.token_id}:${n.amount}`).sort(), `${wallet} on ${chain}`).toEqual(want);
      if (chain === 'devnet2' && wallet !== nadia) expect(want.length).toBeGreaterThan(0);
    }
  }, 60_000);

  it('active chains: per chain, the first and last transaction the node reports, null where there is none', async () => {
    for (const wallet of [alice, bob, nadia, dave]) {
      const r = await get(node.url, `/api/v2.2/wallets/${wallet}/chains?chains[]=devnet&chains[]=0x7a6a`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const want = await Promise.all(CHAINS.map(async (chain) => ({ chain, chain_id: chain === 'devnet' ? '0x7a69' : '0x7a6a', ...(await edges(chain, wallet)) })));
      expect(r.body).toEqual({ address: wallet.toLowerCase(), active_chains: want });
    }
    // nadia is active only on the second chain; dave only on the first.
    const nadiaChains = activeChainsSchema.parse((await get(node.url, `/api/v2.2/wallets/${nadia}/chains?chains=devnet,devnet2`)).body);
    expect(nadiaChains.active_chains.map((c) => [c.chain, c.first_transaction !== null])).toEqual([
      ['devnet', false],
      ['devnet2', true],
    ]);
    // No chain named: the default chain alone, as the vendor answers its own default.
    expect((await get(node.url, `/api/v2.2/wallets/${dave}/chains`)).body.active_chains.map((c: { chain: string }) => c.chain)).toEqual(['devnet']);
  });

  it('the vendor’s SDK reads the active chains from Lantern', async () => {
    await Moralis.start({ apiKey: KEY, evmApiBaseUrl: `${node.url}/api/v2.2`, logLevel: 'off' });
    const answer = await Moralis.EvmApi.wallets.getWalletActiveChains({ address: nadia, chains: ['0x7a69', '0x7a6a'] });
    const [first, second] = answer.result.activeChains;
    expect([first!.chainId, first!.firstTransaction]).toEqual(['0x7a69', undefined]);
    expect(second!.chainId).toBe('0x7a6a');
    expect(second!.firstTransaction?.transactionHash).toBe((await edges('devnet2', nadia)).first_transaction!.transaction_hash);
    expect(second!.lastTransaction?.blockNumber.toString()).toBe((await edges('devnet2', nadia)).last_transaction!.block_number);
  });

  it('a chain nothing here reads is a 400 listing the chains this server serves, on every path', async () => {
    const message = 'chain: polygon (0x89) is not served by this Lantern (no node for it); this Lantern serves: devnet (0x7a69), devnet2 (0x7a6a)';
    for (const p of [
      `/api/v2.2/wallets/${alice}/history?chain=polygon`,
      `/api/v2.2/${alice}/nft?chain=polygon`,
      `/api/v2.2/${alice}/balance?chain=0x89`,
      `/api/v2.2/wallets/${alice}/chains?chains[]=devnet&chains[]=polygon`,
      `/api/v2.2/transaction/0x${'ab'.repeat(32)}?chain=polygon`,
      `/wallet/${alice}/history.csv?chain=polygon`,
    ]) {
      const r = await get(node.url, p);
      expect([r.status, r.body], p).toEqual([400, { message, code: 'invalid_parameter', parameter: 'chain' }]);
    }
    // The page says the same, not "Balance unavailable".
    const page = await fetch(`${node.url}/wallet/${alice}?chain=polygon`);
    expect(await page.text()).toContain('is not served by this Lantern');
  });

  it('every wallet tab answers its redirects as HTTP: a lower-case address to its checksummed URL, a wallet active only on devnet2 to ?chain=devnet2', async () => {
    for (const tab of ['', '/activity', '/tokens', '/nfts', '/approvals']) {
      const lower = await fetch(`${node.url}/wallet/${nadia.toLowerCase()}${tab}?spam=true`, { redirect: 'manual' });
      expect(lower.status, tab).toBe(308);
      expect(lower.headers.get('location'), tab).toBe(`/wallet/${nadia}${tab}?spam=true`);
      const opened = await fetch(`${node.url}/wallet/${nadia}${tab}?spam=true`, { redirect: 'manual' });
      expect(opened.status, tab).toBe(307);
      expect(opened.headers.get('location'), tab).toBe(`/wallet/${nadia}${tab}?spam=true&chain=devnet2`);
      // Named chains are kept, the default one included: no redirect.
      expect((await fetch(`${node.url}/wallet/${nadia}${tab}?chain=devnet`, { redirect: 'manual' })).status, tab).toBe(200);
    }
  });

  it('the home page lists the sources per chain and links a wallet on each chain', async () => {
    const html = await (await fetch(node.url)).text();
    expect(html).toContain('Local devnet (devnet, 0x7a69)');
    expect(html).toContain('Local devnet 2 (devnet2, 0x7a6a)');
    expect(html).toContain(`href="/wallet/${nadia}?chain=devnet2"`);
    expect(html).toContain(`href="/wallet/${alice}"`);
  });
});

describe('a Lantern fronting it in hosted mode answers the same, per chain', () => {
  it.each(CHAINS)('on %s: history, NFTs, balance and active chains', async (chain) => {
    for (const wallet of [alice, nadia, bob]) {
      for (const p of [
        `/api/v2.2/wallets/${wallet}/history?chain=${chain}&limit=10&order=ASC`,
        `/api/v2.2/${wallet}/balance?chain=${chain}`,
        `/api/v2.2/wallets/${wallet}/chains?chains[]=${chain}`,
      ]) {
        const [a, b] = [await get(node.url, p), await get(hosted.url, p)];
        expect(a.status, p).toBe(200);
        if (p.includes('/history')) expect(historyPageSchema.parse(b.body).result).toEqual(historyPageSchema.parse(a.body).result);
        else expect(b.body, p).toEqual(a.body);
      }
      // NFTs once the node has indexed them (the NFT test above did for most; wait here for the rest).
      const nfts = `/api/v2.2/${wallet}/nft?chain=${chain}`;
      for (let i = 0; i < 150 && (await get(node.url, nfts)).body.status !== 'SYNCED'; i++) await new Promise((r) => setTimeout(r, 100));
      expect(nftPageSchema.parse((await get(hosted.url, nfts)).body).result).toEqual(nftPageSchema.parse((await get(node.url, nfts)).body).result);
    }
  }, 60_000);
});

describe('a node for one chain and the hosted API for the rest: the choice is per (operation, chain)', () => {
  it('reads devnet2 from its node, sends eth to the hosted API, and serves nothing else', async () => {
    stub.requests.length = 0;
    const own = await get(mixed.url, `/api/v2.2/wallets/${alice}/history?chain=devnet2&order=ASC&limit=100`);
    expect(historyPageSchema.parse(own.body).result.map((t) => t.hash)).toEqual(expectedHistory('devnet2', alice).map((t) => t.hash));
    expect(stub.requests).toHaveLength(0);
    const eth = await get(mixed.url, `/api/v2.2/wallets/${alice}/history?chain=eth&limit=5`);
    expect(eth.status).toBe(200);
    expect(stub.requests.map((r) => [r.path, r.query.get('chain')])).toEqual([[`/api/v2.2/wallets/${alice}/history`, '0x1']]);
    // No chain named: the first node's chain.
    expect(historyPageSchema.parse((await get(mixed.url, `/api/v2.2/wallets/${alice}/history?order=ASC&limit=100`)).body).result).toEqual(historyPageSchema.parse(own.body).result);
    const devnet = await get(mixed.url, `/api/v2.2/wallets/${alice}/history?chain=devnet`);
    expect(devnet.status).toBe(400);
    expect(devnet.body.message).toMatch(/^chain: devnet \(0x7a69\) is not served by this Lantern \(no node for it, and not a chain of the hosted API\); this Lantern serves: devnet2 \(0x7a6a\), eth \(0x1\), /);
  });

  it('active chains: the node answers its chain, the hosted API gets one request for all of its chains', async () => {
    stub.requests.length = 0;
    const r = await get(mixed.url, `/api/v2.2/wallets/${nadia}/chains?chains[]=devnet2&chains[]=eth&chains[]=bsc`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(stub.requests.map((x) => [x.path, Object.fromEntries(x.query)])).toEqual([[`/api/v2.2/wallets/${nadia}/chains`, { 'chains[0]': '0x1', 'chains[1]': '0x38' }]]);
    const ethStamp = (i: number) => ({ block_number: String(19_000_000 + i), block_timestamp: new Date(Date.UTC(2025, 0, 1) + i * 3_600_000).toISOString() });
    expect(r.body.active_chains).toEqual([
      { chain: 'devnet2', chain_id: '0x7a6a', ...(await edges('devnet2', nadia)) },
      { chain: 'eth', chain_id: '0x1', first_transaction: expect.objectContaining(ethStamp(0)), last_transaction: expect.objectContaining(ethStamp(22)) },
      { chain: 'bsc', chain_id: '0x38', first_transaction: null, last_transaction: null },
    ]);
  });

  it('health lists each chain with its source, and the node by its chain', async () => {
    const h = (await get(mixed.url, '/api/health')).body;
    expect(h.chains[0]).toEqual({ chain: 'devnet2', chain_id: '0x7a6a', source: 'node', operations: ['history', 'nfts'] });
    expect(h.chains.slice(1).every((c: { source: string }) => c.source === 'hosted')).toBe(true);
    expect(h.chains.map((c: { chain: string }) => c.chain)).not.toContain('devnet');
    expect(Object.keys(h.sources.evm_nodes)).toEqual(['devnet2']);
    expect(h.sources.evm_nodes.devnet2).toMatchObject({ ok: true, chain_id: '0x7a6a' });
  });
});

describe('start-up refuses a node of another chain than its name, and two nodes for one chain', () => {
  it('a node named devnet2 that serves devnet: the server does not start, naming the variable and the host, never the URL', async () => {
    const { code, out } = await startExpectingExit({ EVM_RPC_URLS: `devnet2=${proxy.url}/secret-key-123` });
    expect(code).toBe(1);
    expect(out).toContain(`Lantern's configuration is invalid:\n  EVM_RPC_URLS (devnet2): the node at ${new URL(proxy.url).host} serves devnet (0x7a69), not devnet2 (0x7a6a)\n`);
    expect(out).not.toContain('secret-key-123');
    expect(out).not.toContain('listening');
  });

  it('EVM_RPC_URL’s node serves a chain EVM_RPC_URLS names too: the server does not start', async () => {
    const { code, out } = await startExpectingExit({ EVM_RPC_URL: `${proxy.url}/secret-key-123`, EVM_RPC_URLS: `devnet=${inject('evmRpcUrl')}` });
    expect(code).toBe(1);
    expect(out).toContain(`EVM_RPC_URL: the node at ${new URL(proxy.url).host} serves devnet (0x7a69), which EVM_RPC_URLS (devnet) already names: name one node per chain`);
    expect(out).not.toContain('secret-key-123');
  });
});

/** `npm start` with `env`, until it exits (it must: these configurations are refused at start-up). */
async function startExpectingExit(env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lantern-refused-'));
  const child = spawn(process.execPath, [path.resolve('scripts/server.mjs'), '-p', '0', '-H', '127.0.0.1'], {
    env: { ...process.env, NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(40), PUBLIC_URL: 'http://127.0.0.1:9', DATA_API_KEY: '', LANTERN_WARM_UP: 'off', DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearTimeout(timer);
  rmSync(dataDir, { recursive: true, force: true });
  return { code, out };
}

/** The wallet's first and last transaction on `chain` by the oracle, with its block's time from the node. */
async function edges(chain: ChainName, wallet: string) {
  const txs = expectedHistory(chain, wallet);
  const stamp = async (t: OracleTx | undefined) => {
    if (!t) return null;
    const block = (await rpc[chain].call('eth_getBlockByNumber', [`0x${t.block.toString(16)}`, false])) as { timestamp: string };
    return { block_number: String(t.block), block_timestamp: new Date(Number(block.timestamp) * 1000).toISOString(), transaction_hash: t.hash };
  };
  return { first_transaction: await stamp(txs[0]), last_transaction: await stamp(txs.at(-1)) };
}

const BALANCE_OF_ID_OWNER = toFunctionSelector('balanceOf(uint256,address)');
const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const SINGLE = '0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62';
const BATCH = '0x4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb';

/**
 * What `wallet` owns now on the node's chain, `contract:id:amount`, sorted: every token any NFT transfer
 * log ever named, asked of its contract now (ERC-721 ownerOf, reverting for a burned token; ERC-1155
 * balanceOf).
 */
async function ownedOnChain(r: Rpc, wallet: string): Promise<string[]> {
  const logs = (await r.call('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', topics: [[TRANSFER, SINGLE, BATCH]] }])) as { address: string; topics: string[]; data: string }[];
  const erc721 = new Set<string>();
  const erc1155 = new Set<string>();
  for (const l of logs) {
    const token = l.address.toLowerCase();
    if (l.topics[0] === TRANSFER && l.topics.length === 4) erc721.add(`${token}:${BigInt(l.topics[3]!)}`);
    const words = (l.data.slice(2).match(/.{64}/g) ?? []).map((w) => BigInt(`0x${w}`));
    if (l.topics[0] === SINGLE) erc1155.add(`${token}:${words[0]}`);
    if (l.topics[0] === BATCH) for (const id of words.slice(3, 3 + Number(words[2]))) erc1155.add(`${token}:${id}`);
  }
  const word = (n: bigint | string) => BigInt(n).toString(16).padStart(64, '0');
  const out: string[] = [];
  for (const k of erc721) {
    const [token, id] = k.split(':') as [string, string];
    const owner = (await r.call('eth_call', [{ to: token, data: `0x6352211e${word(id)}` }, 'latest']).catch(() => null)) as string | null;
    if (owner && `0x${owner.slice(26)}`.toLowerCase() === wallet.toLowerCase()) out.push(`${token}:${id}:1`);
  }
  for (const k of erc1155) {
    const [token, id] = k.split(':') as [string, string];
    // The standard's balanceOf(owner, id); the devnet's Items1155 takes (id, owner), as its ABI says.
    const standard = await r.call('eth_call', [{ to: token, data: `0x00fdd58e${word(wallet)}${word(id)}` }, 'latest']).catch(() => null);
    const bal = BigInt((standard ?? (await r.call('eth_call', [{ to: token, data: `${BALANCE_OF_ID_OWNER}${word(id)}${word(wallet)}` }, 'latest']))) as string);
    if (bal > 0n) out.push(`${token}:${id}:${bal}`);
  }
  return out.sort();
}

describe('each chain’s node is probed on its own: a range-limited trace-only node for devnet, an ots_ node for devnet2', () => {
  let limited: RpcProxy;
  let kinds: LanternInstance;
  beforeAll(async () => {
    // devnet behind a provider-like proxy: no ots_ (trace_filter instead) and eth_getLogs refused over 40 blocks.
    limited = await startRpcProxy(inject('evmRpcUrl'));
    limited.refuseMethods = NODE_KINDS.traceOnly;
    limited.logLimits = { maxBlocks: 40, maxResults: 10_000, style: 'infura' };
    kinds = await startLantern({ EVM_RPC_URLS: `devnet=${limited.url},devnet2=${inject('evm2RpcUrl')}` });
  }, 180_000);
  afterAll(async () => {
    await kinds?.stop();
    await limited?.stop();
  });

  it('each chain’s history is complete by its own node’s means, and health names those means per chain', async () => {
    for (const [chain, wallet] of [['devnet', alice], ['devnet', dave], ['devnet2', alice], ['devnet2', nadia]] as const) {
      const got = await allHistory(kinds.url, wallet, chain);
      expect(got.map((t) => t.hash), `${chain} ${wallet}`).toEqual(expectedHistory(chain, wallet).map((t) => t.hash));
    }
    // devnet's node was read as its kind allows: trace_filter, log windows within the limit; devnet2's kept ots_.
    expect(limited.calls.filter((c) => c.method.startsWith('ots_')).map((c) => c.method)).toEqual(['ots_getApiLevel']);
    expect(limited.calls.some((c) => c.method === 'trace_filter')).toBe(true);
    expect(limited.logRefusals.range).toBeGreaterThan(0);
    const h = (await get(kinds.url, '/api/health')).body;
    expect(h.evm_history.devnet.complete).toBe(true);
    expect(h.evm_history.devnet.found_with).toContain('trace_filter');
    expect(h.evm_history.devnet2.complete).toBe(true);
    expect(h.evm_history.devnet2.found_with).not.toContain('trace_filter');
  }, 300_000);
});
