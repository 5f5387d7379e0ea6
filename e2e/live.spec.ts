import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { encodeDeployData, encodeFunctionData, getAddress, type Abi, type Hex } from 'viem';
import { spawnAnvil } from '../devnet/evm/anvil.mjs';
import { startLantern, type LanternInstance } from '../tests/support/lantern';
import { freePort } from '../tests/support/ports';
import { rpcClient, sendMined, txHashesTo } from '../tests/support/rpc';
import { expectAccessible, expectNoHorizontalScroll, rowHashes, setView, THEMES, WIDTHS } from './wallet-support';

/**
 * Live wallet pages, in Chromium: a page left open shows what the chain does without a reload. An anvil
 * and a Lantern of this spec's own (anvil_reorg and a server restart would disturb every other spec on
 * the shared devnet), on the embedded database. Transactions are sent to the node directly, as any
 * wallet would; the expected rows are the node's. One story in order: each test leaves the chain as the
 * next expects it. Runs once (playwright.config.ts).
 */

test.describe.configure({ mode: 'serial', timeout: 90_000 });

let anvil: Awaited<ReturnType<typeof spawnAnvil>>;
let app: LanternInstance;
let accounts: Hex[];
let wallet: Hex;

const node = rpcClient(() => anvil.url);
const rpc = node.call;

/** Sends `wei` from one of anvil's accounts to the wallet; resolves with the hash once it is mined (automine). */
async function pay(from = accounts[0]!, wei = 1_000_000_000_000n): Promise<Hex> {
  return (await sendMined(node, { from, to: wallet, value: wei })).hash;
}

/** The wallet's transactions as the node has them, newest first (every one is a plain payment to it). */
const nodeRows = () => txHashesTo(node, wallet);

/** Console errors of the page, but not the network errors a server restart makes on purpose. */
function watchConsole(page: Page, allowNetwork = false): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    if (allowNetwork && /ERR_CONNECTION_REFUSED|ERR_EMPTY_RESPONSE|Failed to load resource|EventSource/i.test(m.text())) return;
    errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

async function openLive(page: Page, path = `/wallet/${wallet}`) {
  await page.goto(`${app.url}${path}`);
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  await expect(page.getByTestId('live-state')).toHaveAttribute('data-state', 'open', { timeout: 20_000 });
  await expect(page.getByTestId('live-state')).toHaveText('Live');
}

const sameDocument = (page: Page) => page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);

test.beforeAll(async () => {
  test.setTimeout(180_000);
  anvil = await spawnAnvil({ port: await freePort(), args: ['--chain-id', '31337'] });
  accounts = await rpc<Hex[]>('eth_accounts');
  wallet = getAddress(accounts[5]!);
  // A history to start from.
  await pay();
  await pay(accounts[1]);
  app = await startLantern({ EVM_RPC_URL: anvil.url, DEVNET_LEDGER_PORT: process.env.E2E_LEDGER_PORT });
});

test.afterAll(async () => {
  await app?.stop();
  await anvil?.stop();
});

test('a transaction sent to the wallet appears at the top without a reload, with the balance; a reorg that drops it removes it', async ({ page }) => {
  const errors = watchConsole(page);
  await openLive(page);
  expect(await rowHashes(page)).toEqual(await nodeRows());
  const balanceBefore = await page.getByTestId('balance').getAttribute('data-wei');

  const hash = await pay(accounts[2], 5_000_000_000_000_000n);
  await expect(page.locator(`li[data-tx-hash="${hash}"]`)).toBeVisible({ timeout: 10_000 });
  expect(await rowHashes(page)).toEqual(await nodeRows());
  expect((await rowHashes(page))[0]).toBe(hash);
  expect(await sameDocument(page)).toBe(true);
  // The balance header was read again: what the node says now.
  const wei = BigInt(await rpc<Hex>('eth_getBalance', [wallet, 'latest'])).toString();
  expect(wei).not.toBe(balanceBefore);
  await expect(page.getByTestId('balance')).toHaveAttribute('data-wei', wei);
  await expect(page.getByTestId('live-announcement')).toContainText('1 new transaction');

  // The block holding it is replaced by an empty one: the row goes, and the bar says why.
  await rpc('anvil_reorg', [1, []]);
  await expect(page.locator(`li[data-tx-hash="${hash}"]`)).toHaveCount(0, { timeout: 10_000 });
  await expect(page.getByTestId('live-note')).toContainText('removed by a chain reorganisation');
  await expect(page.getByTestId('live-announcement')).toContainText('removed by a chain reorganisation');
  expect(await rowHashes(page)).toEqual(await nodeRows());
  expect(await sameDocument(page)).toBe(true);
  expect(errors).toEqual([]);
});

