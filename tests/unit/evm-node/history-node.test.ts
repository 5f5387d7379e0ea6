import { describe, expect, it } from 'vitest';
import { encodeAbiParameters, encodeEventTopics, encodeFunctionData, parseAbi, parseEther, type Hex } from 'viem';
import { chainOrCustom } from '@/lib/chains';
import { historyQuerySchema } from '@/lib/interface/history';
import { nodeWalletHistory } from '@/lib/sources/evm-node/history';
import { txFactsKept } from '@/lib/sources/evm-node/tx-facts';
import { FakeChain, freshChainId, NODE_TIMEOUT, onChain, testDbForFile, type FakeLog, type FakeTx } from '../../support/fake-evm-node';

// A wallet's history pages from a node (tests/support/fake-evm-node.ts: blocks, receipts, Parity traces
// and trace_filter as Erigon answers them, eth_getLogs) and Lantern's database in PGlite. What a page
// must hold is read from the chain model: the wallet's transactions (sent, received, an internal call
// paying it, a token transfer naming it), newest first or oldest first, in pages that join without gap
// or overlap; a date range is the blocks whose timestamps fall in it.
const W = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const OTHER = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc';
const THIRD = '0x90f79bf6eb2c4f870365e785982e1f101e93b906';
const TOKEN = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const TOKEN2 = '0xcf7ed3acca5a467e9e704c703e8d87f634fb0fc9';
const VAULT = '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512';
const PUNKS = '0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0';
const erc721 = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)']);
const erc20 = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)']);
const transfer = (token: string, from: string, to: string, value: bigint): FakeLog => ({
  address: token,
  topics: encodeEventTopics({ abi: erc20, eventName: 'Transfer', args: { from: from as Hex, to: to as Hex } }) as Hex[],
  data: encodeAbiParameters([{ type: 'uint256' }], [value]),
});

/** The wallet's transactions, by block: what each page is checked against. */
const WALLET_BLOCKS = [1, 2, 3, 4, 6, 7, 35, 36];
function build(c: FakeChain) {
  c.mine([{ from: W, to: OTHER, value: parseEther('1') }]); // 1: sent
  c.mine([{ from: OTHER, to: W, value: parseEther('2') }]); // 2: received
  // 3: a token transfer the wallet sent (through a contract's receive, so the transaction has no selector)
  c.mine([{ from: W, to: TOKEN, gasUsed: 40_000n, logs: [transfer(TOKEN, W, OTHER, 5_000_000n)] }]);
  // 4: another's call into a vault that pays the wallet from inside: found by its trace
  c.mine([{ from: OTHER, to: VAULT, gasUsed: 50_000n, calls: [{ type: 'CALL', from: VAULT, to: W, value: parseEther('3'), gas: 2300n, gasUsed: 0n }] }]);
  c.mine([{ from: OTHER, to: THIRD, value: 1n }]); // 5: none of the wallet's
  c.mine([{ from: OTHER, to: TOKEN2, gasUsed: 40_000n, logs: [transfer(TOKEN2, OTHER, W, 10n ** 18n)] }]); // 6: a token received
  // 7: an ERC-721 token (id 42) received
  c.mine([{ from: OTHER, to: PUNKS, gasUsed: 60_000n, logs: [{ address: PUNKS, topics: encodeEventTopics({ abi: erc721, eventName: 'Transfer', args: { from: OTHER, to: W, tokenId: 42n } }) as Hex[], data: '0x' }] }]);
  c.mineTo(34);
  c.mine([{ from: W, to: THIRD, value: 7n }]); // 35: unfinal at head 40
  c.mine([{ from: OTHER, to: TOKEN, gasUsed: 40_000n, logs: [transfer(TOKEN, OTHER, W, 1n)] }]); // 36: unfinal token receipt
  c.mineTo(40);
}


const dbh = testDbForFile();

