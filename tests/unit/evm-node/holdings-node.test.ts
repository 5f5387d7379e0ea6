import { describe, expect, it } from 'vitest';
import { decodeFunctionData, encodeAbiParameters, encodeErrorResult, encodeFunctionResult, multicall3Abi, parseAbi, stringToHex, type Hex } from 'viem';
import { chainOrCustom } from '@/lib/chains';
import { NATIVE_TOKEN_ADDRESS, type TokenBalance, type TokenBalancesPage, type TokenBalancesQuery } from '@/lib/interface/tokens';
import { nodeErc20Balances, nodeTokenBalances } from '@/lib/sources/evm-node/holdings';
import { READS, TOKEN_READER_ADDRESS } from '@/lib/sources/evm-node/token-reader';
import { TOPIC_TRANSFER, ZERO_TOPIC, addressTopic } from '@/lib/sources/evm-node/logs';
import { FakeChain, NODE_TIMEOUT, freshChainId, onChain, testDbForFile, type FakeTx } from '../../support/fake-evm-node';

// What a wallet holds (holdings.ts), read from a node over a real local HTTP socket: a chain model
// (tests/support/fake-evm-node.ts) whose eth_call answers the token reader (its own compact answer) and
// Multicall3's aggregate3 from a table of token contracts, each view call as the test writes it: a
// reverting balanceOf, one that answers nothing, a bytes32 name, decimals out of range, a zero balance,
// a token whose name and airdrop make it possible spam. Balances move with the block asked.

const WALLET = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const SPAMMER = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc';
const addr = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
const ALPHA = addr(0xa1);
const MAKER = addr(0xa2);
const PAUSED = addr(0xa3);
const GHOST = addr(0xa4);
const ODD = addr(0xa5);
const SPENT = addr(0xa6);
const SPAM = addr(0xa7);
const LATE = addr(0xa8);
const NFT = addr(0xa9);
const UNLOGGED = addr(0xaa);

type View = { ok: boolean; data: Hex };
const ok = (data: Hex): View => ({ ok: true, data });
const str = (s: string) => ok(encodeAbiParameters([{ type: 'string' }], [s]));
const u256 = (n: bigint) => ok(encodeAbiParameters([{ type: 'uint256' }], [n]));
const reverts = (reason?: string): View => ({ ok: false, data: reason ? encodeErrorResult({ abi: parseAbi(['error Error(string)']), errorName: 'Error', args: [reason] }) : '0x' });
const E18 = 10n ** 18n;

interface FakeToken {
  name?: View;
  symbol?: View;
  decimals?: View;
  /** The wallet's balance at a block. */
  balance(block: number): View;
  totalSupply?: View;
}

/** Alpha's balance moves at block 7 (a rebase: no log), so a read at block 5 and one at the head differ. */
const TOKENS: Record<string, FakeToken> = {
  [ALPHA]: { name: str('Alpha'), symbol: str('ALP'), decimals: u256(18n), balance: (b) => u256(b >= 7 ? 2n * E18 : (3n * E18) / 2n), totalSupply: u256(1000n * E18) },
  [MAKER]: { name: ok(stringToHex('Maker', { size: 32 })), symbol: ok(stringToHex('MKR', { size: 32 })), decimals: u256(18n), balance: () => u256(5n * E18), totalSupply: u256(20n * E18) },
  [PAUSED]: { name: str('Paused'), symbol: str('PSD'), decimals: u256(6n), balance: () => reverts('token is paused') },
  [GHOST]: { balance: () => ok('0x') }, // no code: every call succeeds and returns nothing
  [ODD]: { name: str('Odd'), symbol: str('ODD'), decimals: u256(300n), balance: () => u256(12345n), totalSupply: reverts() },
  [SPENT]: { name: str('Spent'), symbol: str('SPT'), decimals: u256(18n), balance: () => u256(0n), totalSupply: u256(E18) },
  [SPAM]: { name: str('Claim rewards at spam.xyz'), symbol: str('CLAIM'), decimals: u256(18n), balance: () => u256(777n * E18), totalSupply: u256(10n ** 30n) },
  [LATE]: { name: str('Late'), symbol: str('LTE'), decimals: u256(2n), balance: (b) => u256(b >= 8 ? 4200n : 0n), totalSupply: u256(10_000n) },
  [UNLOGGED]: { name: str('Unlogged'), symbol: str('UNL'), decimals: u256(0n), balance: () => u256(9n), totalSupply: u256(9n) },
};

