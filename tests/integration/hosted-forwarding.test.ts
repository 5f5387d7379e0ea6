import { getAddress } from 'viem';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHostedStub, type HostedStub } from '../support/hosted-stub';
import { startLantern, type LanternInstance } from '../support/lantern';

/**
 * Hosted mode passes every parameter of every operation upstream as the interface says: names,
 * values, defaults, and the range rules (from_block over from_date, to_block over to_date). The stub
 * records each upstream query as it arrived; nothing here trusts Lantern's own re-filtering.
 */
const KEY = 'forwarding-key-0123456789abcdef';
let stub: HostedStub;
let lantern: LanternInstance;
let seq = 0;
// A wallet nobody asked about before, so no answer comes from a cache.
const wallet = () => `0x${(++seq).toString(16).padStart(8, '0')}${'b'.repeat(32)}`;

beforeAll(async () => {
  stub = await startHostedStub({ apiKey: KEY });
  lantern = await startLantern({
    DATA_API_KEY: KEY,
    DATA_API_URL: stub.url,
    AUTH_API_URL: stub.url,
    LEDGER_API_URL_MAINNET: `${stub.url}/mainnet`,
    LEDGER_API_URL_TESTNET: `${stub.url}/testnet`,
    UPSTREAM_CACHE: 'off',
  });
});
afterAll(async () => {
  await lantern?.stop();
  await stub?.close();
});
beforeEach(() => {
  stub.requests.length = 0;
});

async function upstream(path: string, init?: RequestInit) {
  const res = await fetch(lantern.url + path, init);
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(path.includes('/challenge/') ? 201 : 200);
  expect(stub.requests).toHaveLength(1);
  const r = stub.requests[0];
  return { body, path: r.path, query: Object.fromEntries(r.query), sent: r.body ? JSON.parse(r.body) : undefined };
}

describe('active chains', () => {
  it('forwards the chains asked, as hex ids, and fills in the ones the provider leaves out', async () => {
    const w = wallet();
    const r = await upstream(`/api/v2.2/wallets/${w}/chains?chains[]=eth&chains[]=bsc&chains[]=0x89`);
    expect(r.path).toBe(`/api/v2.2/wallets/${getAddress(w)}/chains`);
    expect(r.query).toEqual({ 'chains[0]': '0x1', 'chains[1]': '0x38', 'chains[2]': '0x89' });
    // The stub answers eth and polygon (odd ids) and leaves bsc out: Lantern answers every chain asked, in order.
    expect(r.body.address).toBe(w.toLowerCase());
    expect(r.body.active_chains.map((c: { chain: string; first_transaction: unknown }) => [c.chain, c.first_transaction !== null])).toEqual([
      ['eth', true],
      ['bsc', false],
      ['polygon', true],
    ]);
  });

  it('asks for the default chain when none is named (the vendor defaults to eth, Lantern to DEFAULT_CHAIN)', async () => {
    const r = await upstream(`/api/v2.2/wallets/${wallet()}/chains`);
    expect(r.query).toEqual({ 'chains[0]': '0x1' });
  });
});

