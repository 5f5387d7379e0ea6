import { decodeAbiParameters, encodeFunctionData, erc20Abi, keccak256, pad, parseAbi, toHex, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadManifest, transactionsTouching } from '../../devnet/evm/index.mjs';
import { approvalsPageSchema } from '../../lib/interface/approvals';
import { erc20BalancesSchema, tokenBalancesPageSchema, type TokenBalancesPage } from '../../lib/interface/tokens';
import { walletStatsSchema } from '../../lib/interface/wallet-stats';
import { rpcClient, startForeignChain, type ForeignChain, type Rpc } from '../support/foreign-chain';
import { startLantern, type LanternInstance } from '../support/lantern';
import { startRpcProxy, type RpcProxy } from '../support/rpc-proxy';

// What a wallet holds and who may spend it, against the node itself. For every scenario wallet of the
// devnet and every wallet of a chain Lantern did not write (OpenZeppelin tokens, tests/support/foreign-chain):
// the tokens list equals `balanceOf` at the answer's block_number, read here with plain eth_call, for every
// token that ever emitted a Transfer naming the wallet (zero balances left out, reverting ones listed as
// unreadable); approvals equal `allowance` / `isApprovedForAll` for every pair the wallet's Approval and
// ApprovalForAll logs name. A second Lantern reads the devnet through a node that refuses eth_call state
// overrides (Geth before 1.9.x style) and has pruned the state of old blocks.

const m = loadManifest();
const CHAIN = '0x7a69';
const PRUNED_BELOW = 590;
const MULTICALL3 = '0xca11bde05977b3631167028862be2a173976ca11';
const TOKEN_READER = '0x000000000000000000000000000000004c746e52';

const TRANSFER = keccak256(toHex('Transfer(address,address,uint256)'));
const APPROVAL = keccak256(toHex('Approval(address,address,uint256)'));
const APPROVAL_FOR_ALL = keccak256(toHex('ApprovalForAll(address,address,bool)'));
const SINGLE = keccak256(toHex('TransferSingle(address,address,address,uint256,uint256)'));
const BATCH = keccak256(toHex('TransferBatch(address,address,address,uint256[],uint256[])'));

interface Log {
  address: string;
  topics: Hex[];
  data: Hex;
  blockNumber: Hex;
}

const topicOf = (a: string) => pad(a as Hex, { size: 32 }).toLowerCase() as Hex;
const addrOf = (t: Hex) => `0x${t.slice(26)}`.toLowerCase();

