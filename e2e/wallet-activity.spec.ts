import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { THEMES, WIDTHS, expectAccessible, expectNoHorizontalScroll, keepScreenshot, setView } from './wallet-support';

/**
 * The wallet page's Activity tab on the seeded devnet: its table of transactions per month equals what
 * the published history API answers for the same wallet, counted here page by page; both charts are
 * drawn, with a table behind each, at phone and desktop widths in both themes, axe clean.
 */

const SCENARIO = path.resolve('devnet/evm/scenario.json');
const alice = (): { checksumAddress: string } => JSON.parse(readFileSync(SCENARIO, 'utf8')).accounts.alice;

test.describe.configure({ timeout: 120_000 });

// Server A's published API wants a key (scripts/e2e-server.mjs E2E_API_KEY); B's is open and ignores it.
const API_KEY = 'e2e-api-key-0123456789abcdef';

/** Transactions per UTC month (`YYYY-MM`) as the published API lists them, every page read. */
async function apiMonthCounts(request: APIRequestContext, address: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  let cursor = '';
  let pages = 0;
  do {
    const res = await request.get(`/api/v2.2/wallets/${address}/history?chain=devnet&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers: { 'x-api-key': API_KEY } });
    expect(res.status()).toBe(200);
    const body = (await res.json()) as { cursor: string; result: { block_timestamp: string }[] };
    for (const tx of body.result) {
      const month = new Date(tx.block_timestamp).toISOString().slice(0, 7);
      counts[month] = (counts[month] ?? 0) + 1;
    }
    cursor = body.cursor;
  } while (cursor && ++pages < 50);
  return counts;
}

/** The Activity table's months that have transactions, as `{month: count}`. */
async function shownMonthCounts(page: Page): Promise<Record<string, number>> {
  const rows = await page.locator('table[data-activity-table="months"] tr[data-month]').evaluateAll((els) => els.map((e) => [e.getAttribute('data-month')!, Number(e.getAttribute('data-count'))] as const));
  // The table also lists quiet months between busy ones (as 0); the API has no row for those.
  return Object.fromEntries(rows.filter(([, n]) => n > 0));
}

test("alice's Activity tab counts per month what the published history API lists, and draws both charts with a table behind each", async ({ page, request }) => {
  const address = alice().checksumAddress;
  await page.goto(`/wallet/${address}/activity?chain=devnet`);
  await expect(page.getByRole('link', { name: 'Activity' })).toHaveAttribute('aria-current', 'page');
  const months = page.getByRole('table', { name: /Transactions per month/ });
  await expect(months).toBeVisible();
  // The devnet may have mined for alice between the two reads: compare again after a reload until they agree.
  await expect(async () => {
    const api = await apiMonthCounts(request, address);
    await page.reload();
    const shown = await shownMonthCounts(page);
    expect(Object.keys(api).length).toBeGreaterThan(0);
    expect(shown).toEqual(api);
    // The per-category table counts the same transactions.
    const perCategory = await page.locator('table[data-activity-table="categories"] tr[data-category]').evaluateAll((els) => els.reduce((n, e) => n + Number(e.getAttribute('data-count')), 0));
    expect(perCategory).toBe(Object.values(api).reduce((n, c) => n + c, 0));
  }).toPass({ timeout: 60_000 });

  await expect(page.getByRole('table', { name: /Transactions per category/ })).toBeVisible();
  await expect(page.getByRole('table', { name: /balance at the end of each month/ })).toBeVisible();
  await expect(page.getByText(/Reconstructed from the transactions read/)).toBeVisible();
  await expect(page.locator('[data-activity-scope]')).toContainText('transactions Lantern has read');
  // The charts are pictures of the tables: hidden from screen readers, which read the tables.
  for (const chart of ['months', 'balance']) await expect(page.locator(`svg[data-chart="${chart}"]`)).toHaveAttribute('aria-hidden', 'true');
  const bars = await page.locator('svg[data-chart="months"] rect').count();
  expect(bars).toBe(await page.locator('table[data-activity-table="months"] tr[data-month]').count());
});

test('the Activity tab at 375 and 1280 px, in both themes: no sideways scroll, axe clean', async ({ page }, testInfo) => {
  const address = alice().checksumAddress;
  for (const width of WIDTHS) {
    for (const theme of THEMES) {
      await setView(page, width, theme);
      await page.goto(`/wallet/${address}/activity?chain=devnet`);
      await expect(page.getByRole('table', { name: /Transactions per month/ })).toBeVisible();
      await expectNoHorizontalScroll(page);
      await expectAccessible(page);
      await keepScreenshot(page, testInfo, `activity-${width}-${theme}`);
    }
  }
});
