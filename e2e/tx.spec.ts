import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { decodeAbiParameters, type Hex } from 'viem';
import { WIDTHS, expectAccessible, expectNoHorizontalScroll, keepScreenshot, setView } from './wallet-support';

/**
 * The transaction page, /tx/{hash}?chain=devnet, for one transaction of each scenario kind, at 375 and
 * 1280 px, in node mode and (project `hosted`) through a hosted Lantern. Every expected value is read
 * from the devnet node itself (transaction, receipt, callTracer), not from the seed script.
 */
const RPC = `http://127.0.0.1:${process.env.E2E_EVM_PORT}`; // chosen by playwright.config.ts
interface ScenarioTx { hash: string; kind: string }
const transactions: ScenarioTx[] = JSON.parse(readFileSync(path.resolve('devnet/evm/scenario.json'), 'utf8')).transactions;
const KINDS: [string, string][] = [
  ['send', 'eth_send'],
  ['token send', 'erc20_transfer'],
  ['swap', 'swap'],
  ['NFT batch', 'erc1155_batch'],
  ['contract creation', 'deploy'],
  ['reverted', 'revert'],
  ['internal fan-out', 'multisend'],
];
const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const SINGLE = '0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62';
const BATCH = '0x4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb';

async function rpc<T>(method: string, params: unknown[]): Promise<T> {
  const res = await fetch(RPC, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

interface Trace { type: string; value?: string; error?: string; calls?: Trace[] }
interface Log { topics: string[]; data: Hex }

/** What the node says the page must show. */
async function expected(hash: string) {
  const [tx, receipt, trace] = await Promise.all([
    rpc<{ from: string; to: string | null; value: string; blockNumber: string }>('eth_getTransactionByHash', [hash]),
    rpc<{ status: string; gasUsed: string; effectiveGasPrice: string; contractAddress: string | null; logs: Log[] }>('eth_getTransactionReceipt', [hash]),
    rpc<Trace>('debug_traceTransaction', [hash, { tracer: 'callTracer' }]),
  ]);
  let calls = 0;
  let internalValue = 0;
  const walk = (t: Trace, reverted: boolean) => {
    for (const c of t.calls ?? []) {
      const r = reverted || !!c.error;
      calls++;
      if (!r && BigInt(c.value ?? '0x0') > 0n && c.type !== 'DELEGATECALL') internalValue++;
      walk(c, r);
    }
  };
  walk(trace, !!trace.error);
  const ok = Number(receipt.status) === 1;
  let tokenRows = 0;
  for (const l of receipt.logs) {
    if (l.topics[0] === TRANSFER || l.topics[0] === SINGLE) tokenRows++;
    if (l.topics[0] === BATCH) tokenRows += decodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint256[]' }], l.data)[0].length;
  }
  return {
    status: String(Number(receipt.status)),
    block: String(Number(tx.blockNumber)),
    from: tx.from.toLowerCase(),
    to: (tx.to ?? receipt.contractAddress)!.toLowerCase(),
    value: BigInt(tx.value).toString(),
    fee: (BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice)).toString(),
    logs: receipt.logs.length,
    tokenRows,
    calls,
    nativeRows: ok ? (BigInt(tx.value) > 0n ? 1 : 0) + internalValue : 0,
  };
}

for (const width of WIDTHS) {
  for (const [label, kind] of KINDS) {
    test(`transaction page, ${label}, ${width}px: what the node says, axe clean`, async ({ page }, testInfo) => {
      const hash = transactions.find((t) => t.kind === kind)!.hash;
      const want = await expected(hash);
      await setView(page, width, 'light');
      await page.goto(`/tx/${hash}?chain=devnet`);
      await expect(page.getByTestId('tx-status')).toHaveAttribute('data-status', want.status);
      await expect(page.getByTestId('tx-status')).toHaveText(want.status === '1' ? 'Success' : 'Failed (reverted)');
      await expect(page.getByTestId('tx-block')).toHaveText(want.block);
      await expect(page.getByTestId('tx-from')).toHaveAttribute('data-address', want.from);
      await expect(page.getByTestId('tx-from')).toHaveAttribute('href', `/wallet/${want.from}?chain=devnet`);
      await expect(page.getByTestId('tx-to')).toHaveAttribute('data-address', want.to);
      await expect(page.getByTestId('tx-value')).toHaveAttribute('data-wei', want.value);
      await expect(page.getByTestId('tx-fee')).toHaveAttribute('data-wei', want.fee);
      await expect(page.locator('[data-log]')).toHaveCount(want.logs);
      await expect(page.locator('[data-transfer="erc20"], [data-transfer="erc721"], [data-transfer="erc1155"]')).toHaveCount(want.tokenRows);
      await expect(page.locator('[data-transfer="native"]')).toHaveCount(want.nativeRows);
      await expect(page.locator('[data-call-depth]')).toHaveCount(want.calls);
      await expectNoHorizontalScroll(page);
      await expectAccessible(page);
      await keepScreenshot(page, testInfo, `tx-${kind}-${width}`);
    });
  }
}

test('an unknown hash says so', async ({ page }) => {
  const unknown = `0x${'ab'.repeat(32)}`;
  await page.goto(`/tx/${unknown}?chain=devnet`);
  const alert = page.locator('[role="alert"][data-error-code="transaction_not_found"]');
  await expect(alert).toContainText('Transaction not found');
  await expect(alert).toContainText(unknown);
});

test('a history row links to its transaction page', async ({ page }) => {
  await page.goto('/wallet/0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65?chain=devnet');
  const row = page.locator('li[data-tx-hash]').first();
  const hash = await row.getAttribute('data-tx-hash');
  await row.getByRole('button', { name: /Show details of/ }).click();
  const link = row.getByTestId('tx-page-link');
  await expect(link).toHaveAttribute('href', `/tx/${hash}?chain=devnet`);
  await link.click();
  await expect(page.getByTestId('tx-hash')).toHaveText(hash!);
});