/** The oracle: everything below is read from the node with plain JSON-RPC, nothing from Lantern. */
function oracleOn(rpc: Rpc) {
  const logs = (topics: (Hex | Hex[] | null)[], to: number) => rpc.call('eth_getLogs', [{ fromBlock: '0x0', toBlock: toHex(to), topics }]) as Promise<Log[]>;
  const viewAt = async (to: string, data: Hex, block: number): Promise<bigint | null> => {
    try {
      const out = (await rpc.call('eth_call', [{ to, data }, toHex(block)])) as Hex;
      return out.length >= 66 ? BigInt(out.slice(0, 66)) : null;
    } catch {
      return null; // reverted
    }
  };
  return {
    /** ERC-20 balances at `block` of every token whose Transfer logs name the wallet; null where balanceOf reverts. */
    async balances(wallet: string, block: number): Promise<Map<string, bigint | null>> {
      const w = topicOf(wallet);
      const found = [...(await logs([TRANSFER, w], block)), ...(await logs([TRANSFER, null, w], block))].filter((l) => l.topics.length === 3);
      const tokens = [...new Set(found.map((l) => l.address.toLowerCase()))].sort();
      const out = new Map<string, bigint | null>();
      for (const t of tokens) out.set(t, await viewAt(t, encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [wallet as Hex] }), block));
      return out;
    },
    /** Standing approvals at `block`: every pair the wallet's logs name, confirmed by the token. */
    async approvals(wallet: string, block: number) {
      const w = topicOf(wallet);
      const given = (await logs([APPROVAL, w], block)).filter((l) => l.topics.length === 3);
      const ops = await logs([APPROVAL_FOR_ALL, w], block);
      const erc20 = new Map<string, string>();
      for (const key of new Set(given.map((l) => `${l.address.toLowerCase()}|${addrOf(l.topics[2]!)}`))) {
        const [token, spender] = key.split('|') as [Hex, Hex];
        const v = await viewAt(token, encodeFunctionData({ abi: erc20Abi, functionName: 'allowance', args: [wallet as Hex, spender] }), block);
        if (v) erc20.set(key, v.toString());
      }
      const operators = new Set<string>();
      const abi = parseAbi(['function isApprovedForAll(address, address) view returns (bool)']);
      for (const key of new Set(ops.map((l) => `${l.address.toLowerCase()}|${addrOf(l.topics[2]!)}`))) {
        const [token, op] = key.split('|') as [Hex, Hex];
        if ((await viewAt(token, encodeFunctionData({ abi, functionName: 'isApprovedForAll', args: [wallet as Hex, op] }), block)) === 1n) operators.add(key);
      }
      return { erc20, operators };
    },
    /** ERC-20 Transfer logs, and NFT transfers (one per id of a batch), naming the wallet up to `block`. */
    async transferCounts(wallet: string, block: number) {
      const w = topicOf(wallet);
      const sides = async (t: Hex | Hex[], at: 1 | 2 | 3) => logs(at === 1 ? [t, w] : at === 2 ? [t, null, w] : [t, null, null, w], block);
      const uniq = (ls: Log[]) => [...new Map(ls.map((l) => [`${l.blockNumber}:${JSON.stringify(l.topics)}:${l.data}`, l])).values()];
      const t20 = uniq([...(await sides(TRANSFER, 1)), ...(await sides(TRANSFER, 2))]);
      const t1155 = uniq([...(await sides([SINGLE, BATCH], 2)), ...(await sides([SINGLE, BATCH], 3))]);
      const ids = (l: Log) => (l.topics[0] === SINGLE ? 1 : decodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint256[]' }], l.data)[0].length);
      return {
        token: t20.filter((l) => l.topics.length === 3).length,
        nft: t20.filter((l) => l.topics.length === 4).length + t1155.reduce((n, l) => n + ids(l), 0),
      };
    },
  };
}

