import { expect, test } from '@playwright/test';

test('the home page says what Lantern is and which sources it uses', async ({ page }, info) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Read any wallet');
  const sources = page.getByRole('table');
  await expect(sources).toContainText('Wallet history');
  await expect(sources).toContainText(info.project.name === 'hosted' ? 'Hosted data API' : 'Local EVM devnet (anvil)');
  await expect(sources).toContainText('Simulated local ledger');
  await expect(page.getByRole('main').getByRole('searchbox')).toBeVisible();
});

test('searching an address in lower case opens its checksummed wallet URL', async ({ page }) => {
  await page.goto('/');
  const search = page.getByRole('main').getByRole('searchbox');
  await search.fill('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266');
  await search.press('Enter');
  await expect(page).toHaveURL(/\/wallet\/0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266/);
});

test('searching a version from another page opens the ledger block', async ({ page }) => {
  await page.goto('/search?q=hello');
  const search = page.getByRole('banner').getByRole('searchbox');
  await search.fill('31900');
  await search.press('Enter');
  await expect(page).toHaveURL(/\/ledger\/local\/versions\/31900/);
});

test('searching nonsense says what a search can be', async ({ page }) => {
  await page.goto('/search?q=hello%20world');
  await expect(page.getByRole('main').getByRole('alert')).toContainText('not an EVM address');
});

test('a failed search keeps what was typed, so a typo is fixed rather than retyped', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('main').getByRole('searchbox').fill('0xf39fd6e51aad88f6f4ce6ab8827279cfffb9226'); // one hex short
  await page.getByRole('main').getByRole('searchbox').press('Enter');
  await expect(page.getByRole('main').getByRole('alert')).toContainText('not an EVM address');
  const again = page.getByRole('main').getByRole('searchbox');
  await expect(again).toHaveValue('0xf39fd6e51aad88f6f4ce6ab8827279cfffb9226');
  await expect(again).toHaveAccessibleDescription(/not an EVM address/);
  await again.press('End');
  await again.pressSequentially('6');
  await again.press('Enter');
  await expect(page).toHaveURL(/\/wallet\/0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266/);
});
