import { formatEther } from 'viem';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadManifest, transactionsTouching, type Manifest, type ManifestTransaction } from '../../devnet/evm/index.mjs';
import { historyPageSchema, type WalletTransaction } from '../../lib/interface/history';
import { nftPageSchema } from '../../lib/interface/nfts';
import { startLantern, type LanternInstance } from '../support/lantern';
import { startRpcProxy, type RpcProxy } from '../support/rpc-proxy';

// Lantern in node mode on the shared seeded devnet (read only: these tests never write to the chain),
// through a counting JSON-RPC proxy. Every answer is checked against the scenario manifest.

const TRANSFER_SINGLE = '0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62';

let manifest: Manifest;
let proxy: RpcProxy;
let lantern: LanternInstance;

const addr = (name: string) => manifest.accounts[name]?.address ?? manifest.contracts[name]!.address;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are checked field by field or parsed with the schemas
async function get(path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${lantern.url}${path}`);
  return { status: res.status, body: await res.json() };
}

/** Every page of a wallet's history in one order; each page parsed with the interface schema. */
async function allHistory(address: string, order: 'ASC' | 'DESC', limit: number, extra = ''): Promise<WalletTransaction[]> {
  const out: WalletTransaction[] = [];
  let cursor = '';
  for (let pages = 0; pages < 100; pages++) {
    const { status, body } = await get(`/api/v2.2/wallets/${address}/history?order=${order}&limit=${limit}${extra}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(status, JSON.stringify(body)).toBe(200);
    const page = historyPageSchema.parse(body);
    expect(page.result.length).toBeLessThanOrEqual(limit);
    out.push(...page.result);
    if (!page.cursor) return out;
    expect(page.result.length).toBe(limit);
    cursor = page.cursor;
  }
  throw new Error('history did not end within 100 pages');
}

const chainOrder = (a: ManifestTransaction, b: ManifestTransaction) => a.blockNumber - b.blockNumber || a.transactionIndex - b.transactionIndex;

beforeAll(async () => {
  manifest = loadManifest();
  proxy = await startRpcProxy(inject('evmRpcUrl'));
  lantern = await startLantern({ EVM_RPC_URL: proxy.url, DEVNET_EVM_PORT: String(proxy.port) });
});

afterAll(async () => {
  await lantern?.stop();
  await proxy?.stop();
});

