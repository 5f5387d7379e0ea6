import axios from 'axios';
import Moralis from 'moralis';
import { mnemonicToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { MNEMONIC, loadManifest } from '../../../devnet/evm/index.mjs';
import { EPILOGUE_FROM } from '../../../devnet/ledger/chain.mjs';

/**
 * The Moralis JS SDK (npm `moralis` 2.27, the vendor's own client) against a Lantern, as a user points it:
 *   Moralis.start({ apiKey, evmApiBaseUrl: `${lantern}/api/v2.2` })
 * The SDK's auth module has a fixed host (https://authapi.moralis.io) and no setting for it, so a request
 * interceptor on the axios instance the SDK uses rewrites that host to `${lantern}/api/auth` (README).
 *
 * `target()` is read per call: a suite file starts one or two Lanterns in beforeAll, after this module
 * has defined its tests. Expected answers are the published API's own pages, fetched with plain HTTP
 * from `reference()` (the node-mode Lantern) and followed cursor by cursor.
 */

export const MORALIS_AUTH_HOST = 'https://authapi.moralis.io';
/** The SDK's Aptos module has fixed hosts per network too; its mainnet host is rewritten to `aptosPath`. */
export const MORALIS_APTOS_MAINNET_HOST = 'https://aptos-mainnet.aws-prod-api-1.moralis.io';
export const SDK_API_KEY = 'sdk-conformance-key-0123456789';

export interface MoralisTarget {
  /** The Lantern the SDK talks to. */
  url: string;
  /** The Lantern whose published API gives the expected answer (the node-mode one). */
  reference: string;
  /** The ledger devnet node. */
  ledgerUrl: string;
  /**
   * Where on `url` the SDK's Aptos (mainnet) requests go: a node-mode Lantern's `/api/ledger/local`; a
   * hosted one's `/api/ledger/mainnet`, which its hosted ledger client sends on to the fronted Lantern.
   */
  aptosPath: string;
}

const m = loadManifest();
const CHAIN = '0x7a69';
const alice = m.accounts.alice.checksumAddress;
const bob = m.accounts.bob.checksumAddress;
const holder = m.accounts.holder.checksumAddress;
const lights = Object.values(m.contracts).find((c) => c.kind === 'erc721' && !c.spam)!.address;
const items = Object.values(m.contracts).find((c) => c.kind === 'erc1155')!.address;

let started = false;
/** Starts the SDK once per file (Moralis is a process-wide singleton) and routes its fixed hosts to `target`. */
export function startMoralis(target: () => MoralisTarget) {
  if (started) return;
  started = true;
  // The SDK sends through axios' default instance: the one `import axios from 'axios'` gives (deduplicated).
  axios.interceptors.request.use((config) => {
    const u = target().url;
    const rewrites: [string, string][] = [
      [MORALIS_AUTH_HOST, '/api/auth'],
      [MORALIS_APTOS_MAINNET_HOST, target().aptosPath],
    ];
    for (const [host, path] of rewrites) {
      if (config.url?.startsWith(host)) config.url = u + path + config.url.slice(host.length);
      if (config.baseURL?.startsWith(host)) config.baseURL = u + path + config.baseURL.slice(host.length);
    }
    return config;
  });
  return Moralis.start({ apiKey: SDK_API_KEY, evmApiBaseUrl: `${target().url}/api/v2.2`, logLevel: 'off' });
}

/** Every page of a published-API list, followed by its cursor with plain HTTP. */
async function allPages(base: string, path: string, query: Record<string, string>): Promise<unknown[]> {
  const out: unknown[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 200; i++) {
    const u = new URL(base + path);
    for (const [k, v] of Object.entries(query)) u.searchParams.set(k, v);
    if (cursor) u.searchParams.set('cursor', cursor);
    const res = await fetch(u, { headers: { 'X-API-Key': SDK_API_KEY } });
    expect(res.status, `${u}`).toBe(200);
    const body = (await res.json()) as { result: unknown[]; cursor?: string | null };
    out.push(...body.result);
    cursor = body.cursor || undefined;
    if (!cursor) return out;
  }
  throw new Error('more than 200 pages');
}

/**
 * Node mode indexes a wallet's NFTs in the background; its first answer says SYNCING. Waits for the
 * published API to say SYNCED (an observable state, polled) before the SDK asks, so a hosted Lantern in
 * front never caches a partial page.
 */
async function untilNftsSynced(base: string, owner: string) {
  for (let i = 0; i < 600; i++) {
    const res = await fetch(`${base}/api/v2.2/${owner}/nft?chain=${CHAIN}&limit=1`, { headers: { 'X-API-Key': SDK_API_KEY } });
    if (res.ok && ((await res.json()) as { status?: string }).status === 'SYNCED') return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`NFTs of ${owner} never SYNCED`);
}

interface Paged {
  /** A method on the v3 wallet operations' adapter, a getter on the older NFT operations' adapter. */
  raw: Raw | (() => Raw);
  hasNext(): boolean;
  next(): Promise<Paged>;
}

/** Pages with the SDK's own `.hasNext()`/`.next()` until it says there are no more. */
async function sdkPages(first: Paged): Promise<{ rows: unknown[]; pages: number }> {
  const rows: unknown[] = [];
  let page: Paged = first;
  let pages = 1;
  rows.push(...rawOf(page).result);
  while (page.hasNext()) {
    page = await page.next();
    pages++;
    rows.push(...rawOf(page).result);
    if (pages > 200) throw new Error('SDK kept paging');
  }
  return { rows, pages };
}

type Raw = { result: unknown[]; cursor?: string | null };
const rawOf = (p: Paged): Raw => (typeof p.raw === 'function' ? p.raw() : p.raw);

const hashes = (rows: unknown[]) => rows.map((r) => (r as { hash: string }).hash);

export function moralisSuite(label: string, target: () => MoralisTarget) {
  describe(`Moralis JS SDK against Lantern (${label})`, () => {
    describe('EvmApi.wallets.getWalletHistory paged with the SDK’s .next()', () => {
      for (const order of ['DESC', 'ASC'] as const) {
        for (const includeInternalTransactions of [false, true]) {
          it(`order ${order}, include_internal_transactions ${includeInternalTransactions}: every page equals the published API's`, async () => {
            const limit = 25;
            const first = await Moralis.EvmApi.wallets.getWalletHistory({ address: alice, chain: CHAIN, order, includeInternalTransactions, limit });
            // The SDK also parses each page into its own types: touch them so a parse failure fails here.
            expect(first.result.length).toBe(limit);
            expect(first.result[0].hash).toMatch(/^0x[0-9a-f]{64}$/);
            const sdk = await sdkPages(first as unknown as Paged);
            const expected = await allPages(target().reference, `/api/v2.2/wallets/${alice}/history`, {
              chain: CHAIN,
              order,
              include_internal_transactions: String(includeInternalTransactions),
              limit: String(limit),
            });
            expect(sdk.rows).toEqual(expected);
            expect(sdk.pages).toBe(Math.ceil(expected.length / limit));
            expect(new Set(hashes(sdk.rows)).size).toBe(sdk.rows.length); // no repeats across pages
            // alice is paid through MultiSend: internal calls appear exactly when asked for.
            const withInternal = sdk.rows.filter((r) => ((r as { internal_transactions?: unknown[] }).internal_transactions ?? []).length > 0);
            if (includeInternalTransactions) expect(withInternal.length).toBeGreaterThan(0);
            else expect(withInternal).toEqual([]);
          });
        }
      }

      it('both orders list the same transactions, reversed', async () => {
        const desc = await sdkPages((await Moralis.EvmApi.wallets.getWalletHistory({ address: alice, chain: CHAIN, order: 'DESC', limit: 100 })) as unknown as Paged);
        const asc = await sdkPages((await Moralis.EvmApi.wallets.getWalletHistory({ address: alice, chain: CHAIN, order: 'ASC', limit: 100 })) as unknown as Paged);
        expect(hashes(asc.rows)).toEqual(hashes(desc.rows).reverse());
        expect(desc.rows.length).toBeGreaterThan(300);
      });
    });

    describe('EvmApi.nft.getWalletNFTs', () => {
      it('normalizeMetadata and mediaItems, paged with .next(), equal the published API', async () => {
        await untilNftsSynced(target().reference, bob);
        const limit = 4;
        const query = { chain: CHAIN, normalizeMetadata: 'true', media_items: 'true', limit: String(limit) };
        const first = await Moralis.EvmApi.nft.getWalletNFTs({ address: bob, chain: CHAIN, normalizeMetadata: true, mediaItems: true, limit });
        expect(first.result.length).toBe(limit);
        const sdk = await sdkPages(first as unknown as Paged);
        const expected = await allPages(target().reference, `/api/v2.2/${bob}/nft`, query);
        expect(sdk.rows).toEqual(expected);
        expect(sdk.pages).toBeGreaterThan(1);
        // normalizeMetadata: the ERC-721 Lights carry on-chain JSON, so each has normalized_metadata.
        const light = sdk.rows.find((r) => (r as { token_address: string }).token_address.toLowerCase() === lights.toLowerCase()) as Record<string, unknown>;
        expect(light.normalized_metadata).toMatchObject({ name: `Lantern Light #${light.token_id}`, image: expect.stringMatching(/^data:image\/svg\+xml/) });
      });

      it('tokenAddresses narrows to the named contracts', async () => {
        await untilNftsSynced(target().reference, bob);
        const first = await Moralis.EvmApi.nft.getWalletNFTs({ address: bob, chain: CHAIN, tokenAddresses: [items], limit: 2 });
        const sdk = await sdkPages(first as unknown as Paged);
        const expected = await allPages(target().reference, `/api/v2.2/${bob}/nft`, { chain: CHAIN, 'token_addresses[0]': items, limit: '2' });
        expect(sdk.rows).toEqual(expected);
        expect(sdk.rows.length).toBeGreaterThan(0);
        for (const r of sdk.rows) expect((r as { token_address: string }).token_address.toLowerCase()).toBe(items.toLowerCase());
      });
    });

    describe('the balance and transaction operations', () => {
      const fromApi = async (path: string) => {
        const res = await fetch(`${target().reference}${path}`, { headers: { 'X-API-Key': SDK_API_KEY } });
        expect(res.status, path).toBe(200);
        return res.json();
      };

      it('EvmApi.balance.getNativeBalance equals the published API (and the SDK reads it as wei)', async () => {
        const r = await Moralis.EvmApi.balance.getNativeBalance({ address: alice, chain: CHAIN });
        const expected = (await fromApi(`/api/v2.2/${alice}/balance?chain=${CHAIN}`)) as { balance: string };
        expect(r.raw).toEqual(expected);
        expect(r.result.balance.wei).toBe(expected.balance);
      });

      it('EvmApi.transaction.getTransaction and getTransactionVerbose equal the published API', async () => {
        const hash = m.transactions.find((t) => t.kind === 'erc20_transfer')!.hash;
        const plain = await Moralis.EvmApi.transaction.getTransaction({ transactionHash: hash, chain: CHAIN });
        expect(plain?.raw).toEqual(await fromApi(`/api/v2.2/transaction/${hash}?chain=${CHAIN}`));
        expect(plain?.result.hash).toBe(hash);
        const verbose = await Moralis.EvmApi.transaction.getTransactionVerbose({ transactionHash: hash, chain: CHAIN });
        expect(verbose?.raw).toEqual(await fromApi(`/api/v2.2/transaction/${hash}/verbose?chain=${CHAIN}`));
        expect((verbose?.raw as { decoded_call?: { label: string } }).decoded_call?.label).toBe('transfer');
      });

      it('an unknown hash: getTransaction answers null, as the SDK does for the provider’s 404', async () => {
        expect(await Moralis.EvmApi.transaction.getTransaction({ transactionHash: `0x${'cd'.repeat(32)}`, chain: CHAIN })).toBeNull();
      });
    });

    describe('what a wallet holds, and its counts', () => {
      const fromApi = async (path: string) => {
        const res = await fetch(`${target().reference}${path}`, { headers: { 'X-API-Key': SDK_API_KEY } });
        expect(res.status, path).toBe(200);
        return res.json();
      };

      it('EvmApi.wallets.getWalletTokenBalancesPrice, paged with .next(), equals the published API', async () => {
        const limit = 2;
        const first = await Moralis.EvmApi.wallets.getWalletTokenBalancesPrice({ address: holder, chain: CHAIN, limit });
        // The SDK's own types: the native coin first, balances read as wei.
        expect(first.result[0]!.nativeToken).toBe(true);
        expect(first.result[0]!.balance.wei).toMatch(/^\d+$/);
        const sdk = await sdkPages(first as unknown as Paged);
        const expected = await allPages(target().reference, `/api/v2.2/wallets/${holder}/tokens`, { chain: CHAIN, limit: String(limit) });
        expect(sdk.rows).toEqual(expected);
        expect(sdk.pages).toBeGreaterThan(2);
        const symbols = sdk.rows.map((r) => (r as { symbol: string }).symbol);
        expect(symbols).toEqual(expect.arrayContaining(['ETH', 'rLNT', 'TAX', 'OLG', 'USDC']));
      });

      it('EvmApi.token.getWalletTokenBalances (the legacy erc20 list) equals the published API', async () => {
        const r = await Moralis.EvmApi.token.getWalletTokenBalances({ address: holder, chain: CHAIN, excludeSpam: true });
        expect(r.raw).toEqual(await fromApi(`/api/v2.2/${holder}/erc20?chain=${CHAIN}&exclude_spam=true`));
        // The SDK reads each as an amount of its token, with the token's decimals and flags.
        const olg = r.result.find((v) => v.token?.symbol === 'OLG')!;
        expect([olg.decimals, olg.value, olg.token?.possibleSpam]).toEqual([18, '4000.0', false]);
      });

      it('EvmApi.wallets.getWalletStats equals the published API', async () => {
        const r = await Moralis.EvmApi.wallets.getWalletStats({ address: holder, chain: CHAIN });
        const expected = await fromApi(`/api/v2.2/wallets/${holder}/stats?chain=${CHAIN}`);
        expect(r.raw).toEqual(expected);
        expect(r.result.transactions.total).toBe(String(m.accounts.holder.txCount));
      });
    });

    describe('AptosApi.blocks.getBlockByVersion (the SDK’s Aptos module)', () => {
      const ledger = () => target().ledgerUrl;
      const firstVersionOf = async (height: number) => BigInt(((await (await fetch(`${ledger()}/blocks/by_height/${height}`)).json()) as { first_version: string }).first_version);

      it('reads an old-style block (state checkpoint last) as the node sends it', async () => {
        const version = (await firstVersionOf(1200)) + 1n;
        const block = await Moralis.AptosApi.blocks.getBlockByVersion({ version: Number(version), withTransactions: true, network: 'mainnet' });
        const node = (await (await fetch(`${ledger()}/blocks/by_version/${version}?with_transactions=true`)).json()) as Record<string, unknown>;
        const json = block.toJSON() as unknown as Record<string, unknown>;
        expect(json.block_height).toBe('1200');
        expect(json.block_hash).toBe(node.block_hash);
        expect((json.transactions as unknown[]).length).toBe((node.transactions as unknown[]).length);
      });

      it('fails on a block holding a block_epilogue_transaction: the SDK’s limitation (README), not Lantern’s', async () => {
        const version = (await firstVersionOf(EPILOGUE_FROM + 7)) + 1n;
        const direct = await fetch(`${target().url}${target().aptosPath}/blocks/by_version/${version}?with_transactions=true`, { headers: { 'X-API-Key': SDK_API_KEY } });
        expect(direct.status).toBe(200); // Lantern answers it
        await expect(Moralis.AptosApi.blocks.getBlockByVersion({ version: Number(version), withTransactions: true, network: 'mainnet' })).rejects.toThrow();
      });
    });

    describe('Auth.requestMessage then Auth.verify', () => {
      const account = mnemonicToAccount(MNEMONIC, { addressIndex: 4 }); // dave, a devnet key
      const challenge = () => {
        const host = new URL(target().url).host;
        return Moralis.Auth.requestMessage({
          address: account.address,
          chain: CHAIN,
          networkType: 'evm',
          domain: host,
          statement: 'Sign in to Lantern (SDK conformance)',
          uri: `http://${host}/`,
          timeout: 60,
        });
      };

      it('verifies a message signed with the devnet key', async () => {
        const { result } = await challenge();
        expect(result.message).toContain(account.address);
        const signature = await account.signMessage({ message: result.message });
        const verified = await Moralis.Auth.verify({ message: result.message, signature, networkType: 'evm' });
        expect(verified.raw.address.toLowerCase()).toBe(account.address.toLowerCase());
        expect(verified.raw.profileId).toBe(result.profileId);
      });

      it('refuses a wrong signature with the SDK’s own error', async () => {
        const { result } = await challenge();
        const other = mnemonicToAccount(MNEMONIC, { addressIndex: 5 });
        const signature = await other.signMessage({ message: result.message });
        const err = await Moralis.Auth.verify({ message: result.message, signature, networkType: 'evm' }).then(
          () => undefined,
          (e: unknown) => e,
        );
        // The SDK's MoralisError (C0006: request failed) carrying Lantern's status and message.
        expect(err).toMatchObject({ isMoralisError: true, code: 'C0006', details: { status: 401 } });
        expect((err as Error).message).toMatch(/Unauthorized\(401\): The signature does not match/);
      });
    });
  });
}