describe('wallet history', () => {
  it('sends the defaults: chain eth, no range, internal transactions and NFT metadata off, newest first', async () => {
    const w = wallet();
    const r = await upstream(`/api/v2.2/wallets/${w}/history`);
    expect(r.path).toBe(`/api/v2.2/wallets/${getAddress(w)}/history`); // checksummed
    expect(r.query).toEqual({ chain: '0x1', include_internal_transactions: 'false', nft_metadata: 'false', order: 'DESC' });
  });

  it('sends every parameter, by name, in the upstream’s form', async () => {
    const w = wallet();
    const q = 'chain=polygon&from_block=19000003&to_block=19000009&include_internal_transactions=true&nft_metadata=true&order=asc&limit=4';
    const r = await upstream(`/api/v2.2/wallets/${w}/history?${q}`);
    expect(r.query).toEqual({
      chain: '0x89',
      from_block: '19000003',
      to_block: '19000009',
      include_internal_transactions: 'true',
      nft_metadata: 'true',
      order: 'ASC',
      limit: '4',
    });
    expect(r.body.result.map((t: { block_number: string }) => t.block_number)).toEqual(['19000003', '19000004', '19000005', '19000006']);
  });

  it('sends dates as ISO 8601, from unix seconds or a date', async () => {
    const r = await upstream(`/api/v2.2/wallets/${wallet()}/history?chain=0x1&from_date=2025-01-01T05:00:00Z&to_date=1735714800`);
    expect(r.query).toEqual({
      chain: '0x1',
      from_date: '2025-01-01T05:00:00.000Z',
      to_date: '2025-01-01T07:00:00.000Z',
      include_internal_transactions: 'false',
      nft_metadata: 'false',
      order: 'DESC',
    });
    expect(r.body.result.map((t: { block_number: string }) => t.block_number)).toEqual(['19000007', '19000006', '19000005']);
  });

  it('sends the block bound, not the date, when both are given (from_block over from_date, to_block over to_date)', async () => {
    // The dates alone would be a contradiction (from after to); the blocks decide, so it is a valid range.
    const q = 'from_block=19000010&from_date=2030-01-01&to_block=19000012&to_date=2020-01-01';
    const r = await upstream(`/api/v2.2/wallets/${wallet()}/history?${q}`);
    expect(r.query).toEqual({
      chain: '0x1',
      from_block: '19000010',
      to_block: '19000012',
      include_internal_transactions: 'false',
      nft_metadata: 'false',
      order: 'DESC',
    });
    expect(r.body.result.map((t: { block_number: string }) => t.block_number)).toEqual(['19000012', '19000011', '19000010']);
  });

  it('sends a block bound at one end and a date at the other', async () => {
    const r = await upstream(`/api/v2.2/wallets/${wallet()}/history?from_block=19000020&to_date=2025-01-01T21:00:00Z`);
    expect(r.query).toMatchObject({ from_block: '19000020', to_date: '2025-01-01T21:00:00.000Z' });
    expect(Object.keys(r.query).sort()).toEqual(['chain', 'from_block', 'include_internal_transactions', 'nft_metadata', 'order', 'to_date']);
    expect(r.body.result.map((t: { block_number: string }) => t.block_number)).toEqual(['19000021', '19000020']);
  });

  it('passes the upstream cursor back unchanged', async () => {
    const w = wallet();
    const first = await upstream(`/api/v2.2/wallets/${w}/history?limit=10`);
    stub.requests.length = 0;
    const next = await upstream(`/api/v2.2/wallets/${w}/history?limit=10&cursor=${encodeURIComponent(first.body.cursor)}`);
    expect(next.query).toEqual({ chain: '0x1', include_internal_transactions: 'false', nft_metadata: 'false', order: 'DESC', limit: '10', cursor: first.body.cursor });
  });
});