// One story in order: the first test makes bob's first request (so his job is a first job), and the
// tests after it read what that job indexed. No other suite in this file asks for NFTs.
describe('NFT indexing jobs', { shuffle: false }, () => {
  it('two concurrent first requests start one job, answer within about a second (SYNCED if the job ended by then), then SYNCED', async () => {
    const bob = addr('bob');
    const bobTopic = `0x${'0'.repeat(24)}${bob.slice(2)}`;
    const jobScans = () =>
      proxy.calls.filter((c) => {
        if (c.method !== 'eth_getLogs') return false;
        const topics = (c.params[0] as { topics?: unknown[] }).topics ?? [];
        return Array.isArray(topics[0]) && (topics[0] as string[]).includes(TRANSFER_SINGLE) && topics[3] === bobTopic;
      }).length;
    expect(jobScans()).toBe(0);
    const started = Date.now();
    const [a, b] = await Promise.all([get(`/api/v2.2/${bob}/nft`), get(`/api/v2.2/${bob}/nft`)]);
    // The first answer waits (about a second, bounded) for what the job can already say: never the
    // whole of a long job, never an empty page that a moment later would not be.
    expect(Date.now() - started).toBeLessThan(10_000);
    for (const r of [a, b]) {
      expect(r.status).toBe(200);
      const page = nftPageSchema.parse(r.body);
      expect(['SYNCING', 'SYNCED']).toContain(page.status);
      if (page.status === 'SYNCED') expect(page.result.length).toBeGreaterThan(0);
    }
    let last = a.body;
    for (let i = 0; i < 100 && last.status !== 'SYNCED'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      last = (await get(`/api/v2.2/${bob}/nft`)).body;
    }
    expect(last.status).toBe('SYNCED');
    // One job: the devnet fits in one block span, so one job scans bob's ERC-1155 receipts exactly once.
    expect(jobScans()).toBe(1);
    await get(`/api/v2.2/${bob}/nft?limit=5`);
    expect(jobScans()).toBe(1);
  });

  it('ownership after transfers, burns and 1155 batch moves matches the scenario, paged', async () => {
    const owners = [...new Set(manifest.final_nft_ownership.map((o) => o.owner))];
    for (const owner of owners) {
      let first = (await get(`/api/v2.2/${owner}/nft`)).body;
      for (let i = 0; i < 100 && first.status !== 'SYNCED'; i++) {
        await new Promise((r) => setTimeout(r, 100));
        first = (await get(`/api/v2.2/${owner}/nft`)).body;
      }
      expect(first.status).toBe('SYNCED');
      const want = manifest.final_nft_ownership.filter((o) => o.owner === owner).map((o) => `${o.contract}:${o.tokenId}:${o.amount}`).sort();
      const got: string[] = [];
      let cursor = '';
      do {
        const { status, body } = await get(`/api/v2.2/${owner}/nft?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(status).toBe(200);
        const page = nftPageSchema.parse(body);
        expect(page.total).toBe(want.length);
        for (const item of page.result) {
          expect(item.owner_of).toBe(owner);
          got.push(`${item.token_address}:${item.token_id}:${item.amount}`);
        }
        cursor = page.cursor ?? '';
      } while (cursor);
      expect(got.sort(), `NFTs of ${owner}`).toEqual(want);
    }
  });

  it('decodes on-chain metadata, normalises it, formats ids, filters by contract and spam', async () => {
    const bob = addr('bob');
    const lights = manifest.contracts.lights!.address;
    const items = manifest.contracts.items!.address;
    const { body } = await get(`/api/v2.2/${bob}/nft?token_addresses=${lights}&normalizeMetadata=true&media_items=true&format=hex`);
    const page = nftPageSchema.parse(body);
    expect(page.result.length).toBe(manifest.final_nft_ownership.filter((o) => o.owner === bob && o.contract === lights).length);
    for (const item of page.result) {
      expect(item.token_address).toBe(lights);
      expect(item.contract_type).toBe('ERC721');
      expect(item.token_id).toMatch(/^0x[0-9a-f]+$/);
      expect(item.name).toBe('Lantern Lights');
      expect(item.token_uri).toMatch(/^data:application\/json;base64,/);
      expect(JSON.parse(item.metadata!).name).toBe(`Lantern Light #${BigInt(item.token_id)}`);
      expect(item.normalized_metadata?.image).toMatch(/^data:image\/svg\+xml/);
      expect(item.media?.status).toBe('success');
      expect(item.possible_spam).toBe(false);
    }
    const both = nftPageSchema.parse((await get(`/api/v2.2/${bob}/nft?token_addresses=${lights}&token_addresses=${items}&exclude_spam=true`)).body);
    expect(both.total).toBe(manifest.final_nft_ownership.filter((o) => o.owner === bob).length);
    const item1155 = both.result.find((i) => i.contract_type === 'ERC1155');
    expect(item1155?.token_uri).toMatch(/^data:application\/json/);
  });
});

/** The hosted API's transaction categories, and how each summary begins (a failed one says so, whatever it tried). */
const SUMMARY_OF: Record<string, RegExp> = {
  send: /^(Sent|Failed) /,
  receive: /^Received /,
  'token send': /^Sent /,
  'token receive': /^Received /,
  'token swap': /^Swapped /,
  airdrop: /^Received .+ airdrop$/,
  mint: /^Minted /,
  burn: /^Burned /,
  'nft purchase': /^Bought /,
  'nft sale': /^Sold /,
  'nft send': /^Sent /,
  'nft receive': /^Received /,
  'contract interaction': /^(Called|Interacted with|Created contract|Failed) /,
};

describe('wallet history from the node', () => {
  const wallets = ['alice', 'dave', 'oscar', 'peggy', 'graceWallet', 'carol'];

  it.each(wallets)('%s: every page in both orders equals the scenario, without duplicates or gaps', async (name) => {
    const a = addr(name);
    const want = transactionsTouching(manifest, a).sort(chainOrder).map((t) => t.hash);
    const asc = await allHistory(a, 'ASC', name === 'alice' ? 100 : 7);
    const desc = await allHistory(a, 'DESC', name === 'alice' ? 37 : 4);
    expect(asc.map((t) => t.hash)).toEqual(want);
    expect(desc.map((t) => t.hash)).toEqual([...want].reverse());
  });

  it.each(wallets)('%s: amounts, directions, statuses and transfers match the scenario', async (name) => {
    const a = addr(name);
    const byHash = new Map(manifest.transactions.map((t) => [t.hash, t]));
    const txs = await allHistory(a, 'DESC', 100);
    const dir = (from: string, to: string | null) => (from === a ? 'send' : to === a ? 'receive' : null);
    for (const tx of txs) {
      const m = byHash.get(tx.hash as `0x${string}`)!;
      expect(tx.receipt_status).toBe(String(m.status));
      expect(tx.from_address).toBe(m.from);
      expect(tx.value).toBe(m.value);
      expect(tx.block_number).toBe(String(m.blockNumber));
      expect(tx.block_timestamp).toBe(m.time);
      expect(
        tx.native_transfers.map((n) => [n.from_address, n.to_address, n.value, n.value_formatted, n.internal_transaction, n.direction, n.token_symbol]),
      ).toEqual(m.nativeTransfers.map((n) => [n.from, n.to, n.value, formatEther(BigInt(n.value)), n.internal, dir(n.from, n.to), 'ETH']));
      expect(tx.erc20_transfer.map((e) => [e.address, e.from_address, e.to_address, e.value, e.direction])).toEqual(
        m.tokenTransfers.map((e) => [e.token, e.from, e.to, e.value, dir(e.from, e.to)]),
      );
      for (const [i, e] of m.tokenTransfers.entries()) {
        // The seed formats with the token's own decimals (null where it knows none): so must Lantern.
        expect(tx.erc20_transfer[i]!.value_formatted).toBe(e.formatted);
        expect(tx.erc20_transfer[i]!.possible_spam).toBe(e.tokenKey === 'spam');
      }
      expect(tx.nft_transfers.map((n) => [n.token_address, n.token_id, n.amount, n.from_address, n.to_address, n.contract_type, n.direction])).toEqual(
        m.nftTransfers.map((n) => [n.contract, n.tokenId, n.amount, n.from, n.to, n.standard === 'erc721' ? 'ERC721' : 'ERC1155', dir(n.from, n.to)]),
      );
      expect(tx.internal_transactions).toBeUndefined();
      // The hosted API's categories, each summarised with its own verb.
      expect(Object.keys(SUMMARY_OF)).toContain(tx.category);
      expect(tx.summary).toMatch(SUMMARY_OF[tx.category!]!);
      const fee = BigInt(m.gasUsed) * BigInt(m.effectiveGasPrice);
      expect(tx.transaction_fee).toBe(formatEther(fee));
    }
  });

  it('categories and summaries say what happened to the wallet', async () => {
    const find = async (name: string, kind: string, extra = '') => {
      const a = addr(name);
      const m = transactionsTouching(manifest, a).find((t) => t.kind === kind)!;
      const txs = await allHistory(a, 'ASC', 100, `&from_block=${m.blockNumber}&to_block=${m.blockNumber}${extra}`);
      return txs.find((t) => t.hash === m.hash)!;
    };
    const swap = await find('alice', 'swap');
    expect(swap.category).toBe('token swap');
    expect(swap.summary).toMatch(/^Swapped [\d.]+ (USDC|LNT) for [\d.]+ (USDC|LNT)$/);
    expect(swap.method_label).toMatch(/^swap/);
    const paid = await find('oscar', 'multisend', '&include_internal_transactions=true');
    expect(paid.category).toBe('receive');
    expect(paid.native_transfers.some((n) => n.to_address === addr('oscar') && n.internal_transaction === true)).toBe(true);
    expect(paid.internal_transactions!.some((c) => c.to === addr('oscar') && c.type === 'CALL')).toBe(true);
    const airdrop = await find('peggy', 'airdrop');
    expect(airdrop.category).toBe('airdrop');
    expect(airdrop.possible_spam).toBe(true);
    expect((await find('dave', 'eth_send')).summary).toMatch(/^(Sent|Received) [\d.]+ ETH$/);
    const reverted = manifest.transactions.find((t) => t.status === 0 && t.from === addr('alice'))!;
    const failed = (await allHistory(addr('alice'), 'ASC', 100, `&from_block=${reverted.blockNumber}&to_block=${reverted.blockNumber}`)).find((t) => t.hash === reverted.hash)!;
    expect(failed.receipt_status).toBe('0');
    expect(failed.summary).toMatch(/^Failed/);
  });

  it('block and date ranges: from_block beats from_date, to_block beats to_date', async () => {
    const a = addr('alice');
    const touching = transactionsTouching(manifest, a).sort(chainOrder);
    const lo = touching[40]!.blockNumber;
    const hi = touching[90]!.blockNumber;
    const inBlocks = touching.filter((t) => t.blockNumber >= lo && t.blockNumber <= hi).map((t) => t.hash);
    const byBlock = await allHistory(a, 'ASC', 25, `&from_block=${lo}&to_block=${hi}&from_date=2020-01-01&to_date=2020-01-02`);
    expect(byBlock.map((t) => t.hash)).toEqual(inBlocks);
    const from = touching[40]!.timestamp;
    const to = touching[90]!.timestamp;
    const inDates = touching.filter((t) => t.timestamp >= from && t.timestamp <= to).map((t) => t.hash);
    const byDateSeconds = await allHistory(a, 'DESC', 30, `&from_date=${from}&to_date=${to}`);
    expect(byDateSeconds.map((t) => t.hash)).toEqual([...inDates].reverse());
    const byDateIso = await allHistory(a, 'ASC', 100, `&from_date=${new Date(from * 1000).toISOString()}&to_date=${new Date(to * 1000).toISOString()}`);
    expect(byDateIso.map((t) => t.hash)).toEqual(inDates);
  });

  it('defaults: DESC, 100 per page, devnet chain by name or hex id', async () => {
    const a = addr('alice');
    const page = historyPageSchema.parse((await get(`/api/v2.2/wallets/${a}/history`)).body);
    expect(page.page_size).toBe(100);
    expect(page.result.length).toBe(100);
    expect(Number(page.result[0]!.block_number)).toBeGreaterThanOrEqual(Number(page.result[99]!.block_number));
    for (const chain of ['devnet', '0x7a69']) {
      const p = historyPageSchema.parse((await get(`/api/v2.2/wallets/${a}/history?chain=${chain}&limit=5`)).body);
      expect(p.result.map((t) => t.hash)).toEqual(page.result.slice(0, 5).map((t) => t.hash));
    }
  });
});

describe('bad input is a 400 naming the parameter', () => {
  it.each([
    ['/api/v2.2/wallets/0x123/history', 'address'],
    ['/api/v2.2/wallets/{alice}/history?chain=nochain', 'chain'],
    ['/api/v2.2/wallets/{alice}/history?chain=eth', 'chain'],
    ['/api/v2.2/wallets/{alice}/history?limit=0', 'limit'],
    ['/api/v2.2/wallets/{alice}/history?limit=1000', 'limit'],
    ['/api/v2.2/wallets/{alice}/history?from_block=10&to_block=5', 'from_block'],
    ['/api/v2.2/wallets/{alice}/history?from_date=yesterday-ish', 'from_date'],
    ['/api/v2.2/wallets/{alice}/history?to_date=2026-13-45', 'to_date'],
    ['/api/v2.2/wallets/{alice}/history?order=SIDEWAYS', 'order'],
    ['/api/v2.2/wallets/{alice}/history?cursor=not-a-cursor', 'cursor'],
    ['/api/v2.2/0x123/nft', 'address'],
    ['/api/v2.2/{alice}/nft?chain=polygon', 'chain'],
    ['/api/v2.2/{alice}/nft?limit=0', 'limit'],
    ['/api/v2.2/{alice}/nft?format=octal', 'format'],
    ['/api/v2.2/{alice}/nft?cursor=abc.def', 'cursor'],
    [`/api/v2.2/{alice}/nft?${Array.from({ length: 11 }, (_, i) => `token_addresses=0x${String(i).padStart(40, '0')}`).join('&')}`, 'token_addresses'],
  ])('%s -> %s', async (path, parameter) => {
    const { status, body } = await get(path.replace('{alice}', addr('alice')));
    expect(status).toBe(400);
    expect(body.parameter).toBe(parameter);
    expect(body.message).toEqual(expect.any(String));
  });

  it('a mangled cursor, or a cursor from another wallet, order or range, is a 400 naming cursor', async () => {
    const alice = addr('alice');
    const first = historyPageSchema.parse((await get(`/api/v2.2/wallets/${alice}/history?limit=5`)).body);
    const cursor = first.cursor!;
    expect((await get(`/api/v2.2/wallets/${alice}/history?limit=5&cursor=${encodeURIComponent(cursor)}`)).status).toBe(200);
    const flipped = cursor.slice(0, 10) + (cursor[10] === 'A' ? 'B' : 'A') + cursor.slice(11);
    for (const bad of [
      `/api/v2.2/wallets/${alice}/history?limit=5&cursor=${encodeURIComponent(flipped)}`,
      `/api/v2.2/wallets/${alice}/history?limit=5&cursor=${encodeURIComponent(cursor.split('.')[0]!)}`,
      `/api/v2.2/wallets/${addr('bob')}/history?limit=5&cursor=${encodeURIComponent(cursor)}`,
      `/api/v2.2/wallets/${alice}/history?limit=5&order=ASC&cursor=${encodeURIComponent(cursor)}`,
      `/api/v2.2/wallets/${alice}/history?limit=5&from_block=3&cursor=${encodeURIComponent(cursor)}`,
      `/api/v2.2/${alice}/nft?cursor=${encodeURIComponent(cursor)}`,
    ]) {
      const { status, body } = await get(bad);
      expect(status, bad).toBe(400);
      expect(body.parameter).toBe('cursor');
    }
  });
});