async function onNode(fn: (c: FakeChain) => Promise<void>, chain: (c: FakeChain) => void = build) {
  const c = new FakeChain(freshChainId());
  for (const m of ['ots_getApiLevel', 'debug_traceBlockByNumber', 'debug_traceTransaction']) c.lacking.add(m);
  chain(c);
  // The tokens' facts as read before (their name, symbol and decimals), so a page asks no eth_call.
  for (const [a, kind, name, symbol, decimals] of [[TOKEN, 'erc20', 'USD Coin', 'USDC', 6], [TOKEN2, 'erc20', 'Dai', 'DAI', 18], [PUNKS, 'erc721', 'Lantern Punks', 'PNK', null]] as const) {
    await dbh.pg.query('INSERT INTO evm_token (chain_id, address, kind, name, symbol, decimals) VALUES ($1, $2, $3, $4, $5, $6)', [c.chainId, a, kind, name, symbol, decimals]);
  }
  await onChain(c, fn);
}

const query = (q: Record<string, string | string[]> = {}) => historyQuerySchema.parse(q);
const blocksOf = (page: { result: { block_number: string }[] }) => page.result.map((t) => Number(t.block_number));
const hashOf = (c: FakeChain, block: number) => c.blocks[block]!.txs[0]!.hash;
const iso = (s: number) => new Date(s * 1000).toISOString();

/** Every page of a query, following its cursors. */
async function allPages(c: FakeChain, q: Record<string, string | string[]>) {
  const pages = [];
  let cursor: string | null = null;
  do {
    const page = await nodeWalletHistory(W, chainOrCustom(c.chainId), query({ ...q, ...(cursor ? { cursor } : {}) }));
    pages.push(page);
    cursor = page.cursor;
  } while (cursor && pages.length < 20);
  return pages;
}