test('a reconnect after the server restarts carries on where it stopped: the transaction mined meanwhile once, nothing twice', async ({ page }) => {
  const errors = watchConsole(page, true);
  await openLive(page);
  const before = await rowHashes(page);
  const restarted = app.restart();
  await expect(page.getByTestId('live-state')).toHaveAttribute('data-state', 'reconnecting', { timeout: 10_000 });
  // Mined while the server is down or starting: no instance saw it happen.
  const missed = await pay(accounts[3]);
  await restarted;
  await expect(page.getByTestId('live-state')).toHaveAttribute('data-state', 'open', { timeout: 30_000 });
  await expect(page.locator(`li[data-tx-hash="${missed}"]`)).toBeVisible({ timeout: 10_000 });
  const after = await rowHashes(page);
  expect(after).toEqual([missed, ...before]);
  expect(new Set(after).size).toBe(after.length);
  expect(after).toEqual(await nodeRows());
  // And it goes on: the next one arrives too, once.
  const next = await pay(accounts[4]);
  await expect(page.locator(`li[data-tx-hash="${next}"]`)).toHaveCount(1, { timeout: 10_000 });
  expect(await rowHashes(page)).toEqual(await nodeRows());
  expect(await sameDocument(page)).toBe(true);
  expect(errors).toEqual([]);
});

test('in a background tab the stream pauses; back in front, what was mined meanwhile arrives', async ({ page }) => {
  await openLive(page);
  const setHidden = (hidden: boolean) =>
    page.evaluate((h) => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => h });
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (h ? 'hidden' : 'visible') });
      document.dispatchEvent(new Event('visibilitychange'));
    }, hidden);
  await setHidden(true);
  await expect(page.getByTestId('live-state')).toHaveAttribute('data-state', 'paused');
  await expect(page.getByTestId('live-state')).toHaveText('Paused in a background tab');
  const hash = await pay();
  // Nothing arrives while paused (the stream is closed) ...
  await page.waitForTimeout(1500); // a negative check: long enough for a live stream to have delivered it
  await expect(page.locator(`li[data-tx-hash="${hash}"]`)).toHaveCount(0);
  // ... and it does once the tab is in front again.
  await setHidden(false);
  await expect(page.locator(`li[data-tx-hash="${hash}"]`)).toBeVisible({ timeout: 10_000 });
  expect(await rowHashes(page)).toEqual(await nodeRows());
});

test('scrolled into the list, the rows being read stay where they are when new ones come in', async ({ page }) => {
  for (let i = 0; i < 6; i++) await pay(accounts[i % 4]);
  await page.setViewportSize({ width: 1280, height: 500 });
  await openLive(page);
  const hashes = await rowHashes(page);
  const reading = page.locator(`li[data-tx-hash="${hashes[6]}"]`);
  await reading.scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollBy(0, 40));
  const top = async () => (await reading.boundingBox())!.y;
  const y = await top();
  const hash = await pay();
  await expect(page.locator(`li[data-tx-hash="${hash}"]`)).toHaveCount(1, { timeout: 10_000 });
  await page.waitForTimeout(300); // let the highlight's first frames pass before measuring
  expect(Math.abs((await top()) - y)).toBeLessThanOrEqual(1);
});

