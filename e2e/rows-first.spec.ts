import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { encodeDeployData, encodeFunctionData, getAddress, type Abi, type Hex } from 'viem';
import { spawnAnvil } from '../devnet/evm/anvil.mjs';
import { startLantern, type LanternInstance } from '../tests/support/lantern';
import { freePort } from '../tests/support/ports';
import { receiptOf, rpcClient, type Rpc } from '../tests/support/foreign-chain';
import { startRpcProxy, type RpcProxy } from '../tests/support/rpc-proxy';
import { expectAccessible, setView } from './wallet-support';

/**
 * Rows first, details after (issue 22): a never-seen wallet's first page is drawn from the node's cheap
 * reads (transactions, receipts, logs), and the internal transfers, which need a trace, fill in the same
 * rows afterwards. The node here is an anvil of this spec's own behind a proxy that holds the block trace
 * until the test lets it go, so "afterwards" is a state the test can look at. The oracle for what fills
 * in is the node's own callTracer. Runs once (playwright.config.ts).
 */

test.describe.configure({ mode: 'serial', timeout: 120_000 });

const art = JSON.parse(readFileSync(new URL('../devnet/evm/artifacts/MultiSend.json', import.meta.url), 'utf8')) as { abi: Abi; bytecode: Hex };
let anvil: Awaited<ReturnType<typeof spawnAnvil>>;
let proxy: RpcProxy;
let app: LanternInstance;
let wallet: Hex;
let calls: Hex[];
let block: number;

let node: Rpc;
const rpc = <T>(method: string, params: unknown[] = []) => node.call(method, params) as Promise<T>;
const receipt = (hash: Hex) => receiptOf(node, hash);

interface Frame { type: string; value?: Hex; error?: string; calls?: Frame[] }
/** Internal value transfers of a transaction, from the node's own trace of it. */
async function internalTransfers(hash: Hex): Promise<number> {
  const root = await rpc<Frame>('debug_traceTransaction', [hash, { tracer: 'callTracer' }]);
  let n = 0;
  const walk = (f: Frame, depth: number) => {
    if (depth > 0 && !f.error && BigInt(f.value ?? '0x0') > 0n) n++;
    for (const c of f.calls ?? []) walk(c, depth + 1);
  };
  walk(root, 0);
  return n;
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  anvil = await spawnAnvil({ port: await freePort(), args: ['--accounts', '8'] });
  node = rpcClient(anvil.url);
  const [deployer, w, ...rest] = await rpc<Hex[]>('eth_accounts');
  wallet = getAddress(w!);
  const multiSend = (await receipt(await rpc<Hex>('eth_sendTransaction', [{ from: deployer, data: encodeDeployData({ abi: art.abi, bytecode: art.bytecode }), gas: '0x4c4b40' }]))).contractAddress!;
  // Two calls in one block (one trace of the block), each passing ETH on to others.
  await rpc('evm_setAutomine', [false]);
  const send = (to: Hex[], amounts: bigint[]) =>
    rpc<Hex>('eth_sendTransaction', [
      { from: w, to: multiSend, value: `0x${amounts.reduce((a, b) => a + b, 0n).toString(16)}`, gas: '0x30d40', data: encodeFunctionData({ abi: art.abi, functionName: 'send', args: [to, amounts] }) },
    ]);
  calls = [await send([rest[0]!], [250_000_000_000_000_000n]), await send([rest[1]!, rest[2]!], [500_000_000_000_000_000n, 125_000_000_000_000_000n])];
  await rpc('evm_mine', []);
  await rpc('evm_setAutomine', [true]);
  block = Number((await receipt(calls[0]!)).blockNumber);
  proxy = await startRpcProxy(anvil.url);
  app = await startLantern({ EVM_RPC_URL: proxy.url });
});

test.afterAll(async () => {
  proxy?.release();
  await app?.stop();
  await proxy?.stop();
  await anvil?.stop();
});

test('a never-seen wallet: its rows at once, "checking internal transfers" on the calls, then the transfers in the same rows, details left open', async ({ page }) => {
  proxy.hold = (c) => c.method === 'trace_block' && Number(c.params[0]) === block;
  await setView(page, 1280, 'light');
  await page.goto(`${app.url}/wallet/${wallet}`);
  const rows = page.locator('li[data-tx-hash]');
  await expect(rows).toHaveCount(2);
  const checking = page.locator('[data-role="checking"][data-state="checking"]');
  await expect(checking).toHaveCount(2);
  await expect(checking.first()).toHaveText('checking internal transfers…');
  await expect(page.getByRole('status').filter({ hasText: 'Checking internal transfers…' })).toHaveCount(1);
  await expectAccessible(page);

  // A person opens a row's details while it is still being checked.
  const row = page.locator(`li[data-tx-hash="${calls[1]!.toLowerCase()}"]`);
  await row.getByRole('button', { name: /Show details of/ }).click();
  await expect(row.getByText('Native · internal')).toHaveCount(0);

  proxy.release();
  await expect(checking).toHaveCount(0, { timeout: 30_000 });
  // The same row, still open, now with the internal transfers the node's own trace shows.
  await expect(row.getByRole('button', { name: /Hide details of/ })).toHaveAttribute('aria-expanded', 'true');
  await expect(row.getByText('Native · internal')).toHaveCount(await internalTransfers(calls[1]!));
  await expect(page.locator(`li[data-tx-hash="${calls[0]!.toLowerCase()}"]`)).toBeVisible();
  await expectAccessible(page);
});
