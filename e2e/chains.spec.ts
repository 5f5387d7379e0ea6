import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { getAddress } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { rpcClient } from '../tests/support/rpc';

/**
 * Chain pickers on the shared e2e server, which reads both devnets: they offer exactly the chains the
 * server says it serves, mark where the wallet is active (as the nodes say), and a wallet whose URL names
 * no chain opens where it is active.
 */

const { mnemonic } = JSON.parse(readFileSync(path.resolve('devnet/evm/scenario.json'), 'utf8')) as { mnemonic: string };
const account = (index: number) => getAddress(mnemonicToAccount(mnemonic, { addressIndex: index }).address);
const ALICE = account(1);
const NADIA = account(30); // devnet/evm/second.mjs: active only on the second devnet

const node = (port: string | undefined) => rpcClient(`http://127.0.0.1:${port}`);
const sent = async (port: string | undefined, address: string) => Number(await node(port).call<string>('eth_getTransactionCount', [address, 'latest']));

test('the chain picker offers exactly the served chains and keeps the rest of the URL when switching', async ({ page, request }) => {
  const health = (await (await request.get('/api/health')).json()) as { chains: { chain: string; operations: string[] }[] };
  const served = health.chains.filter((c) => c.operations.includes('history')).map((c) => c.chain);
  expect(served.length).toBeGreaterThan(0);
  await page.goto(`/wallet/${ALICE}?order=asc&spam=true`);
  const picker = page.getByLabel('Chain');
  await expect(picker.locator('option')).toHaveCount(served.length);
  expect(await picker.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual(served);
  const other = served.find((c) => c !== 'devnet');
  test.skip(!other, 'one chain served: nothing to switch to');
  await picker.selectOption(other!);
  await expect(page).toHaveURL(new RegExp(`[?&]chain=${other}(&|$)`));
  await expect(page).toHaveURL(/[?&]order=asc(&|$)/);
  await expect(page).toHaveURL(/[?&]spam=true(&|$)/);
});

test('a wallet active only on the second devnet opens there, its picker marks it, and the first devnet stays a choice', async ({ page }, info) => {
  test.skip(info.project.name === 'hosted', 'a hosted-mode server asks no hosted chains where a wallet is active when it opens a page');
  // What the nodes say, not what the seed meant: nadia never sent on the first devnet, did on the second.
  expect(await sent(process.env.E2E_EVM_PORT, NADIA)).toBe(0);
  expect(await sent(process.env.E2E_EVM2_PORT, NADIA)).toBeGreaterThan(0);

  await page.goto(`/wallet/${NADIA}`);
  await expect(page).toHaveURL(new RegExp(`/wallet/${NADIA}\\?chain=devnet2$`));
  const first = page.locator('li[data-tx-hash]').first();
  await expect(first).toBeVisible({ timeout: 30_000 });
  const hash = await first.getAttribute('data-tx-hash');
  expect(await node(process.env.E2E_EVM2_PORT).call('eth_getTransactionByHash', [hash])).not.toBeNull();

  const picker = page.getByLabel('Chain');
  await expect(picker).toHaveValue('devnet2');
  await expect(picker.locator('option[value="devnet2"]')).toHaveText(/· active$/);
  await expect(picker.locator('option[value="devnet"]')).not.toHaveText(/active/);

  // Picking the first devnet is kept in the URL (not bounced back to where the wallet is active).
  await picker.selectOption('devnet');
  await expect(page).toHaveURL(new RegExp(`/wallet/${NADIA}\\?chain=devnet$`));
  await expect(page.locator('li[data-tx-hash]')).toHaveCount(0);
  await expect(page.getByLabel('Chain')).toHaveValue('devnet');
});

test('a wallet active on the default chain opens there with no chain in its URL', async ({ page }, info) => {
  test.skip(info.project.name === 'hosted', 'as above');
  expect(await sent(process.env.E2E_EVM_PORT, ALICE)).toBeGreaterThan(0);
  await page.goto(`/wallet/${ALICE}`);
  await expect(page.locator('li[data-tx-hash]').first()).toBeVisible({ timeout: 30_000 });
  await expect(page).toHaveURL(new RegExp(`/wallet/${ALICE}$`));
});