describe('wallet NFTs', () => {
  it('sends the defaults', async () => {
    const w = wallet();
    const r = await upstream(`/api/v2.2/${w}/nft`);
    expect(r.path).toBe(`/api/v2.2/${getAddress(w)}/nft`);
    expect(r.query).toEqual({ chain: '0x1', format: 'decimal', exclude_spam: 'false', normalizeMetadata: 'false', media_items: 'false', include_prices: 'false' });
  });

  it('sends every parameter, token addresses as an indexed list', async () => {
    const a = '0x' + '1'.repeat(40);
    const b = '0x' + '2'.repeat(40);
    const q = `chain=base&format=HEX&limit=3&exclude_spam=true&token_addresses=${a}&token_addresses=${b}&normalizeMetadata=true&media_items=true&include_prices=true`;
    const r = await upstream(`/api/v2.2/${wallet()}/nft?${q}`);
    expect(r.query).toEqual({
      chain: '0x2105',
      format: 'hex',
      limit: '3',
      exclude_spam: 'true',
      'token_addresses[0]': a,
      'token_addresses[1]': b,
      normalizeMetadata: 'true',
      media_items: 'true',
      include_prices: 'true',
    });
  });

  it('passes the upstream cursor on to the next page, and back unchanged', async () => {
    const w = wallet();
    const first = await upstream(`/api/v2.2/${w}/nft?limit=2`);
    // The stub's cursor for its third NFT (offset 2), as it sent it.
    expect(first.body.cursor).toBe(Buffer.from('2').toString('base64url'));
    stub.requests.length = 0;
    const next = await upstream(`/api/v2.2/${w}/nft?limit=2&cursor=${encodeURIComponent(first.body.cursor)}`);
    expect(next.query).toEqual({
      chain: '0x1',
      format: 'decimal',
      limit: '2',
      exclude_spam: 'false',
      cursor: first.body.cursor,
      normalizeMetadata: 'false',
      media_items: 'false',
      include_prices: 'false',
    });
    expect(next.body.result.map((n: { token_id: string }) => n.token_id)).toEqual(['1002', '1003']);
    expect(next.body.cursor).toBe(Buffer.from('4').toString('base64url'));
  });
});

describe('what a wallet holds, who may spend it, its counts', () => {
  const a = '0x' + '1'.repeat(40);
  const b = '0x' + '2'.repeat(40);

  it('tokens send the defaults, then every parameter, token addresses as an indexed list; the answer is the provider’s', async () => {
    const w = wallet();
    let r = await upstream(`/api/v2.2/wallets/${w}/tokens`);
    expect(r.path).toBe(`/api/v2.2/wallets/${getAddress(w)}/tokens`);
    expect(r.query).toEqual({ chain: '0x1', exclude_spam: 'false', exclude_native: 'false' });
    // The documented answer, in Lantern's wire form: page numbers as strings, booleans as booleans, prices kept.
    expect(r.body).toMatchObject({ page: '0', page_size: '100', cursor: '', block_number: '23998783' });
    expect(r.body.result[0]).toMatchObject({ token_address: '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee', native_token: true, possible_spam: false, usd_price: 3074.275584969874 });
    stub.requests.length = 0;
    r = await upstream(`/api/v2.2/wallets/${wallet()}/tokens?chain=polygon&to_block=123&token_addresses=${a}&token_addresses[]=${b}&exclude_spam=TRUE&exclude_native=true&limit=5&cursor=abc`);
    expect(r.query).toEqual({
      chain: '0x89',
      to_block: '123',
      'token_addresses[0]': getAddress(a),
      'token_addresses[1]': getAddress(b),
      exclude_spam: 'true',
      exclude_native: 'true',
      limit: '5',
      cursor: 'abc',
    });
  });

  it('erc20 sends its four parameters and answers the provider’s bare array', async () => {
    const r = await upstream(`/api/v2.2/${wallet()}/erc20?chain=0x1&to_block=7&token_addresses=${a}&exclude_spam=true`);
    expect(r.query).toEqual({ chain: '0x1', to_block: '7', 'token_addresses[0]': getAddress(a), exclude_spam: 'true' });
    expect(r.body.map((t: { symbol: string; balance: string }) => [t.symbol, t.balance])).toEqual([
      ['WETH', '795917396650797993089'],
      ['LINK', '155304334804334409393921'],
    ]);
  });

  it('approvals send chain, limit and cursor, and pass the provider’s cursor back', async () => {
    const w = wallet();
    let r = await upstream(`/api/v2.2/wallets/${w}/approvals?chain=eth&limit=10`);
    expect(r.query).toEqual({ chain: '0x1', limit: '10' });
    expect(r.body).toMatchObject({ page: '2', cursor: 'cursor_example' });
    expect(r.body.result[0]).toMatchObject({ block_number: '12526958', spender: { address_label: 'Binance 1' }, token: { possible_spam: false, usd_at_risk: 1e15 } });
    stub.requests.length = 0;
    r = await upstream(`/api/v2.2/wallets/${w}/approvals?chain=eth&limit=10&cursor=${r.body.cursor}`);
    expect(r.query).toEqual({ chain: '0x1', limit: '10', cursor: 'cursor_example' });
    expect(r.body.cursor).toBe('');
  });

  it('stats send the chain and answer the provider’s counts', async () => {
    const r = await upstream(`/api/v2.2/wallets/${wallet()}/stats?chain=base`);
    expect(r.query).toEqual({ chain: '0x2105' });
    expect(r.body).toEqual({ nfts: '100', collections: '10', transactions: { total: '1000' }, nft_transfers: { total: '1000' }, token_transfers: { total: '1000' } });
  });
});