async function get(lantern: LanternInstance, path: string): Promise<{ status: number; body: Record<string, unknown> & { message?: string; parameter?: string; code?: string } }> {
  const res = await fetch(`${lantern.url}${path}`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Every page of a wallet's tokens, followed by cursor: one block for all of them. */
async function allTokens(lantern: LanternInstance, wallet: string, query = '', between?: () => Promise<unknown>): Promise<TokenBalancesPage & { pages: number }> {
  let cursor = '';
  const pages: TokenBalancesPage[] = [];
  for (let i = 0; i < 50; i++) {
    const { status, body } = await get(lantern, `/api/v2.2/wallets/${wallet}/tokens?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(status, JSON.stringify(body)).toBe(200);
    const page = tokenBalancesPageSchema.parse(body);
    pages.push(page);
    if (!page.cursor) break;
    cursor = page.cursor;
    await between?.();
  }
  for (const p of pages) expect(p.block_number).toBe(pages[0]!.block_number);
  return { ...pages[0]!, result: pages.flatMap((p) => p.result), cursor: null, pages: pages.length };
}

/** Lantern's tokens of a wallet against the oracle at the answer's block. */
async function checkTokens(lantern: LanternInstance, rpc: Rpc, wallet: string, query = '') {
  const page = await allTokens(lantern, wallet, query);
  const block = Number(page.block_number);
  const oracle = await oracleOn(rpc).balances(wallet, block);
  const held = [...oracle].filter(([, v]) => v !== null && v > 0n).map(([t, v]) => [t, v!.toString()]);
  const reverted = [...oracle].filter(([, v]) => v === null).map(([t]) => t);
  const [native, ...tokens] = page.result;
  expect(native!.native_token).toBe(true);
  expect(native!.balance).toBe(BigInt((await rpc.call('eth_getBalance', [wallet, toHex(block)])) as string).toString());
  expect(tokens.map((t) => [t.token_address, t.balance]).sort(), `tokens of ${wallet} at ${block}`).toEqual(held.sort());
  expect((page.unreadable ?? []).map((u) => u.token_address).sort(), `unreadable tokens of ${wallet}`).toEqual(reverted.sort());
  return page;
}

async function checkApprovals(lantern: LanternInstance, rpc: Rpc, wallet: string) {
  const { status, body } = await get(lantern, `/api/v2.2/wallets/${wallet}/approvals?limit=100`);
  expect(status, JSON.stringify(body)).toBe(200);
  const page = approvalsPageSchema.parse(body);
  expect(page.cursor).toBeNull();
  const block = Number(body.block_number);
  const oracle = await oracleOn(rpc).approvals(wallet, block);
  expect(new Map(page.result.map((a) => [`${a.token.address}|${a.spender.address}`, a.value])), `allowances of ${wallet}`).toEqual(oracle.erc20);
  expect(new Set((page.operator_approvals ?? []).map((o) => `${o.token.address}|${o.operator.address}`)), `operators of ${wallet}`).toEqual(oracle.operators);
  return page;
}

let devnetRpc: Rpc;
let counting: RpcProxy;
let refusing: RpcProxy;
let direct: LanternInstance;
let proxied: LanternInstance;
const scenarioWallets = [...Object.values(m.accounts).map((a) => a.address), ...Object.values(m.contracts).map((c) => c.address)];
const holder = m.accounts.holder.address;

beforeAll(async () => {
  devnetRpc = rpcClient(inject('evmRpcUrl'));
  counting = await startRpcProxy(inject('evmRpcUrl'));
  refusing = await startRpcProxy(inject('evmRpcUrl'));
  // A node that takes no state override, and no longer has the state of blocks below PRUNED_BELOW, with
  // the words Geth uses for both.
  refusing.errorFor = ({ method, params }) => {
    if (method === 'eth_call' && params.length > 2) return { code: -32602, message: 'too many arguments, want at most 2' };
    const tag = method === 'eth_call' || method === 'eth_getBalance' ? params[1] : undefined;
    if (typeof tag === 'string' && /^0x/.test(tag) && Number(tag) < PRUNED_BELOW) return { code: -32000, message: `missing trie node ${'ab'.repeat(32)} (path ) state ${'cd'.repeat(32)} is not available` };
    return null;
  };
  const env = { DEVNET_EVM_PORT: String(inject('evmPort')) };
  [direct, proxied] = await Promise.all([startLantern({ ...env, EVM_RPC_URL: counting.url }), startLantern({ ...env, EVM_RPC_URL: refusing.url })]);
}, 120_000);

afterAll(async () => {
  await Promise.allSettled([direct?.stop(), proxied?.stop(), counting?.stop(), refusing?.stop()]);
});

describe('the devnet, every scenario wallet', () => {
  it('tokens equal balanceOf at the answer’s block for every token whose Transfer logs name the wallet', async () => {
    for (const w of scenarioWallets) await checkTokens(direct, devnetRpc, w);
  });

  it('approvals equal allowance and isApprovedForAll for every pair the wallet’s logs name', async () => {
    for (const w of scenarioWallets) await checkApprovals(direct, devnetRpc, w);
  });

  it('the legacy erc20 list is the tokens list without the native coin', async () => {
    for (const w of [holder, m.accounts.alice.address, m.accounts.merchant.address, m.contracts.pool.address]) {
      const page = await allTokens(direct, w);
      const { status, body } = await get(direct, `/api/v2.2/${w}/erc20?to_block=${page.block_number}`);
      expect(status).toBe(200);
      const legacy = erc20BalancesSchema.parse(body);
      expect(legacy.map((t) => [t.token_address, t.balance, t.decimals, t.possible_spam])).toEqual(
        page.result.filter((t) => !t.native_token).map((t) => [t.token_address, t.balance, t.decimals, t.possible_spam]),
      );
    }
  });
});

describe("the holder's odd tokens", () => {
  it('shows each safely: bytes32 names read as text, the reverting balanceOf as unreadable with its reason, spam marked', async () => {
    const page = await checkTokens(direct, devnetRpc, holder);
    const by = (key: string) => page.result.find((t) => t.token_address === m.contracts[key]!.address);
    expect(by('olg')).toMatchObject({ name: 'Old Lantern Gold', symbol: 'OLG', decimals: 18, balance_formatted: '4000' });
    expect(by('tax')).toMatchObject({ symbol: 'TAX', balance_formatted: '8750', total_supply_formatted: '10000', percentage_relative_to_total_supply: 87.5 });
    expect(by('spam')?.possible_spam).toBe(true);
    expect(by('usdc')?.possible_spam).toBe(false);
    expect(by('lnt')).toBeUndefined(); // she holds none now
    expect(page.unreadable).toEqual([{ token_address: m.contracts.broken.address, name: 'Broken Balance', symbol: 'BROKEN', reason: 'balanceOf reverted: BROKEN: balanceOf is disabled' }]);
    // Spam last; every balance priced at nothing, never invented.
    expect(page.result.at(-1)!.possible_spam).toBe(true);
    for (const t of page.result) expect([t.usd_price, t.usd_value, t.portfolio_percentage]).toEqual([null, null, null]);
  });

  it('reads a rebasing balance at any to_block: it moves at a rebase with no Transfer log', async () => {
    const rebases = m.transactions.filter((t) => t.to === m.contracts.rlnt.address && t.kind === 'contract_call').map((t) => t.blockNumber);
    expect(rebases).toHaveLength(2);
    const seen: string[] = [];
    for (const b of [rebases[0]! - 1, rebases[0]!, rebases[1]! - 1, rebases[1]!]) {
      const page = await checkTokens(direct, devnetRpc, holder, `to_block=${b}`);
      expect(page.block_number).toBe(String(b));
      seen.push(page.result.find((t) => t.symbol === 'rLNT')!.balance);
    }
    expect(seen[1]).not.toBe(seen[0]);
    expect(seen[3]).not.toBe(seen[2]);
  });

  it('excludes spam or the native coin when asked, and reads the tokens named', async () => {
    const spamless = await allTokens(direct, holder, 'exclude_spam=true&exclude_native=true');
    expect(spamless.result.some((t) => t.possible_spam || t.native_token)).toBe(false);
    const named = await allTokens(direct, holder, `token_addresses=${m.contracts.usdc.address}&token_addresses=${m.contracts.lnt.address}&exclude_native=true`);
    expect(named.result.map((t) => t.symbol)).toEqual(['USDC']); // LNT: zero now
  });

  it('pages hold the block of the first page, even after a new block', async () => {
    const head = Number(await devnetRpc.call('eth_blockNumber'));
    const paged = await allTokens(direct, holder, 'limit=2', () => devnetRpc.call('evm_mine', []));
    expect(paged.pages).toBeGreaterThan(2);
    expect(Number(paged.block_number)).toBeGreaterThanOrEqual(head);
    expect(Number(await devnetRpc.call('eth_blockNumber'))).toBeGreaterThan(Number(paged.block_number));
    const whole = await allTokens(direct, holder, `to_block=${paged.block_number}`);
    expect(paged.result).toEqual(whole.result);
  });

  it('approvals: unlimited, partly used (the allowance, not the last Approval log), revoked ones gone, operators', async () => {
    const page = await checkApprovals(direct, devnetRpc, holder);
    const merchant = m.accounts.merchant.address;
    const row = (token: string) => page.result.find((a) => a.token.address === m.contracts[token]!.address);
    expect(row('usdc')).toMatchObject({ spender: { address: m.contracts.pool.address }, unlimited: true, at_risk: '5000000000', token: { current_balance: '5000000000' } });
    expect(row('tax')).toMatchObject({ value: (750n * 10n ** 18n).toString(), value_formatted: '750', spender: { address: merchant } });
    expect(row('olg')).toBeUndefined();
    expect(page.operator_approvals).toEqual([expect.objectContaining({ token: expect.objectContaining({ symbol: 'KEY', contract_type: 'ERC721' }), operator: expect.objectContaining({ address: merchant }) })]);
    // The approval's own transaction and time.
    const tx = m.transactions.find((t) => t.hash === row('tax')!.transaction_hash)!;
    expect([tx.from, tx.to, row('tax')!.block_timestamp]).toEqual([holder, m.contracts.tax.address, tx.time]);
  });

  it('reads balances in one eth_call per few hundred tokens, the token reader (or the multicall) placed with a state override', async () => {
    counting.calls.length = 0;
    const page = await allTokens(direct, m.accounts.issuer.address, `to_block=${m.stats.lastBlock}`);
    expect(page.result.length).toBeGreaterThan(1);
    const calls = counting.calls.filter((c) => c.method === 'eth_call');
    const to = (c: (typeof calls)[number]) => (c.params[0] as { to?: string }).to?.toLowerCase();
    const placed = calls.filter((c) => to(c) === MULTICALL3 || to(c) === TOKEN_READER);
    expect(calls.filter((c) => to(c) === TOKEN_READER).length).toBeGreaterThanOrEqual(1); // the balances
    expect(calls.length - placed.length).toBe(0); // no token asked one by one
    for (const c of placed) expect(Object.keys((c.params[2] ?? {}) as object).map((k) => k.toLowerCase())).toEqual([to(c)]);
  });
});

describe('a never-seen wallet', () => {
  it('is answered before its logs are kept, and they are kept: the next request reads only the blocks after them', async () => {
    const wallet = `0x${keccak256(toHex(`never-seen ${Date.now()}`)).slice(26)}`;
    const topic = pad(wallet as Hex, { size: 32 }).toLowerCase();
    const logReads = () =>
      counting.calls.filter((c) => c.method === 'eth_getLogs' && JSON.stringify(c.params).toLowerCase().includes(topic)).map((c) => Number((c.params[0] as { fromBlock: string }).fromBlock));
    counting.calls.length = 0;
    await checkTokens(direct, devnetRpc, wallet);
    expect(Math.min(...logReads())).toBe(1); // the whole chain, once
    counting.calls.length = 0;
    await checkApprovals(direct, devnetRpc, wallet);
    expect(logReads().every((from) => from > 1), `log reads from ${logReads().join(', ')}`).toBe(true);
  });
});

describe('a node that refuses state overrides and has pruned old state', () => {
  it('answers the same tokens and approvals with single calls', async () => {
    for (const w of [holder, m.accounts.merchant.address, m.accounts.alice.address]) {
      const a = await allTokens(proxied, w);
      const b = await allTokens(direct, w, `to_block=${a.block_number}`);
      expect(a.result).toEqual(b.result);
      await checkApprovals(proxied, devnetRpc, w);
    }
    expect(refusing.calls.some((c) => c.method === 'eth_call' && c.params.length > 2)).toBe(true); // tried once
    expect(refusing.calls.filter((c) => c.method === 'eth_call' && c.params.length > 2).length).toBeLessThanOrEqual(2);
  });

  it('a to_block whose state is pruned is a 410 that says so', async () => {
    const r = await get(proxied, `/api/v2.2/wallets/${holder}/tokens?to_block=100`);
    expect(r.status).toBe(410);
    expect(r.body.code).toBe('block_pruned');
    expect(r.body.message).toMatch(/no longer keeps the state of block 100.*pruned/);
    const legacy = await get(proxied, `/api/v2.2/${holder}/erc20?to_block=100`);
    expect(legacy.status).toBe(410);
  });
});

describe('stats', () => {
  it('count NFTs, collections, transactions, NFT and token transfers as the node and the history do', async () => {
    for (const name of ['holder', 'merchant', 'bob', 'heidi', 'mallory']) {
      const w = m.accounts[name]!.address;
      const { status, body } = await get(direct, `/api/v2.2/wallets/${w}/stats?chain=${CHAIN}`);
      expect(status, JSON.stringify(body)).toBe(200);
      const stats = walletStatsSchema.parse(body);
      const head = Number(await devnetRpc.call('eth_blockNumber'));
      const counts = await oracleOn(devnetRpc).transferCounts(w, head);
      const held = m.final_nft_ownership.filter((n) => n.owner === w);
      expect(stats, name).toEqual({
        nfts: String(held.length),
        collections: String(new Set(held.map((n) => n.contract)).size),
        transactions: { total: String(transactionsTouching(m, w).length) },
        nft_transfers: { total: String(counts.nft) },
        token_transfers: { total: String(counts.token) },
      });
    }
  });
});

describe('bad requests', () => {
  it('are 400s naming the parameter', async () => {
    const approvals = await get(direct, `/api/v2.2/wallets/${holder}/approvals?limit=1`);
    const foreignCursor = String(approvals.body.cursor);
    expect(foreignCursor).not.toBe('');
    const cases: [string, string][] = [
      [`/api/v2.2/wallets/0x1234/tokens`, 'address'],
      [`/api/v2.2/wallets/${holder}/tokens?to_block=latest`, 'to_block'],
      [`/api/v2.2/wallets/${holder}/tokens?limit=0`, 'limit'],
      [`/api/v2.2/wallets/${holder}/tokens?chain=nochain`, 'chain'],
      [`/api/v2.2/wallets/${holder}/tokens?chain=eth`, 'chain'],
      [`/api/v2.2/wallets/${holder}/tokens?exclude_native=1`, 'exclude_native'],
      [`/api/v2.2/wallets/${holder}/tokens?token_addresses=0xabc`, 'token_addresses'],
      [`/api/v2.2/wallets/${holder}/tokens?cursor=garbage`, 'cursor'],
      [`/api/v2.2/wallets/${holder}/tokens?cursor=${encodeURIComponent(foreignCursor)}`, 'cursor'],
      [`/api/v2.2/wallets/${holder}/approvals?limit=101`, 'limit'],
      [`/api/v2.2/wallets/${holder}/approvals?chain=polygon`, 'chain'],
      [`/api/v2.2/wallets/${holder}/stats?chain=0x1`, 'chain'],
      [`/api/v2.2/${holder}/erc20?exclude_spam=maybe`, 'exclude_spam'],
    ];
    for (const [path, parameter] of cases) {
      const r = await get(direct, path);
      expect([r.status, r.body.parameter], path).toEqual([400, parameter]);
      expect(r.body.message).toMatch(new RegExp(`^${parameter}(\\[\\d+\\])?: `));
    }
  });

  it('a to_block beyond the head reads the head', async () => {
    // Lantern shares its read of the head for a second (EVM_HEAD_TTL_MS): asked again until it has the node's.
    const head = Number(await devnetRpc.call('eth_blockNumber'));
    let block = 0;
    for (let i = 0; i < 100 && block !== head; i++) {
      block = Number((await allTokens(direct, holder, 'to_block=99999999')).block_number);
      expect(block).toBeLessThanOrEqual(head);
      if (block !== head) await new Promise((r) => setTimeout(r, 100));
    }
    expect(block).toBe(head);
  });
});

describe('a chain Lantern did not write (OpenZeppelin tokens, approvals and operators)', () => {
  let chain: ForeignChain;
  let lantern: LanternInstance;
  beforeAll(async () => {
    chain = await startForeignChain(21);
    await chain.round(160);
    lantern = await startLantern({ EVM_RPC_URL: chain.url, EVM_REORG_DEPTH: '2', EVM_HEAD_TTL_MS: '0' });
  }, 240_000);
  afterAll(async () => {
    await lantern?.stop();
    await chain?.stop();
  });

  it('tokens and approvals equal the node for every wallet and contract', async () => {
    const wallets = [...chain.wallets, ...Object.values(chain.contracts)].map((a) => a.toLowerCase());
    let approvals = 0;
    for (const w of wallets) {
      await checkTokens(lantern, chain.rpc, w);
      approvals += (await checkApprovals(lantern, chain.rpc, w)).result.length;
    }
    expect(approvals).toBeGreaterThan(0);
  });

  it('a never-seen wallet asked its tokens first still counts every transfer after: the NFT logs its answer did not wait for are kept', async () => {
    // A tokens answer reads only the logs ERC-20 balances need before it is sent; the ERC-1155
    // recipient's are read after it, and kept with the rest, so the stats read from the index find them.
    // A Lantern of its own, so every wallet is never-seen whichever test of this chain ran first.
    const fresh = await startLantern({ EVM_RPC_URL: chain.url, EVM_REORG_DEPTH: '2', EVM_HEAD_TTL_MS: '0' });
    try {
      const oracle = oracleOn(chain.rpc);
      let nft = 0;
      for (const w of chain.wallets.map((a) => a.toLowerCase())) {
        const { status } = await get(fresh, `/api/v2.2/wallets/${w}/tokens?limit=1`);
        expect(status).toBe(200);
        const stats = await get(fresh, `/api/v2.2/wallets/${w}/stats`);
        expect(stats.status, JSON.stringify(stats.body)).toBe(200);
        const counts = await oracle.transferCounts(w, Number(await chain.rpc.call('eth_blockNumber')));
        expect(walletStatsSchema.parse(stats.body), w).toMatchObject({ nft_transfers: { total: String(counts.nft) }, token_transfers: { total: String(counts.token) } });
        nft += counts.nft;
      }
      expect(nft).toBeGreaterThan(0);
    } finally {
      await fresh.stop();
    }
  }, 120_000);
});
