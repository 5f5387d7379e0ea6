import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';

/**
 * What a newcomer meets: every kind of page inside the one site shell, at phone and desktop widths, in
 * light and dark, with no console error, no failed request, no sideways scroll and no serious axe
 * finding; and a devnet home whose every link lands on a page with data. Screenshots of each page go to
 * test-results/newcomer/ (the note of the newcomer issue points at them).
 */
const ALICE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const BOB = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const AIRDROP = '0x1fa8c7e71204848d8477f219f038b8328490cff7b5d0bd3e4f85ad35c64b73f5'; // the first spam airdrop

// [name, path, the document's own status]
const PAGES: [string, string, number][] = [
  ['home', '/', 200],
  ['wallet', `/wallet/${ALICE}`, 200],
  ['nfts', `/wallet/${BOB}/nfts`, 200],
  ['ledger', '/ledger/local/versions/31813', 200],
  ['ledger-pruned', '/ledger/local/versions/5', 200],
  ['tx', `/tx/${AIRDROP}?chain=devnet`, 200],
  ['wallet-error', `/wallet/${ALICE}?chain=not-a-chain`, 200],
  ['search-nothing', '/search?q=not-a-thing', 200],
  ['wallet-invalid', '/wallet/0x123', 404],
  ['not-found', '/no-such-page', 404],
];

const SHOTS = 'test-results/newcomer';
mkdirSync(SHOTS, { recursive: true });

// The shell is the same in hosted mode: the node project covers it (playwright.config.ts leaves this
// file out of the hosted project, so nothing here is counted as skipped).

/** Console errors and failed requests while `run` goes on; a document answering its expected status is not a failure. */
async function watch(page: Page, expectedDocStatus: number, run: () => Promise<void>) {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    if (expectedDocStatus === 404 && /status of 404/.test(m.text())) return;
    problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`failed: ${r.url()} ${r.failure()?.errorText}`));
  // Links are not prefetched (components/ui/link.tsx): a page in view costs the server no render per link.
  page.on('request', (r) => {
    if (r.headers()['next-router-prefetch']) problems.push(`prefetched: ${r.url()}`);
  });
  page.on('response', (r) => {
    const doc = r.request().resourceType() === 'document';
    if (r.status() >= 400 && !(doc && r.status() === expectedDocStatus)) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  await run();
  expect(problems).toEqual([]);
}

for (const [name, path, status] of PAGES) {
  for (const width of [375, 1280]) {
    for (const scheme of ['light', 'dark'] as const) {
      test(`${name} at ${width}px, ${scheme}: the shell, no errors, no sideways scroll, axe clean`, async ({ page }) => {
        // axe over the 2,002-row block and a full-page screenshot take a while on a busy 2-core machine.
        test.setTimeout(90_000);
        await page.setViewportSize({ width, height: 900 });
        await page.emulateMedia({ colorScheme: scheme });
        await watch(page, status, async () => {
          const res = await page.goto(path);
          expect(res?.status()).toBe(status);
          await expect(page.getByRole('banner').getByRole('link', { name: 'Lantern, home' })).toBeVisible();
          await expect(page.getByRole('banner').getByRole('button', { name: /theme/i })).toBeVisible();
          await expect(page.getByRole('banner').getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
          await expect(page.getByRole('searchbox').first()).toBeVisible();
          await expect(page.getByRole('contentinfo')).toContainText('Answers come from');
          await page.waitForLoadState('networkidle');
          await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
          const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          expect(sideways, 'horizontal scroll in px').toBe(0);
          const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
          const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
          expect(serious).toEqual([]);
          await page.screenshot({ path: `${SHOTS}/${name}-${width}-${scheme}.png`, fullPage: width === 1280 });
        });
      });
    }
  }
}

test('from the devnet home, every listed wallet and ledger version opens a page with data', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto('/');
  // The devnet's live driver is `npm run dev`'s (dev-mode.spec.ts): a production server offers no switch.
  await expect(page.getByTestId('devnet-driver')).toHaveCount(0);
  const wallets = page.getByRole('region', { name: /devnets’ story/ }).or(page.locator('section[aria-labelledby="devnet-showcase"]'));
  const links = await wallets.getByRole('link').evaluateAll((as) => as.map((a) => ({ text: a.textContent ?? '', href: a.getAttribute('href') ?? '' })));
  expect(links.filter((l) => l.href.startsWith('/wallet/')).length).toBeGreaterThanOrEqual(8);
  expect(links.filter((l) => l.href.startsWith('/ledger/')).length).toBe(5);
  for (const link of links) {
    await page.goto('/');
    await page.getByRole('link', { name: link.text, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${link.href.replace(/[?]/g, '\\?')}$`));
    // The second devnet's wallets are linked with `?chain=devnet2`: the page kind is the path's.
    if (new URL(link.href, 'http://lantern.test').pathname.endsWith('/nfts')) {
      // A never-seen wallet's NFTs are indexed in the background: the page says SYNCING and updates itself
      // every 4 s until they are there; a loaded machine needs a few rounds.
      await expect(page.locator('[data-role="nft-name"]').first()).toBeVisible({ timeout: 30_000 });
    } else if (link.href.startsWith('/wallet/')) {
      await expect(page.getByTestId('wallet-address')).toBeVisible();
      // A never-seen wallet's first page waits for its index to be built: seconds on a loaded machine.
      await expect(page.locator('li[data-tx-hash]').first()).toBeVisible({ timeout: 30_000 });
    } else if (link.text.startsWith('Pruned')) {
      await expect(page.getByTestId('ledger-error-pruned')).toBeVisible();
    } else {
      await expect(page.getByTestId('block-height')).toBeVisible({ timeout: 30_000 }); // the 10,000-transaction block takes a while
      await expect(page.getByTestId('block-count')).toBeVisible();
    }
  }
});
