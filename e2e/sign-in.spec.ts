import { expect, test, type Page } from '@playwright/test';
import { devnetLabel } from '../lib/devnet/scenario-labels';
import { rpcClient } from '../tests/support/rpc';
import { alice, bob, installTestWallet } from './test-wallet';

/**
 * Sign-in in Chromium with a test wallet that appears exactly as a browser extension does: an EIP-1193
 * provider announced through EIP-6963, injected before any page script runs. Its keys stay in this
 * Node process (anvil's public devnet keys #5 and #6); the page asks it to sign through an exposed
 * function. The server needs to read the devnet (chain 31337): the lead's e2e server and
 * `EVM_RPC_URL`/`DEVNET_EVM_PORT` on a local anvil both do.
 */

const signedInAs = (page: Page, address: string) => page.getByRole('link', { name: `Signed in as ${address}` });

test('an injected EIP-6963 wallet signs in; the session survives a reload; a wallet is saved with a label; sign out', async ({ page }) => {
  await installTestWallet(page);
  const scripts: string[] = [];
  page.on('response', async (r) => {
    if (r.url().endsWith('.js')) scripts.push(await r.text().catch(() => ''));
  });
  await page.goto('/');
  // Everything the first load asks for has arrived (no request for 500 ms), not a guessed pause.
  await page.waitForLoadState('networkidle');
  // The wallet code is not part of a signed-out visitor's first load.
  expect(scripts.some((s) => s.includes('eip6963:requestProvider'))).toBe(false);

  await page.getByRole('button', { name: 'Sign in' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign in with your wallet' });
  const wallet = dialog.getByRole('button', { name: 'Test Wallet' });
  await expect(wallet).toBeVisible();
  await expect(wallet.locator('img')).toHaveAttribute('src', /^data:image\/svg\+xml/);
  await wallet.click();
  await expect(signedInAs(page, alice.address)).toBeVisible();
  await expect(dialog).toBeHidden();

  await page.reload();
  await expect(signedInAs(page, alice.address)).toBeVisible();

  const saved = page.getByRole('region', { name: 'Saved wallets' });
  await saved.getByText('Save a wallet').click();
  await saved.getByLabel('Address').fill(bob.address.toLowerCase());
  await saved.getByLabel('Label').fill('Bob’s savings');
  await saved.getByLabel(/Note/).fill('met at the devnet meetup');
  await saved.getByRole('button', { name: 'Save' }).click();
  const list = saved.getByRole('list', { name: 'Saved wallets' });
  await expect(list.getByRole('link', { name: 'Bob’s savings' })).toHaveAttribute('href', `/wallet/${bob.address}`);
  await expect(list).toContainText('met at the devnet meetup');

  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Saved wallets' })).toHaveCount(0);
});

test('sign out on every device: a second browser holding the same session is signed out too', async ({ page, browser }) => {
  await installTestWallet(page);
  await page.goto('/');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Test Wallet' }).click();
  await expect(signedInAs(page, alice.address)).toBeVisible();
  // The "other device": another browser context carrying a copy of this session's cookie.
  const other = await browser.newContext();
  await other.addCookies((await page.context().cookies()).filter((c) => c.name === 'lantern_session'));
  const phone = await other.newPage();
  await phone.goto('/');
  await expect(signedInAs(phone, alice.address)).toBeVisible();

  await page.getByRole('region', { name: 'Your account' }).getByRole('button', { name: 'Sign out on every device' }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await phone.reload();
  await expect(phone.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(signedInAs(phone, alice.address)).toHaveCount(0);
  await other.close();
});

test('switching account in the wallet ends the session and asks to sign in again', async ({ page }) => {
  await installTestWallet(page);
  await page.goto('/');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Test Wallet' }).click();
  await expect(signedInAs(page, alice.address)).toBeVisible();
  // After a reload the wallet code reconnects in the background and watches the account.
  await page.reload();
  await expect(signedInAs(page, alice.address)).toBeVisible();
  // The wallet chunk loads after hydration and asks the wallet for its account (reconnect).
  await page.waitForFunction(() => (window as unknown as { __testWallet: { calls: string[] } }).__testWallet.calls.includes('eth_accounts'));
  await page.evaluate((address) => (window as unknown as { __testWallet: { switchAccount: (a: string) => void } }).__testWallet.switchAccount(address), bob.address);
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'switched to another account' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
});

test('the "Devnet account" signs in with no wallet installed', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Sign in' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign in with your wallet' });
  await dialog.getByLabel('Test account').selectOption({ label: 'carol 0x90F79bf6EB2c4f870365E785982E1f101E93b906' });
  await dialog.getByRole('button', { name: /Devnet account/ }).click();
  await expect(signedInAs(page, '0x90F79bf6EB2c4f870365E785982E1f101E93b906')).toBeVisible();
});

test('the devnet sign-in lists the scenario’s people by name, alice first and chosen, the deployer last', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Sign in' }).click();
  const picker = page.getByRole('dialog', { name: 'Sign in with your wallet' }).getByLabel('Test account');
  const options = picker.getByRole('option');
  await expect(options.first()).toHaveText('alice 0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
  await expect(options.nth(1)).toHaveText(/^bob /);
  await expect(options.last()).toHaveText(/^deployer /);
  await expect(picker).toHaveValue('1');
  await page.getByRole('dialog').getByRole('button', { name: /Devnet account/ }).click();
  await expect(signedInAs(page, '0x70997970C51812dc3A010C7d01b50e0d17dc79C8')).toBeVisible();
});

test('WalletConnect is offered only where the server has a project id, and fails clearly offline', async ({ page }, info) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Sign in' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('button', { name: /Devnet account|Test Wallet|Sign in with/ }).first()).toBeVisible();
  const wc = dialog.getByRole('button', { name: /WalletConnect/ });
  if (info.project.name !== 'hosted') {
    // Instance A has no WALLETCONNECT_PROJECT_ID.
    await expect(wc).toHaveCount(0);
    return;
  }
  await expect(wc).toBeVisible();
  await wc.click();
  // No relay is reachable from this machine: the person is told, no session is made, the page survives.
  await expect(dialog.getByRole('alert')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Sign out', exact: true })).toHaveCount(0);
});

const RPC = `http://127.0.0.1:${process.env.E2E_EVM_PORT}`; // chosen by playwright.config.ts

const rpc = rpcClient(RPC).call;

test('Save wallet on a wallet page: the label then names that counterparty on another wallet’s history rows', async ({ page }) => {
  // Sign in, two wallet pages, a save and a sign out, through both servers in the hosted project.
  test.setTimeout(90_000);
  // Dave, a small wallet of the seeded devnet; his counterparty in a plain ETH transfer, as the node says.
  const dave = '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65';
  await installTestWallet(page);
  await page.goto(`/wallet/${dave}?spam=true`);
  await expect(page.getByText('Sign in to save this wallet with a private label.')).toBeVisible();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Test Wallet' }).click();
  await expect(signedInAs(page, alice.address)).toBeVisible();
  await expect(page.locator('li[data-tx-hash]').first()).toBeVisible();
  let pick: { hash: string; counterparty: string } | undefined;
  for (const hash of await page.locator('li[data-tx-hash]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-tx-hash')!))) {
    const tx = await rpc<{ from: string; to: string | null; value: string; input: string }>('eth_getTransactionByHash', [hash]);
    if (tx.input !== '0x' || BigInt(tx.value) === 0n || !tx.to) continue;
    const counterparty = tx.from.toLowerCase() === dave.toLowerCase() ? tx.to : tx.from;
    // The test wallet's own accounts are saved by other tests; this one saves a wallet nobody else does.
    if ([alice.address, bob.address].some((a) => a.toLowerCase() === counterparty.toLowerCase())) continue;
    pick = { hash, counterparty };
    break;
  }
  expect(pick, 'a plain ETH transfer of dave').toBeDefined();
  const { hash, counterparty } = pick!;

  const label = `Dave’s counterparty ${Date.now().toString(36)}`;
  await page.goto(`/wallet/${counterparty}`);
  await page.getByRole('button', { name: 'Save wallet' }).click();
  const form = page.getByRole('form', { name: new RegExp(`Label for ${counterparty}`, 'i') });
  await form.getByLabel('Label').fill(label);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(`Saved as ${label}`)).toBeVisible();
  await page.reload();
  await expect(page.getByText(`Saved as ${label}`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Edit label' })).toBeVisible();

  await page.goto(`/wallet/${dave}?spam=true`);
  const cell = page.locator(`li[data-tx-hash="${hash}" i] [data-role="counterparty"]`);
  await expect(cell.getByRole('link', { name: new RegExp(`^${label}, ${counterparty}$`, 'i') })).toHaveText(label);
  await expect(cell.getByText('(saved)')).toBeVisible();
  // Signed out, the label is private: the same row shows what everyone sees (on the devnet, the scenario's
  // public name for the address, bob; else the address), never the saved label.
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await page.reload();
  const everyone = devnetLabel(31337, counterparty);
  await expect(cell.getByRole('link', { name: new RegExp(`^${everyone ? `${everyone}, ` : ''}${counterparty}$`, 'i') })).toBeVisible();
  await expect(cell).not.toContainText(label);

  // Deleted from the saved list, the wallet page offers Save wallet again (and the next run starts clean).
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Test Wallet' }).click();
  await expect(signedInAs(page, alice.address)).toBeVisible();
  await page.goto('/');
  const list = page.getByRole('region', { name: 'Saved wallets' }).getByRole('list', { name: 'Saved wallets' });
  await list.getByRole('button', { name: `Delete ${label}` }).click();
  await expect(list.getByRole('link', { name: label })).toHaveCount(0);
  await page.goto(`/wallet/${counterparty}`);
  await expect(page.getByRole('button', { name: 'Save wallet' })).toBeVisible();
});
