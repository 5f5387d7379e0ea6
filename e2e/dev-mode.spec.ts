import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { freePortsSync } from '../scripts/lib/free-ports.mjs';

/**
 * `npm run dev` as a newcomer meets it: its own devnets and `next dev` on free ports. Its terminal says
 * the warm-up once, in one line, with no request lines that read like failures; and in development
 * (React's and Next's warnings on) no page, a not-found one included, logs a console warning or error.
 * Slow (next dev compiles every route): run under `node` only (playwright.config.ts).
 */
test.describe.configure({ mode: 'serial', timeout: 900_000 });

const ALICE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
let dev: ChildProcess;
let output = '';
let origin = '';
let dataDir = '';
let evmUrl = '';

test.beforeAll(async () => {
  test.setTimeout(900_000);
  const [port, evm, evm2, ledger, nft] = freePortsSync(5);
  origin = `http://127.0.0.1:${port}`;
  evmUrl = `http://127.0.0.1:${evm}`;
  dataDir = mkdtempSync(path.join(tmpdir(), 'lantern-dev-'));
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DEVNET_EVM_PORT: String(evm), DEVNET_EVM2_PORT: String(evm2), DEVNET_LEDGER_PORT: String(ledger), DEVNET_NFT_PORT: String(nft), DATA_DIR: dataDir, NODE_ENV: 'development' };
  // What the e2e run set for its own servers is not `npm run dev`'s.
  for (const k of ['E2E_PORT', 'E2E_HOSTED_PORT', 'EVM_RPC_URL', 'EVM_RPC_URLS', 'DATA_API_KEY', 'API_KEYS', 'LANTERN_WARM_UP', 'PUBLIC_URL']) delete env[k];
  dev = spawn(process.execPath, ['scripts/dev.mjs', '-H', '127.0.0.1'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  dev.stdout!.on('data', (d) => (output += d));
  dev.stderr!.on('data', (d) => (output += d));
  await expect.poll(() => output, { timeout: 840_000, intervals: [1_000] }).toMatch(/Lantern: warm-up compiled .*\n/);
});

test.afterAll(async () => {
  if (dev && dev.exitCode === null) {
    const gone = new Promise((r) => dev.once('exit', r));
    dev.kill('SIGTERM');
    await gone;
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test('npm run dev sums its warm-up up in one line, with no per-route lines that read like failures', async () => {
  const lines = output.split('\n');
  expect(lines.filter((l) => /warm-up/i.test(l)), output).toEqual([expect.stringMatching(/^Lantern: warm-up compiled \d+ routes in [\d.]+ s; pages now open without waiting$/)]);
  expect(lines.filter((l) => /\b(400|404|405)\b in /.test(l)), output).toEqual([]);
});

test('in development, no page logs a console warning or error: not-found pages included', async ({ page }) => {
  const pages = ['/', `/wallet/${ALICE}`, '/no-such-page', '/wallet/0x123', `/tx/0x${'ab'.repeat(32)}?chain=devnet`, '/search?q=not-a-thing', '/ledger/local/versions/31813'];
  for (const p of pages) {
    const said: string[] = [];
    const onConsole = (m: import('@playwright/test').ConsoleMessage) => {
      if (m.type() !== 'warning' && m.type() !== 'error') return;
      // A not-found page's own document answers 404, and Chromium reports that; it is the page's point.
      if (/Failed to load resource: the server responded with a status of 404/.test(m.text())) return;
      said.push(`${m.type()}: ${m.text()}`);
    };
    page.on('console', onConsole);
    page.on('pageerror', (e) => said.push(`page error: ${e.message}`));
    await page.goto(origin + p, { timeout: 300_000 });
    await page.waitForLoadState('load');
    // Hydration and the dev overlay's own checks run after load.
    await page.waitForTimeout(1_500);
    page.off('console', onConsole);
    expect(said, p).toEqual([]);
  }
});

test('the home page keeps the devnet moving when asked, and stops it when asked', async ({ page }) => {
  // The node says what happened: its head grows while the driver runs.
  const head = async () => {
    const res = await fetch(evmUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }) });
    return Number(((await res.json()) as { result: string }).result);
  };
  await page.goto(origin + '/', { timeout: 300_000 });
  const driver = page.getByTestId('devnet-driver');
  await expect(driver).toHaveAttribute('data-running', 'false');
  const before = await head();
  await page.getByRole('button', { name: 'Keep the devnet moving' }).click();
  // next dev compiles the server action on its first call: a while on a loaded machine.
  await expect(driver).toHaveAttribute('data-running', 'true', { timeout: 120_000 });
  await expect(page.getByTestId('devnet-driver-state')).toContainText('A scenario transaction every 4 s');
  // Two blocks at least: the first at once, the next a tick later.
  await expect.poll(head, { timeout: 30_000 }).toBeGreaterThanOrEqual(before + 2);
  // The state is the dev server's, not the page's: a reload still says running.
  await page.reload();
  await expect(driver).toHaveAttribute('data-running', 'true', { timeout: 30_000 });
  await page.getByRole('button', { name: 'Stop the devnet' }).click();
  await expect(driver).toHaveAttribute('data-running', 'false', { timeout: 30_000 });
  const stopped = await head();
  // The switch answers once the driver has stopped: over more than one of its intervals, nothing is mined.
  await page.reload();
  await expect(driver).toHaveAttribute('data-running', 'false');
  await page.waitForTimeout(5_000);
  expect(await head()).toBe(stopped);
});