describe('balance and transactions', () => {
  it('balance sends the chain', async () => {
    const w = wallet();
    const r = await upstream(`/api/v2.2/${w}/balance?chain=bsc`);
    expect(r.path).toBe(`/api/v2.2/${getAddress(w)}/balance`);
    expect(r.query).toEqual({ chain: '0x38' });
    expect(r.body).toEqual({ balance: String(BigInt(`0x${w.slice(-8)}`) * 10n ** 9n) });
  });

  it('a transaction sends the chain, and include only when asked; verbose has its own path', async () => {
    const hash = '0x' + 'c'.repeat(64);
    let r = await upstream(`/api/v2.2/transaction/${hash}`);
    expect([r.path, r.query]).toEqual([`/api/v2.2/transaction/${hash}`, { chain: '0x1' }]);
    stub.requests.length = 0;
    r = await upstream(`/api/v2.2/transaction/${hash}/verbose?chain=polygon&include=internal_transactions`);
    expect([r.path, r.query]).toEqual([`/api/v2.2/transaction/${hash}/verbose`, { chain: '0x89', include: 'internal_transactions' }]);
  });

  it('the transaction page lists the provider’s internal calls flat, saying it does not know their nesting', async () => {
    const hash = '0x' + 'd'.repeat(64);
    const res = await fetch(`${lantern.url}/tx/${hash}?chain=eth`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(stub.requests.map((r) => [r.path, Object.fromEntries(r.query)])).toContainEqual([
      `/api/v2.2/transaction/${hash}/verbose`,
      { chain: '0x1', include: 'internal_transactions' },
    ]);
    expect(html).toContain('data-nested="false"');
    expect(html).toContain('The data provider lists these calls without saying which call made which, so they are shown as a list in its order, not as a');
    expect(html.match(/<li data-call="true"/g)).toHaveLength(1);
    expect(html).not.toContain('data-call-depth');
    expect(html).toContain('data-address="0xa71db868318f0a0bae9411347cd4a6fa23d8d4ef"');
  });
});

describe('ledger blocks', () => {
  it('send with_transactions, false by default, to the network’s node', async () => {
    let r = await upstream('/api/ledger/mainnet/blocks/by_version/86447895');
    expect([r.path, r.query]).toEqual(['/mainnet/blocks/by_version/86447895', { with_transactions: 'false' }]);
    stub.requests.length = 0;
    r = await upstream('/api/ledger/testnet/blocks/by_version/86447895?with_transactions=true');
    expect([r.path, r.query]).toEqual(['/testnet/blocks/by_version/86447895', { with_transactions: 'true' }]);
  });
});

describe('sign-in challenges', () => {
  it('send every field of the request body', async () => {
    const body = {
      domain: 'lantern.test',
      chainId: 137,
      address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
      statement: 'Sign in to Lantern',
      uri: 'https://lantern.test/login',
      expirationTime: '2030-01-01T00:00:00.000Z',
      notBefore: '2029-12-31T00:00:00.000Z',
      resources: ['https://lantern.test/terms'],
      timeout: 90,
    };
    const r = await upstream('/api/auth/challenge/request/evm', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(r.path).toBe('/challenge/request/evm');
    expect(r.sent).toEqual(body);
  });
});