test('past the cap: “N new transactions, show”; on another order: a link to the first page', async ({ page }) => {
  await openLive(page);
  // Twelve in one block (more than the ten that slide in at once).
  await rpc('evm_setAutomine', [false]);
  const sent: Hex[] = [];
  try {
    for (let i = 0; i < 12; i++) sent.push(await rpc<Hex>('eth_sendTransaction', [{ from: accounts[i % 5], to: wallet, value: '0x1' }]));
    await rpc('evm_mine');
  } finally {
    await rpc('evm_setAutomine', [true]);
  }
  const show = page.getByTestId('live-show');
  await expect(show).toHaveText('12 new transactions, show', { timeout: 10_000 });
  await expect(page.locator(`li[data-tx-hash="${sent[0]}"]`)).toHaveCount(0);
  await show.click();
  for (const h of sent) await expect(page.locator(`li[data-tx-hash="${h}"]`)).toHaveCount(1);
  await expect(show).toHaveCount(0);
  expect(await sameDocument(page)).toBe(true);

  await openLive(page, `/wallet/${wallet}?order=asc`);
  const hash = await pay();
  const link = page.getByTestId('live-first-page');
  await expect(link).toHaveText('1 new on the first page', { timeout: 10_000 });
  await link.click();
  await expect(page).toHaveURL(`${app.url}/wallet/${wallet}`);
  await expect(page.locator(`li[data-tx-hash="${hash}"]`)).toBeVisible();
});

test('on the NFTs tab, a token minted to the wallet appears without a reload', async ({ page }) => {
  const lights = JSON.parse(readFileSync('devnet/evm/artifacts/Lights721.json', 'utf8')) as { abi: Abi; bytecode: Hex };
  const deploy = await rpc<Hex>('eth_sendTransaction', [
    { from: accounts[0], data: encodeDeployData({ abi: lights.abi, bytecode: lights.bytecode, args: ['Live Lights', 'LLT'] } as never), gas: '0x2dc6c0' },
  ]);
  let contract: Hex | undefined;
  for (let i = 0; i < 100 && !contract; i++) {
    contract = (await rpc<{ contractAddress: Hex } | null>('eth_getTransactionReceipt', [deploy]))?.contractAddress;
    if (!contract) await new Promise((r) => setTimeout(r, 20));
  }
  await page.goto(`${app.url}/wallet/${wallet}/nfts`);
  // The wallet's first listing indexes it (SYNCING, then none held).
  await expect(page.locator('[data-status="SYNCING"]')).toHaveCount(0, { timeout: 30_000 });
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  await expect(page.getByTestId('live-state')).toHaveAttribute('data-state', 'open', { timeout: 20_000 });
  await expect(page.locator('li[data-token-id]')).toHaveCount(0);
  await rpc('eth_sendTransaction', [{ from: accounts[0], to: contract, data: encodeFunctionData({ abi: lights.abi, functionName: 'mint', args: [wallet] } as never), gas: '0x2dc6c0' }]);
  await expect(page.locator('li[data-token-id="1"]')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('live-announcement')).toContainText('NFTs updated');
  expect(await sameDocument(page)).toBe(true);
});

test('a pending transaction’s page shows it mined by itself', async ({ page }) => {
  await rpc('evm_setAutomine', [false]);
  let hash: Hex;
  try {
    hash = await rpc<Hex>('eth_sendTransaction', [{ from: accounts[0], to: wallet, value: '0x2' }]);
    await page.goto(`${app.url}/tx/${hash}`);
    await expect(page.locator('[data-error-code="transaction_pending"]')).toBeVisible();
    await expect(page.getByTestId('pending-live')).toHaveAttribute('data-state', 'open', { timeout: 20_000 });
    await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
    await rpc('evm_mine');
  } finally {
    await rpc('evm_setAutomine', [true]);
  }
  await expect(page.getByTestId('tx-status')).toHaveText('Succeeded', { timeout: 10_000 });
  await expect(page.getByTestId('tx-block')).toHaveText(String(Number(await rpc<Hex>('eth_blockNumber'))));
  expect(await sameDocument(page)).toBe(true);
});

test('the live bar at 375 and 1280 px, both themes: no sideways scroll, axe clean, no console errors', async ({ page }) => {
  const errors = watchConsole(page);
  for (const width of WIDTHS) {
    for (const theme of THEMES) {
      await setView(page, width, theme);
      await openLive(page, `/wallet/${wallet}?order=asc`);
      await pay();
      await expect(page.getByTestId('live-first-page')).toBeVisible({ timeout: 10_000 });
      await expectNoHorizontalScroll(page);
      await expectAccessible(page);
    }
  }
  expect(errors).toEqual([]);
});