describe('nodeWalletHistory against a node', NODE_TIMEOUT, () => {
  it('DESC in pages of two: every transaction of the wallet once, newest first, pages numbered, the last without a cursor', () =>
    onNode(async (c) => {
      const pages = await allPages(c, { limit: '2' });
      expect(pages.map(blocksOf)).toEqual([[36, 35], [7, 6], [4, 3], [2, 1]]);
      expect(pages.map((p) => [p.page, p.page_size])).toEqual([[1, 2], [2, 2], [3, 2], [4, 2]]);
      expect(pages.map((p) => p.cursor === null)).toEqual([false, false, false, true]);
      // The hosted API's default page: 100.
      const whole = await nodeWalletHistory(W, chainOrCustom(c.chainId), query());
      expect([whole.page, whole.page_size, whole.cursor, blocksOf(whole)]).toEqual([1, 100, null, [...WALLET_BLOCKS].reverse()]);
      expect(pages.flatMap((p) => p.result.map((t) => t.hash))).toEqual([...WALLET_BLOCKS].reverse().map((b) => hashOf(c, b)));
    }));

  it('ASC, and a page exactly as long as what is left has no cursor', () =>
    onNode(async (c) => {
      const pages = await allPages(c, { order: 'ASC', limit: '8' });
      expect(pages.map(blocksOf)).toEqual([WALLET_BLOCKS]);
      expect(pages[0]!.cursor).toBeNull();
      const small = await allPages(c, { order: 'ASC', limit: '3' });
      expect(small.map(blocksOf)).toEqual([[1, 2, 3], [4, 6, 7], [35, 36]]);
    }));

  it('a block range: its ends inclusive, in either order', () =>
    onNode(async (c) => {
      expect((await allPages(c, { from_block: '2', to_block: '4', order: 'ASC' })).map(blocksOf)).toEqual([[2, 3, 4]]);
      expect((await allPages(c, { from_block: '3', to_block: '6', limit: '1' })).map(blocksOf)).toEqual([[6], [4], [3]]);
      expect((await allPages(c, { from_block: '8', to_block: '30' })).map(blocksOf)).toEqual([[]]);
      expect((await allPages(c, { from_block: '0', to_block: '1' })).map(blocksOf)).toEqual([[1]]);
      // Past the head: up to the head.
      expect((await allPages(c, { from_block: '30', to_block: '5000' })).map(blocksOf)).toEqual([[36, 35]]);
    }));

  it('a date range: the blocks whose timestamps fall in it, its ends inclusive', () =>
    onNode(async (c) => {
      const t = (n: number) => c.blocks[n]!.timestamp;
      // From block 2's very second to block 4's: 2, 3, 4.
      expect((await allPages(c, { from_date: iso(t(2)), to_date: iso(t(4)), order: 'ASC' })).map(blocksOf)).toEqual([[2, 3, 4]]);
      // A second after block 2 to a second before block 6: 3 and 4 (and 5, none of the wallet's).
      expect((await allPages(c, { from_date: iso(t(2) + 1), to_date: iso(t(6) - 1) })).map(blocksOf)).toEqual([[4, 3]]);
      // Before the genesis: from block 0; after the head: to the head.
      expect((await allPages(c, { from_date: iso(t(0) - 1000), to_date: iso(t(1)) })).map(blocksOf)).toEqual([[1]]);
      expect((await allPages(c, { from_date: iso(t(36)), to_date: iso(t(40) + 1000) })).map(blocksOf)).toEqual([[36]]);
      expect((await allPages(c, { from_date: iso(t(40) + 1) })).map(blocksOf)).toEqual([[]]);
      expect((await allPages(c, { to_date: iso(t(0) - 1) })).map(blocksOf)).toEqual([[]]);
      // One bound alone.
      expect((await allPages(c, { from_date: iso(t(6)) })).map(blocksOf)).toEqual([[36, 35, 7, 6]]);
      expect((await allPages(c, { to_date: iso(t(2)) })).map(blocksOf)).toEqual([[2, 1]]);
    }));

  it("each row says what the node's answers mean: ETH sent and received, an internal payment, token transfers with the token's decimals", () =>
    onNode(async (c) => {
      const page = await nodeWalletHistory(W, chainOrCustom(c.chainId), query({ order: 'ASC', include_internal_transactions: 'true' }));
      const by = new Map(page.result.map((t) => [Number(t.block_number), t]));
      expect(by.get(1)!.native_transfers).toEqual([expect.objectContaining({ from_address: W, to_address: OTHER, value_formatted: '1', direction: 'send', internal_transaction: false })]);
      expect(by.get(2)!.native_transfers).toEqual([expect.objectContaining({ from_address: OTHER, to_address: W, value_formatted: '2', direction: 'receive' })]);
      expect(by.get(4)!.native_transfers).toEqual([expect.objectContaining({ from_address: VAULT, to_address: W, value_formatted: '3', direction: 'receive', internal_transaction: true })]);
      expect(by.get(4)!.internal_transactions).toEqual([expect.objectContaining({ type: 'CALL', from: VAULT, to: W, value: '3000000000000000000' })]);
      expect(by.get(3)!.erc20_transfer).toEqual([expect.objectContaining({ address: TOKEN, token_symbol: 'USDC', token_decimals: '6', value: '5000000', value_formatted: '5', direction: 'send' })]);
      expect(by.get(6)!.erc20_transfer).toEqual([expect.objectContaining({ address: TOKEN2, token_symbol: 'DAI', value_formatted: '1', direction: 'receive' })]);
      // 21,000 gas at the node's 1 gwei.
      expect(by.get(1)!.transaction_fee).toBe('0.000021');
      // The hosted API's entity and label fields, present and empty off the devnets.
      for (const k of ['from_address_entity', 'from_address_entity_logo', 'from_address_label', 'to_address_entity', 'to_address_entity_logo', 'to_address_label']) {
        expect(by.get(1)).toHaveProperty(k, null);
        expect(by.get(3)!.erc20_transfer[0]).toHaveProperty(k, null);
      }
      // The NFT named by its contract's name.
      expect(by.get(7)!.nft_transfers).toEqual([expect.objectContaining({ token_address: PUNKS, token_id: '42', contract_type: 'ERC721', amount: '1', direction: 'receive' })]);
      expect(by.get(7)!.summary).toContain('Lantern Punks #42');
      expect(by.get(7)!.category).toBe('nft receive');
      expect(by.get(1)!.block_timestamp).toBe(iso(c.blocks[1]!.timestamp));
      expect(page.result.every((t) => !('internal_pending' in t))).toBe(true);
      // Only final transactions' facts are kept (head 40, 12 blocks deep: up to 28); 35 and 36 are read again next time.
      await txFactsKept(c.chainId);
      const kept = await dbh.pg.query<{ block_number: string }>('SELECT block_number::text FROM evm_tx WHERE chain_id = $1 ORDER BY 1', [c.chainId]);
      expect(kept.rows.map((r) => Number(r.block_number)).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 6, 7]);
      await nodeWalletHistory(W, chainOrCustom(c.chainId), query({ token_addresses: TOKEN }));
      await txFactsKept(c.chainId);
      const keptAfterTokens = await dbh.pg.query('SELECT 1 FROM evm_tx WHERE chain_id = $1 AND block_number > 28', [c.chainId]);
      expect(keptAfterTokens.rows).toEqual([]);
    }));

  it("traces 'later': a first sight's rows that ran code say their internal transfers are still being read", () =>
    onNode(async (c) => {
      const page = await nodeWalletHistory(W, chainOrCustom(c.chainId), query({ from_block: '1', to_block: '4', order: 'ASC' }), { traces: 'later' });
      expect(page.result.map((t) => 'internal_pending' in t)).toEqual([false, false, true, true]);
      // A page filtered on a token too.
      const tokens = await nodeWalletHistory(W, chainOrCustom(c.chainId), query({ token_addresses: TOKEN2 }), { traces: 'later' });
      expect(tokens.result.map((t) => [Number(t.block_number), 'internal_pending' in t])).toEqual([[6, true]]);
    }));

  it('token_addresses: only the transactions where those contracts moved a token of the wallet, final or not, in pages', () =>
    onNode(async (c) => {
      expect((await allPages(c, { token_addresses: TOKEN })).map(blocksOf)).toEqual([[36, 3]]);
      expect((await allPages(c, { token_addresses: TOKEN2.toUpperCase().replace('0X', '0x') })).map(blocksOf)).toEqual([[6]]);
      const two = await allPages(c, { token_addresses: [TOKEN, TOKEN2].join(','), limit: '1' });
      expect(two.map(blocksOf)).toEqual([[36], [6], [3]]);
      expect(two.map((p) => p.page)).toEqual([1, 2, 3]);
      expect((await allPages(c, { token_addresses: `${TOKEN},${TOKEN2}`, order: 'ASC', limit: '2' })).map(blocksOf)).toEqual([[3, 6], [36]]);
      expect((await allPages(c, { token_addresses: `${TOKEN},${TOKEN2}`, from_block: '4', to_block: '35' })).map(blocksOf)).toEqual([[6]]);
      expect((await allPages(c, { token_addresses: `${TOKEN},${TOKEN2}`, from_block: '36', order: 'ASC' })).map(blocksOf)).toEqual([[36]]);
      // The unfinal tail's transfers are held to the range too: block 36 is below 37 and within ..36.
      expect((await allPages(c, { token_addresses: TOKEN, from_block: '37' })).map(blocksOf)).toEqual([[]]);
      expect((await allPages(c, { token_addresses: TOKEN, to_block: '36' })).map(blocksOf)).toEqual([[36, 3]]);
      // A range ending below the final blocks: nothing kept past it either.
      expect((await allPages(c, { token_addresses: TOKEN, to_block: '2' })).map(blocksOf)).toEqual([[]]);
      expect((await allPages(c, { token_addresses: THIRD })).map(blocksOf)).toEqual([[]]);
      expect((await allPages(c, { token_addresses: PUNKS })).map(blocksOf)).toEqual([[7]]);
      // A filtered query's cursor is not an unfiltered one's, nor another filter's.
      const [p1] = two;
      await expect(nodeWalletHistory(W, chainOrCustom(c.chainId), query({ limit: '1', cursor: p1!.cursor! }))).rejects.toMatchObject({ status: 400 });
      await expect(nodeWalletHistory(W, chainOrCustom(c.chainId), query({ limit: '1', token_addresses: TOKEN, cursor: p1!.cursor! }))).rejects.toMatchObject({ status: 400 });
      // The same contracts in another order, or twice, are the same filter.
      expect(blocksOf(await nodeWalletHistory(W, chainOrCustom(c.chainId), query({ limit: '1', token_addresses: `${TOKEN2},${TOKEN},${TOKEN2}`, cursor: p1!.cursor! })))).toEqual([6]);
    }));

  it('token_addresses: several transactions of one block, final or not, in pages of one, in block order or its reverse', () =>
    onNode(
      async (c) => {
        const inBlock = (b: number) => c.blocks[b]!.txs.map((t) => t.hash);
        const hashes = (p: { result: { hash: string }[] }[]) => p.flatMap((x) => x.result.map((t) => t.hash));
        // Block 2 is final at head 40, blocks 34 and 35 are not: each holds three token transactions of the wallet and one of no one's.
        const asc = await allPages(c, { token_addresses: TOKEN, order: 'ASC', limit: '1' });
        expect(hashes(asc)).toEqual([...inBlock(2), ...inBlock(34), ...inBlock(35)].filter((_, i) => i % 4 !== 1));
        expect(asc.map((p) => p.page)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
        const desc = await allPages(c, { token_addresses: TOKEN, limit: '1' });
        expect(hashes(desc)).toEqual(hashes(asc).reverse());
        expect(hashes(await allPages(c, { token_addresses: TOKEN, limit: '2' }))).toEqual(hashes(asc).reverse());
      },
      (c) => {
        const four = (): FakeTx[] => [
          { from: W, to: TOKEN, gasUsed: 40_000n, logs: [transfer(TOKEN, W, OTHER, 1n)] },
          { from: OTHER, to: TOKEN, gasUsed: 40_000n, logs: [transfer(TOKEN, OTHER, THIRD, 1n)] },
          { from: OTHER, to: TOKEN, gasUsed: 40_000n, logs: [transfer(TOKEN, OTHER, W, 2n), transfer(TOKEN, OTHER, W, 3n)] },
          { from: THIRD, to: TOKEN, gasUsed: 40_000n, logs: [transfer(TOKEN, THIRD, W, 4n)] },
        ];
        c.mine();
        c.mine(four());
        c.mineTo(33);
        c.mine(four());
        c.mine(four());
        c.mineTo(40);
      },
    ));

  it("a date range from the head's own second: the head's transactions, not the block before", () =>
    onNode(
      async (c) => {
        const t = (n: number) => c.blocks[n]!.timestamp;
        expect((await allPages(c, { from_date: iso(t(2)) })).map(blocksOf)).toEqual([[2]]);
        expect((await allPages(c, { to_date: iso(t(1)) })).map(blocksOf)).toEqual([[1]]);
      },
      (c) => {
        c.mine([{ from: W, to: OTHER, value: 1n }]);
        c.mine([{ from: W, to: OTHER, value: 2n }]);
      },
    ));

  it("a row names the method the decoder knows; with nft_metadata, an NFT's metadata as kept; the token filter's page alike", () =>
    onNode(
      async (c) => {
        // The token's metadata as read before (evm_nft_token), so the page asks no eth_call.
        await dbh.pg.query('INSERT INTO evm_nft_token (chain_id, token_address, token_id, token_uri, metadata) VALUES ($1, $2, $3, $4, $5)', [c.chainId, PUNKS, '42', 'ipfs://punks/42', '{"name":"Punk 42"}']);
        const page = await nodeWalletHistory(W, chainOrCustom(c.chainId), query({ order: 'ASC', nft_metadata: 'true' }));
        expect(page.result.map((t) => [Number(t.block_number), t.method_label])).toEqual([[1, 'transfer'], [2, null]]);
        expect(page.result[1]!.nft_transfers.map((n) => [n.token_id, n.token_uri, n.metadata])).toEqual([['42', 'ipfs://punks/42', '{"name":"Punk 42"}']]);
        expect(page.result[1]!.nft_transfers[0]!.normalized_metadata).toMatchObject({ name: 'Punk 42' });
        // Without nft_metadata: no metadata fields.
        const plain = await nodeWalletHistory(W, chainOrCustom(c.chainId), query({ order: 'ASC' }));
        expect(plain.result[1]!.nft_transfers[0]).not.toHaveProperty('metadata');
        const tokens = await nodeWalletHistory(W, chainOrCustom(c.chainId), query({ token_addresses: `${TOKEN},${PUNKS}`, order: 'ASC', nft_metadata: 'true' }));
        expect(tokens.result.map((t) => t.method_label)).toEqual(['transfer', null]);
        expect(tokens.result[1]!.nft_transfers.map((n) => n.metadata)).toEqual(['{"name":"Punk 42"}']);
      },
      (c) => {
        const pay = encodeFunctionData({ abi: parseAbi(['function transfer(address to, uint256 value) returns (bool)']), functionName: 'transfer', args: [OTHER as Hex, 5_000_000n] });
        c.mine([{ from: W, to: TOKEN, input: pay, gasUsed: 40_000n, logs: [transfer(TOKEN, W, OTHER, 5_000_000n)] }]);
        c.mine([{ from: OTHER, to: PUNKS, gasUsed: 60_000n, logs: [{ address: PUNKS, topics: encodeEventTopics({ abi: erc721, eventName: 'Transfer', args: { from: OTHER, to: W, tokenId: 42n } }) as Hex[], data: '0x' }] }]);
        c.mineTo(40);
      },
    ));

  it("a cursor is the query's own: another query's, or a forged one, is a 400 naming the cursor", () =>
    onNode(async (c) => {
      const first = await nodeWalletHistory(W, chainOrCustom(c.chainId), query({ limit: '2' }));
      await expect(nodeWalletHistory(W, chainOrCustom(c.chainId), query({ limit: '2', order: 'ASC', cursor: first.cursor! }))).rejects.toMatchObject({ status: 400 });
      await expect(nodeWalletHistory(W, chainOrCustom(c.chainId), query({ limit: '2', cursor: `${first.cursor!.slice(0, -2)}xx` }))).rejects.toMatchObject({ status: 400 });
      // A range is part of the query: a cursor of one range is refused by another.
      for (const [a, b] of [[{ from_block: '1' }, { from_block: '2' }], [{ to_block: '30' }, { to_block: '31' }], [{ from_date: iso(c.blocks[1]!.timestamp) }, { from_date: iso(c.blocks[2]!.timestamp) }], [{ to_date: iso(c.blocks[30]!.timestamp) }, { to_date: iso(c.blocks[31]!.timestamp) }]] as Record<string, string>[][]) {
        const p = await nodeWalletHistory(W, chainOrCustom(c.chainId), query({ limit: '1', ...a }));
        await expect(nodeWalletHistory(W, chainOrCustom(c.chainId), query({ limit: '1', ...b, cursor: p.cursor! }))).rejects.toMatchObject({ status: 400 });
      }
      // The same query with the address in capitals is the same wallet.
      const upper = await nodeWalletHistory(W.toUpperCase().replace('0X', '0x'), chainOrCustom(c.chainId), query({ limit: '2', cursor: first.cursor! }));
      expect(blocksOf(upper)).toEqual([7, 6]);
    }));
});
