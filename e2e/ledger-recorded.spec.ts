import { expect, test } from '@playwright/test';
import { startHangingServer, type HangingServer } from '../tests/support/hanging-server';
import { startLantern, type LanternInstance } from '../tests/support/lantern';
import { readReference } from '../tests/support/reference';
import { RECORDED_MAINNET_BLOCKS, startRecordedLedgerNode, type RecordedLedgerNode } from '../tests/support/recorded-ledger-node';

/**
 * A successful mainnet lookup in the browser: the ledger page of a Lantern whose mainnet node is a local
 * node serving real recorded Aptos mainnet blocks (tests/support/recorded-ledger-node.ts). What the page
 * shows is checked against the recorded block, which no one here wrote. (The repository holds no recorded
 * testnet block, so testnet has no such check.) Starts its own production server; runs once
 * (playwright.config.ts).
 */

let node: RecordedLedgerNode;
let hanging: HangingServer;
let app: LanternInstance;

type Block = {
  block_height: string;
  first_version: string;
  last_version: string;
  block_timestamp: string;
  transactions: { type: string; version: string; hash: string; sender?: string; sequence_number?: string }[];
};

test.describe.configure({ mode: 'serial', timeout: 60_000 });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  node = await startRecordedLedgerNode();
  // Testnet's node accepts and never answers: a page of it must not hold the navigation to it.
  hanging = await startHangingServer();
  // The local ledger and EVM devnet are the e2e server's (playwright.config.ts chose their ports).
  app = await startLantern({
    LEDGER_API_URL_MAINNET: node.url,
    LEDGER_API_URL_TESTNET: hanging.url,
    UPSTREAM_TIMEOUT_MS: '20000',
    DEVNET_LEDGER_PORT: process.env.E2E_LEDGER_PORT,
    DEVNET_EVM_PORT: process.env.E2E_EVM_PORT,
  });
});

test.afterAll(async () => {
  await app?.stop();
  await node?.stop();
  await hanging?.close();
});

for (const name of RECORDED_MAINNET_BLOCKS) {
  const block = readReference<Block>(name);
  const searched = block.transactions.at(-1)!.version;
  test(`mainnet block ${block.block_height}: its summary and every transaction, the searched version highlighted`, async ({ page }) => {
    await page.goto(`${app.url}/ledger/mainnet/versions/${searched}`);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(`Version ${searched}`);
    await expect(page.getByRole('note')).toHaveCount(0); // the simulated-ledger notice is for local only
    await expect(page.getByTestId('block-height')).toHaveText(block.block_height);
    await expect(page.getByTestId('block-versions')).toHaveText(`${block.first_version} – ${block.last_version}`);
    await expect(page.getByTestId('block-count')).toHaveText(String(block.transactions.length));
    const micros = BigInt(block.block_timestamp);
    await expect(page.getByTestId('block-time')).toHaveAttribute('datetime', new Date(Number(micros / 1000n)).toISOString());
    await expect(page.locator('[data-version]')).toHaveCount(block.transactions.length);
    for (const t of block.transactions) await expect(page.locator(`[data-version="${t.version}"]`)).toHaveCount(1);
    await expect(page.getByTestId('tx-searched')).toHaveAttribute('data-version', searched);
  });
}

test('the user transaction of block 32425224 opens with its sender and sequence number', async ({ page }) => {
  const block = readReference<Block>(RECORDED_MAINNET_BLOCKS[0]!);
  const user = block.transactions.find((t) => t.type === 'user_transaction')!;
  await page.goto(`${app.url}/ledger/mainnet/versions/${user.version}`);
  await page.getByRole('button', { name: `Open version ${user.version}` }).click();
  const detail = page.getByTestId(`tx-detail-${user.version}`);
  await expect(detail).toContainText(`Sequence number${user.sequence_number}`);
  await expect(detail).toContainText(user.sender!);
});

test('switching from the local ledger to mainnet shows the recorded block', async ({ page }) => {
  const block = readReference<Block>(RECORDED_MAINNET_BLOCKS[1]!);
  await page.goto(`${app.url}/ledger/local/versions/${block.first_version}`);
  await page.getByRole('navigation', { name: 'Ledger network' }).getByRole('link', { name: 'mainnet' }).click();
  await expect(page.getByTestId('block-height')).toHaveText(block.block_height);
  await expect(page).toHaveURL(`${app.url}/ledger/mainnet/versions/${block.first_version}`);
});

test('a network whose node does not answer: linking to it asks nothing of the node, and clicking it lands at once', async ({ page }) => {
  const block = readReference<Block>(RECORDED_MAINNET_BLOCKS[0]!);
  // Links are not prefetched (components/ui/link.tsx): showing one renders nothing on the server.
  const prefetches: string[] = [];
  page.on('request', (r) => {
    if (r.headers()['next-router-prefetch']) prefetches.push(r.url());
  });
  await page.goto(`${app.url}/ledger/mainnet/versions/${block.first_version}`);
  await expect(page.getByTestId('block-height')).toHaveText(block.block_height);
  await page.waitForLoadState('networkidle');
  expect(prefetches).toEqual([]);
  // The node was not asked for anything while the link was on screen.
  expect(hanging.received()).toBe(0);

  await page.getByRole('navigation', { name: 'Ledger network' }).getByRole('link', { name: 'testnet' }).click();
  // The page is there, its block's place loading, while the node still holds the one request: neither
  // the block nor the page's head (a browser's comes from the block cache only) held the navigation.
  await expect(page.getByRole('link', { name: 'testnet', exact: true })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByText('Loading the block…')).toBeVisible();
  await expect(page).toHaveURL(`${app.url}/ledger/testnet/versions/${block.first_version}`);
  await expect.poll(() => hanging.received()).toBe(1);
  expect(hanging.open()).toBe(1);
});
