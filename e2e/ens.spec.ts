import { expect, test } from '@playwright/test';
import { getAddress, type Address, type Hex } from 'viem';
import { startEnsChain, tellEnsStory, type EnsChain, type EnsStory } from '../tests/support/ens-chain';
import { startLantern, type LanternInstance } from '../tests/support/lantern';

/**
 * ENS in the browser, against a local ENS (tests/support/ens-chain.ts: ENS's own registry, public
 * resolver and reverse registrar on an anvil that is chain 1, as in tests/integration/ens.test.ts). The
 * same node is the EVM node whose history is shown, so counterparties are accounts with or without names
 * there. Starts its own production server of the current build; runs once (playwright.config.ts).
 */

let ens: EnsChain;
let app: LanternInstance;
let alice: Address, bob: Address, mallory: Address, carol: Address;
let hashes: EnsStory['hashes'];

test.describe.configure({ mode: 'serial', timeout: 60_000 });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  ens = await startEnsChain();
  ({ alice, bob, mallory, carol, hashes } = await tellEnsStory(ens));
  // The local ledger is the e2e server's devnet (playwright.config.ts chose its port).
  app = await startLantern({ EVM_RPC_URL: ens.url, ENS_RPC_URL: ens.url, DEVNET_LEDGER_PORT: process.env.E2E_LEDGER_PORT });
});

test.afterAll(async () => {
  await app?.stop();
  await ens?.stop();
});

test('searching an ENS name opens the wallet it resolves to, whatever its letter case', async ({ page }) => {
  await page.goto(`${app.url}/`);
  const search = page.getByRole('main').getByRole('searchbox');
  await search.fill('bob.eth');
  await search.press('Enter');
  await expect(page).toHaveURL(`${app.url}/wallet/${getAddress(bob)}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(getAddress(bob));

  const again = page.getByRole('banner').getByRole('searchbox');
  await again.fill('Carol.ETH');
  await again.press('Enter');
  await expect(page).toHaveURL(`${app.url}/wallet/${getAddress(carol)}`);
});

test('searching a name nobody registered says it does not resolve', async ({ page }) => {
  await page.goto(`${app.url}/`);
  const search = page.getByRole('main').getByRole('searchbox');
  await search.fill('nobody.eth');
  await search.press('Enter');
  await expect(page.getByRole('main').getByRole('alert')).toContainText('nobody.eth does not resolve to an address.');
});

test('history rows name a counterparty by its primary name, only when that name resolves back to it', async ({ page }) => {
  const counterparty = (hash: Hex) => page.locator(`li[data-tx-hash="${hash}"] [data-role="counterparty"] a`);
  // Names a page could not wait for are looked up behind it and shown on a later view.
  await expect(async () => {
    await page.goto(`${app.url}/wallet/${getAddress(alice)}`);
    await expect(counterparty(hashes.bob!)).toHaveAccessibleName(`bob.eth, ${bob.toLowerCase()}`, { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await expect(counterparty(hashes.bob!)).toContainText('bob.eth');
  // Mallory's claim does not resolve back to her; Carol has no primary name: both shown as addresses.
  await expect(counterparty(hashes.mallory!)).toHaveAccessibleName(mallory.toLowerCase());
  await expect(counterparty(hashes.carol!)).toHaveAccessibleName(carol.toLowerCase());
  await expect(counterparty(hashes.mallory!)).not.toContainText('bob.eth');
});