const SELECTORS: Record<string, keyof Omit<FakeToken, 'balance'> | 'balanceOf'> = {
  '0x70a08231': 'balanceOf',
  '0x18160ddd': 'totalSupply',
  '0x06fdde03': 'name',
  '0x95d89b41': 'symbol',
  '0x313ce567': 'decimals',
};

/** One view call to `target` at `block`, as the token contracts above answer it (anything else reverts). */
function view(target: string, callData: Hex, block: number): View {
  const t = TOKENS[target.toLowerCase()];
  if (!t) return ok('0x'); // no contract there
  const what = SELECTORS[callData.slice(0, 10)];
  if (what === 'balanceOf') {
    if (callData.slice(34).toLowerCase() !== WALLET.slice(2)) throw new Error(`balanceOf asked of another wallet: ${callData}`);
    return t.balance(block);
  }
  return (what && t[what]) || (t === TOKENS[GHOST] ? ok('0x') : reverts());
}

/** The token reader's answer: per call, a success byte, the return data's length in 4 bytes, the data. */
function readerAnswer(data: Hex, block: number): Hex {
  const hex = data.slice(2);
  let out = '0x';
  for (let p = 40; p < hex.length; p += 42) {
    const token = `0x${hex.slice(p, p + 40)}`;
    const mask = Number.parseInt(hex.slice(p + 40, p + 42), 16);
    READS.forEach((r, k) => {
      if (!(mask & (1 << k))) return;
      const callData = (r === 'balanceOf' ? `0x70a08231${WALLET.slice(2).padStart(64, '0')}` : Object.keys(SELECTORS).find((s) => SELECTORS[s] === r)!) as Hex;
      const v = view(token, callData, block);
      out += (v.ok ? '01' : '00') + ((v.data.length - 2) / 2).toString(16).padStart(8, '0') + v.data.slice(2);
    });
  }
  return out as Hex;
}

const transfer = (token: string, from: string, to: string, value: bigint) => ({
  address: token,
  topics: [TOPIC_TRANSFER, from === '0x0' ? ZERO_TOPIC : addressTopic(from), addressTopic(to)],
  data: encodeAbiParameters([{ type: 'uint256' }], [value]),
});
const mint = (token: string, by: string, value = E18): FakeTx => ({ from: by, to: token, logs: [transfer(token, '0x0', WALLET, value)] });

/**
 * The wallet's chain: mints of each token in blocks 1-4 (the spam token's airdropped by someone else),
 * an NFT's Transfer (4 topics) in 5, the late token in 8, head 10. Balances follow TOKENS, not the logs.
 */
function build(c: FakeChain) {
  c.mine([mint(ALPHA, WALLET), mint(MAKER, WALLET)]);
  c.mine([mint(PAUSED, WALLET), mint(GHOST, WALLET), mint(ODD, WALLET)]);
  c.mine([mint(SPENT, WALLET), { from: WALLET, to: SPENT, logs: [transfer(SPENT, WALLET, SPAMMER, E18)] }]);
  c.mine([mint(SPAM, SPAMMER, 777n * E18)]);
  c.mine([{ from: SPAMMER, to: NFT, logs: [{ address: NFT, topics: [TOPIC_TRANSFER, ZERO_TOPIC, addressTopic(WALLET), `0x${'0'.repeat(63)}7` as Hex], data: '0x' }] }]);
  c.mineTo(7);
  c.mine([mint(LATE, WALLET, 4200n)]);
  c.mineTo(10);
  const blockOf = (tag: unknown) => (tag === 'latest' || tag === undefined ? c.head.number : Number(tag));
  // The spam rule asks a token's mints up to 'latest', which the model reads as a number.
  c.overrides.set('eth_getLogs', (p) => {
    const f = p[0] as { toBlock: string };
    return c.model('eth_getLogs', [{ ...f, toBlock: f.toBlock === 'latest' ? `0x${c.head.number.toString(16)}` : f.toBlock }]);
  });
  c.overrides.set('eth_getCode', () => '0x'); // no Multicall3 deployed: Lantern places code by state override
  c.overrides.set('eth_getBalance', (p) => {
    if (String(p[0]).toLowerCase() !== WALLET) return '0x0';
    return `0x${(blockOf(p[1]) >= 3 ? 3n * E18 : E18).toString(16)}`;
  });
  c.overrides.set('eth_call', (p) => {
    const [{ to, data }, tag] = p as [{ to: string; data: Hex }, unknown];
    const block = blockOf(tag);
    if (to.toLowerCase() === TOKEN_READER_ADDRESS.toLowerCase()) return readerAnswer(data, block);
    if (data.startsWith('0x82ad56cb')) {
      const { args } = decodeFunctionData({ abi: multicall3Abi, data });
      const calls = args![0] as readonly { target: Hex; callData: Hex }[];
      const results = calls.map((call) => {
        const v = view(call.target, call.callData, block);
        return { success: v.ok, returnData: v.data };
      });
      return encodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', result: results });
    }
    const v = view(to, data, block);
    return v.data;
  });
}

