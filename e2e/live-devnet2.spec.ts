import { expect, test, type Page } from '@playwright/test';
import { getAddress, type Hex } from 'viem';
import { spawnAnvil } from '../devnet/evm/anvil.mjs';
import { startLantern, type LanternInstance } from '../tests/support/lantern';
import { freePort } from '../tests/support/ports';
import { rpcClient, sendMined, txHashesTo } from '../tests/support/rpc';
import { startRpcProxy, type RpcProxy } from '../tests/support/rpc-proxy';
import { rowHashes } from './wallet-support';

/**
 * Live pages on the second devnet (`?chain=devnet2`, chain 31338): a transaction sent there appears on
 * open wallet pages without a reload, and the node is followed once, however many pages watch. The
 * second devnet is an anvil of this spec's own behind a recording proxy (which relays its WebSocket, so
 * the node's subscriptions are counted where the node sees them); the first is the e2e run's. Runs once
 * (playwright.config.ts).
 */

test.describe.configure({ mode: 'serial', timeout: 90_000 });

let anvil: Awaited<ReturnType<typeof spawnAnvil>>;
let proxy: RpcProxy;
let app: LanternInstance;
let accounts: Hex[];
let wallet: Hex;

const node = rpcClient(() => anvil.url);
const rpc = node.call;

async function pay(from: Hex, wei = 1_000_000_000_000n): Promise<Hex> {
  return (await sendMined(node, { from, to: wallet, value: wei })).hash;
}

/** The wallet's transactions as this node has them, newest first (every one a payment to it). */
const nodeRows = () => txHashesTo(node, wallet);

async function openLive(page: Page) {
  await page.goto(`${app.url}/wallet/${wallet}?chain=devnet2`);
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  await expect(page.getByTestId('live-state')).toHaveAttribute('data-state', 'open', { timeout: 20_000 });
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  anvil = await spawnAnvil({ port: await freePort(), args: ['--chain-id', '31338'] });
  accounts = await rpc<Hex[]>('eth_accounts');
  wallet = getAddress(accounts[6]!);
  await pay(accounts[0]!);
  proxy = await startRpcProxy(anvil.url);
  // The proxy is the second devnet (a loopback node: its WebSocket is its own port); the first is the run's.
  app = await startLantern({ DEVNET_EVM2_PORT: String(proxy.port), DEVNET_LEDGER_PORT: process.env.E2E_LEDGER_PORT });
});

test.afterAll(async () => {
  await app?.stop();
  await proxy?.stop();
  await anvil?.stop();
});

test('a transaction sent on devnet2 appears on open devnet2 wallet pages without a reload; the node sees one follower', async ({ browser }) => {
  const pages = await Promise.all([browser.newPage(), browser.newPage()]);
  const errors: string[] = [];
  for (const p of pages) p.on('pageerror', (e) => errors.push(e.message));
  for (const p of pages) await openLive(p);
  for (const p of pages) expect(await rowHashes(p)).toEqual(await nodeRows());

  const hash = await pay(accounts[2]!, 3_000_000_000_000_000n);
  for (const p of pages) {
    await expect(p.locator(`li[data-tx-hash="${hash}"]`)).toBeVisible({ timeout: 10_000 });
    expect(await rowHashes(p)).toEqual(await nodeRows());
    expect(await p.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true)).toBe(true);
  }
  // The balance header follows, read again in the background: what the node says now.
  const wei = BigInt(await rpc<Hex>('eth_getBalance', [wallet, 'latest'])).toString();
  for (const p of pages) await expect(p.getByTestId('balance')).toHaveAttribute('data-wei', wei);

  // Two pages, one chain: one subscription on one WebSocket, as the node sees it; the instance follows 31338 by it.
  expect(proxy.wsCalls.filter((c) => c.method === 'eth_subscribe')).toEqual([{ method: 'eth_subscribe', params: ['newHeads'] }]);
  expect(proxy.wsOpen()).toBe(1);
  const live = (await (await fetch(`${app.url}/api/health`)).json()) as { live: { following: { chain_id: number; transport: string }[] } };
  expect(live.live.following.filter((f) => f.chain_id === 31338)).toEqual([expect.objectContaining({ chain_id: 31338, transport: 'websocket' })]);
  expect(errors).toEqual([]);
  await Promise.all(pages.map((p) => p.close()));
});