const query = (q: Partial<TokenBalancesQuery> = {}): TokenBalancesQuery =>
  ({ token_addresses: [], exclude_spam: false, exclude_native: false, ...q }) as TokenBalancesQuery;

/** Every page of an answer, by cursor. */
async function allPages(chainId: number, q: Partial<TokenBalancesQuery>, between?: () => void): Promise<TokenBalancesPage[]> {
  const pages = [await nodeTokenBalances(WALLET, chainOrCustom(chainId), query(q))];
  while (pages.at(-1)!.cursor) {
    between?.();
    pages.push(await nodeTokenBalances(WALLET, chainOrCustom(chainId), query({ ...q, cursor: pages.at(-1)!.cursor! })));
  }
  return pages;
}

const brief = (r: TokenBalance) => [r.symbol, r.balance, r.decimals, r.balance_formatted];

testDbForFile();

describe('nodeTokenBalances against a node', NODE_TIMEOUT, () => {
  it('lists what the wallet holds at the head: the native coin first, balances from balanceOf, possible spam last', async () => {
    const c = new FakeChain(freshChainId());
    build(c);
    await onChain(c, async () => {
      const page = await nodeTokenBalances(WALLET, chainOrCustom(c.chainId), query());
      expect(page.block_number).toBe('10');
      expect(page.cursor).toBeNull();
      expect(page.result[0]).toMatchObject({ token_address: NATIVE_TOKEN_ADDRESS, native_token: true, balance: String(3n * E18), balance_formatted: '3', symbol: 'ETH' });
      const tokens = page.result.slice(1);
      // Sorted by symbol (MKR's bytes32 name and symbol read as text); a zero balance, a reverting or empty
      // balanceOf, and the NFT contract are not rows; the late token is (the head is past its block).
      expect(tokens.map(brief)).toEqual([
        ['ALP', String(2n * E18), 18, '2'],
        ['LTE', '4200', 2, '42'],
        ['MKR', String(5n * E18), 18, '5'],
        ['ODD', '12345', null, null],
        ['CLAIM', String(777n * E18), 18, '777'],
      ]);
      const row = (a: string) => tokens.find((t) => t.token_address === a)!;
      expect(row(MAKER)).toMatchObject({ name: 'Maker', total_supply: String(20n * E18), total_supply_formatted: '20', percentage_relative_to_total_supply: 25, possible_spam: false });
      // Decimals out of range: the balance in the smallest unit, said so; the supply that reverted is null.
      expect(row(ODD)).toMatchObject({ decimals: null, balance_formatted: null, total_supply: null, percentage_relative_to_total_supply: null });
      expect(row(ODD).note).toMatch(/decimals/);
      // A bait name, minted to the wallet by someone else: possible spam.
      expect(row(SPAM)).toMatchObject({ name: 'Claim rewards at spam.xyz', possible_spam: true });
      expect(tokens.some((t) => [SPENT, PAUSED, GHOST, NFT].includes(t.token_address))).toBe(false);
      // What could not be read is said, with why (the token's own revert reason when it gave one).
      const unreadable = Object.fromEntries((page.unreadable ?? []).map((u) => [u.token_address, u]));
      expect(Object.keys(unreadable).sort()).toEqual([PAUSED, GHOST].sort());
      expect(unreadable[PAUSED]).toMatchObject({ name: 'Paused', symbol: 'PSD' });
      expect(unreadable[PAUSED]!.reason).toContain('token is paused');
      expect(unreadable[GHOST]!.reason).toMatch(/answered nothing/);
    });
  });

  it('reads every balance at to_block: a token received later is not listed, a balance that moved since is as it was', async () => {
    const c = new FakeChain(freshChainId());
    build(c);
    await onChain(c, async () => {
      // Asked at the head first, so the token facts are known; then at block 5, and at block 2 before the native coin moved.
      await nodeTokenBalances(WALLET, chainOrCustom(c.chainId), query());
      const at5 = await nodeTokenBalances(WALLET, chainOrCustom(c.chainId), query({ to_block: 5 }));
      expect(at5.block_number).toBe('5');
      expect(at5.result.map((r) => r.symbol)).toEqual(['ETH', 'ALP', 'MKR', 'ODD', 'CLAIM']);
      expect(at5.result[1]).toMatchObject({ token_address: ALPHA, balance: String((3n * E18) / 2n), balance_formatted: '1.5' });
      const at2 = await nodeTokenBalances(WALLET, chainOrCustom(c.chainId), query({ to_block: 2, exclude_spam: true }));
      expect(at2.result.map((r) => [r.symbol, r.balance])).toEqual([['ETH', String(E18)], ['ALP', String((3n * E18) / 2n)], ['MKR', String(5n * E18)], ['ODD', '12345']]);
      // A block past the head is the head.
      const past = await nodeTokenBalances(WALLET, chainOrCustom(c.chainId), query({ to_block: 99 }));
      expect(past.block_number).toBe('10');
    });
  });

  it('answers a never-seen wallet at to_block too (its token facts then read apart from the balances)', async () => {
    const c = new FakeChain(freshChainId());
    build(c);
    await onChain(c, async () => {
      const at5 = await nodeTokenBalances(WALLET, chainOrCustom(c.chainId), query({ to_block: 5, exclude_native: true }));
      expect(at5.result.map(brief)).toEqual([
        ['ALP', String((3n * E18) / 2n), 18, '1.5'],
        ['MKR', String(5n * E18), 18, '5'],
        ['ODD', '12345', null, null],
        ['CLAIM', String(777n * E18), 18, '777'],
      ]);
      expect(at5.result.find((r) => r.token_address === SPAM)!.possible_spam).toBe(true);
    });
  });

  it('pages by cursor at the block of the first page, whatever is mined between pages', async () => {
    const c = new FakeChain(freshChainId());
    build(c);
    await onChain(c, async () => {
      const whole = await nodeTokenBalances(WALLET, chainOrCustom(c.chainId), query());
      const pages = await allPages(c.chainId, { limit: 2 }, () => c.mine());
      expect(pages.map((p) => p.page)).toEqual([1, 2, 3]);
      expect(pages.every((p) => p.block_number === '10' && p.page_size === 2)).toBe(true);
      expect(pages.flatMap((p) => p.result)).toEqual(whole.result);
      // Unreadable tokens are said once, on the first page.
      expect(pages[0]!.unreadable).toHaveLength(2);
      expect(pages.slice(1).every((p) => p.unreadable === undefined)).toBe(true);
      // A cursor is bound to its query: another limit does not take it.
      await expect(nodeTokenBalances(WALLET, chainOrCustom(c.chainId), query({ limit: 3, cursor: pages[0]!.cursor! }))).rejects.toMatchObject({ status: 400 });
    });
  });

  it('leaves out possible spam and the native coin when asked, and reads named tokens whatever the logs say', async () => {
    const c = new FakeChain(freshChainId());
    build(c);
    await onChain(c, async () => {
      const clean = await nodeTokenBalances(WALLET, chainOrCustom(c.chainId), query({ exclude_spam: true, exclude_native: true }));
      expect(clean.result.map((r) => r.symbol)).toEqual(['ALP', 'LTE', 'MKR', 'ODD']);
      // A token no Transfer log of the wallet names is read when named (its facts from the node too).
      const named = await nodeTokenBalances(WALLET, chainOrCustom(c.chainId), query({ token_addresses: [`0x${UNLOGGED.slice(2).toUpperCase()}`, MAKER] as Hex[] }));
      expect(named.result.map((r) => [r.symbol, r.balance])).toEqual([['ETH', String(3n * E18)], ['MKR', String(5n * E18)], ['UNL', '9']]);
      // The legacy bare list: no native coin, no pages, the same balances.
      const legacy = await nodeErc20Balances(WALLET, chainOrCustom(c.chainId), { token_addresses: [], exclude_spam: true });
      expect(legacy.map((r) => [r.symbol, r.balance])).toEqual([['ALP', String(2n * E18)], ['LTE', '4200'], ['MKR', String(5n * E18)], ['ODD', '12345']]);
    });
  });
});
