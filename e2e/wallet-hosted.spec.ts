import { expect, test, type Page } from '@playwright/test';
import { getAddress } from 'viem';
import { startLantern, type LanternInstance } from '../tests/support/lantern';
import { ITEMS, LIGHTS, PAGING_SIZE, STUB_KEY, W, startWalletFixtures, type WalletFixtures } from './wallet-fixtures';
import { THEMES, WIDTHS, expectAccessible, expectNoHorizontalScroll, keepScreenshot, rowHashes, setView } from './wallet-support';

/**
 * Wallet pages in hosted mode, against the hosted-API stub (tests/support/hosted-stub.ts) behind the
 * wallet fixtures. Starts its own production server of the current build, with API_KEYS set so the
 * browser's page-token path to the published API is exercised.
 */

let fx: WalletFixtures;
let app: LanternInstance;
const url = (path: string) => `${app.url}${path}`;
const cs = (a: string) => getAddress(a);

// The stub's synthetic transaction i of a wallet (see hosted-stub.ts).
const stubTx = (wallet: string, i: number) => ({
  hash: `0x${(i + 1).toString(16).padStart(8, '0')}${wallet.toLowerCase().slice(2, 58)}`,
  outgoing: i % 2 === 0,
  other: `0x${(0xc0ffee + i).toString(16).padStart(40, '0')}`,
  eth: `${(i + 1) / 1000}`,
});

test.describe.configure({ mode: 'serial', timeout: 60_000 });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  fx = await startWalletFixtures();
  app = await startLantern({
    DATA_API_KEY: STUB_KEY,
    DATA_API_URL: fx.url,
    NFT_IPFS_GATEWAY: `${fx.url}/ipfs`,
    API_KEYS: 'wallet-e2e-published-api-key',
    UPSTREAM_TIMEOUT_MS: '3000',
    // One stub plays both healthy and failing wallets (a real provider is down for everyone): its per-wallet
    // 5xx must not open the breaker for the whole stub.
    UPSTREAM_BREAKER_FAILURES: '1000',
  });
});

test.afterAll(async () => {
  await app?.stop();
  await fx?.close();
});

test('history rows show direction, counterparty and amount as the source has them', async ({ page }) => {
  await page.goto(url(`/wallet/${cs(W.plain)}`));
  await expect(page.getByRole('heading', { name: /Transactions/ })).toBeVisible();
  await expect(page.locator('li[data-tx-hash]')).toHaveCount(23);
  for (const i of [22, 21, 0]) {
    const t = stubTx(W.plain, i);
    const row = page.locator(`li[data-tx-hash="${t.hash}"]`);
    await expect(row.locator('[data-role="direction"]')).toHaveText(t.outgoing ? 'Sent' : 'Received');
    await expect(row).toHaveAttribute('data-counterparty', t.other);
    // The source's label (incoming) or entity (outgoing) names the counterparty.
    await expect(row.locator('[data-role="counterparty"]')).toContainText(t.outgoing ? 'Opensea' : 'Binance 14');
    await expect(row.locator('[data-role="amount"]')).toContainText(`${t.outgoing ? '−' : '+'}${t.eth} ETH`);
  }
  // The fee shows where this wallet paid it.
  await expect(page.locator(`li[data-tx-hash="${stubTx(W.plain, 22).hash}"] [data-role="fee"]`)).toContainText('0.0011025 ETH');
});

test('a row expands to its transfers, block and explorer link; age toggles to UTC', async ({ page }) => {
  await page.goto(url(`/wallet/${cs(W.plain)}`));
  const t = stubTx(W.plain, 22);
  const row = page.locator(`li[data-tx-hash="${t.hash}"]`);
  await row.getByRole('button', { name: /Show details/ }).click();
  await expect(row.getByRole('button', { name: /Hide details/ })).toHaveAttribute('aria-expanded', 'true');
  await expect(row).toContainText('Transfers (1)');
  await expect(row).toContainText('19,000,022');
  await expect(row.getByRole('link', { name: /View transaction on Ethereum/ })).toHaveAttribute('href', `https://etherscan.io/tx/${t.hash}`);

  await expect(row.locator('[data-role="time"]')).toContainText('ago');
  await page.getByRole('button', { name: 'UTC time' }).click();
  await expect(row.locator('[data-role="time"]')).toHaveText('2025-01-01 22:00:00 UTC');
  await expect(page).toHaveURL(/time=utc/);
});

test('paging to the end shows every transaction once; reload at page 3 returns page 3; newer goes back', async ({ page }) => {
  const apiCalls: string[] = [];
  // History pages read in the browser (the chain picker's active-chains read is another request).
  page.on('request', (r) => /\/api\/v2\.2\/wallets\/[^/]+\/history/.test(r.url()) && apiCalls.push(r.headers()['x-lantern-page-token'] ? 'token' : 'none'));
  await page.goto(url(`/wallet/${cs(W.paging)}`));
  const seen: string[][] = [];
  for (let p = 1; ; p++) {
    await expect(page.getByRole('heading', { name: new RegExp(`page ${p}\\b`) })).toBeVisible();
    await expect(page.locator('li[data-tx-hash]').first()).toBeVisible();
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    seen.push(await rowHashes(page));
    const older = page.getByRole('link', { name: 'Older →' });
    if ((await older.count()) === 0) break;
    await older.click();
  }
  const all = seen.flat();
  expect(seen.map((s) => s.length)).toEqual([25, 25, 10]);
  expect(new Set(all).size).toBe(PAGING_SIZE);
  expect(all).toEqual(Array.from({ length: PAGING_SIZE }, (_, k) => stubTx(W.paging, PAGING_SIZE - 1 - k).hash));
  await expect(page.getByText('End of history.')).toBeVisible();
  // Pages 2 and 3 came from the published API, with the page token (API_KEYS is set).
  expect(apiCalls).toEqual(['token', 'token']);

  await page.reload();
  await expect(page.getByRole('heading', { name: /page 3\b/ })).toBeVisible();
  expect(await rowHashes(page)).toEqual(seen[2]);

  await page.getByRole('link', { name: '← Newer' }).click();
  await expect(page.getByRole('heading', { name: /page 2\b/ })).toBeVisible();
  await expect.poll(() => rowHashes(page)).toEqual(seen[1]);
  await page.goBack();
  await expect(page.getByRole('heading', { name: /page 3\b/ })).toBeVisible();
  await page.getByRole('link', { name: 'Newest' }).click();
  await expect.poll(() => rowHashes(page)).toEqual(seen[0]);
});

test('the pager works from the keyboard with a visible focus ring', async ({ page }) => {
  await page.goto(url(`/wallet/${cs(W.paging)}`));
  const older = page.getByRole('link', { name: 'Older →' });
  await older.focus();
  // The ring of app/globals.css's :focus-visible (outline-2 outline-offset-2).
  const ring = await older.evaluate((el) => {
    const s = getComputedStyle(el);
    return [s.outlineStyle, s.outlineWidth, s.outlineOffset];
  });
  expect(ring).toEqual(['solid', '2px', '2px']);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: /page 2\b/ })).toBeVisible();
  await expect(page.getByRole('heading', { name: /page 2\b/ })).toBeFocused();
});

test('filters live in the URL: order ascending starts from the oldest', async ({ page }) => {
  await page.goto(url(`/wallet/${cs(W.paging)}`));
  await page.getByLabel('Order').selectOption('asc');
  await expect(page).toHaveURL(/order=asc/);
  await expect.poll(async () => (await rowHashes(page))[0]).toBe(stubTx(W.paging, 0).hash);
  await page.reload();
  expect((await rowHashes(page))[0]).toBe(stubTx(W.paging, 0).hash);
});

test('an empty wallet says why and suggests other chains', async ({ page }) => {
  await page.goto(url(`/wallet/${cs(W.empty)}`));
  await expect(page.getByRole('heading', { name: 'No transactions on Ethereum' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Polygon' })).toHaveAttribute('href', /chain=polygon/);
});

test('error states name the cause and never the key', async ({ page }) => {
  const cases = [
    { wallet: W.keyRejected, title: 'API key rejected', retry: false },
    { wallet: W.rateLimited, title: 'Rate limited', retry: true },
    { wallet: W.down, title: 'The data provider is down', retry: true },
  ];
  for (const c of cases) {
    await page.goto(url(`/wallet/${cs(c.wallet)}`));
    const alert = page.locator('[data-error-code]');
    await expect(alert.getByRole('heading', { name: c.title })).toBeVisible({ timeout: 20_000 });
    await expect(alert.getByRole('button', { name: 'Retry' })).toHaveCount(c.retry ? 1 : 0);
    expect(await page.content()).not.toContain(STUB_KEY);
  }
  await page.goto(url(`/wallet/${cs(W.plain)}?chain=nowhere`));
  await expect(page.locator('[data-error-code="invalid_parameter"]')).toContainText('unknown chain');
});

test('a lowercase address redirects to its checksummed URL; an invalid one is a 404 that explains', async ({ page, request }) => {
  const r = await request.get(url(`/wallet/${W.plain}/nfts?spam=true`), { maxRedirects: 0 });
  expect(r.status()).toBe(308);
  expect(r.headers().location).toBe(`/wallet/${cs(W.plain)}/nfts?spam=true`);
  const res = await page.goto(url('/wallet/0x12345'));
  expect(res?.status()).toBe(404);
  await expect(page.getByText('0x followed by 40 hexadecimal characters')).toBeVisible();
});

test('CSV export streams every row with the current filters', async ({ request }) => {
  const r = await request.get(url(`/wallet/${cs(W.paging)}/history.csv?order=asc`));
  expect(r.status()).toBe(200);
  expect(r.headers()['content-type']).toContain('text/csv');
  expect(r.headers()['content-disposition']).toContain('attachment');
  const lines = (await r.text()).trimEnd().split('\r\n');
  expect(lines[0]).toMatch(/^time_utc,date_utc,hash,block,status/);
  expect(lines).toHaveLength(PAGING_SIZE + 1);
  expect(lines[1]).toContain(stubTx(W.paging, 0).hash);
  expect(lines[1]).toContain(',sent,0x0000000000000000000000000000000000c0ffee,Opensea,0.001 ETH,,0.0011025,ETH,');
  expect(lines[2]).toContain(',received,');
});

test('NFT grid: images load, spam is hidden until toggled, filter by contract, token id in hex', async ({ page }) => {
  await page.goto(url(`/wallet/${cs(W.nfts)}/nfts`));
  const cards = page.locator('li[data-token-id]');
  await expect(cards).toHaveCount(4);
  await expect(page.locator('li[data-spam="true"]')).toHaveCount(0);
  // On-chain SVG (data:), an ipfs:// image through the configured gateway, a provider preview.
  for (const name of ['Light #1', 'Light #255', 'Lamp oil']) {
    const img = page.getByRole('img', { name });
    await expect(img).toBeVisible();
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
  }
  await expect(page.getByRole('img', { name: 'Light #255' })).toHaveAttribute('src', `${fx.url}/ipfs/QmLanternLightsFixture000000000000000000000000/255.png`);
  // A 404 image leaves a card with the name, not a broken-image icon.
  const broken = page.locator('li[data-token-id="7"]');
  await expect(broken.locator('[data-role="nft-fallback"]')).toHaveText('Broken Light');
  await expect(broken.locator('img')).toHaveCount(0);

  await page.getByLabel('Show possible spam').check();
  await expect(page).toHaveURL(/spam=true/);
  await expect(cards).toHaveCount(5);
  await expect(page.locator('li[data-spam="true"]')).toContainText('Possible spam');

  await page.locator(`li[data-contract="${ITEMS}"]`).getByRole('link', { name: 'Only this collection' }).click();
  await expect(page).toHaveURL(new RegExp(`contract=${ITEMS}`, 'i'));
  await expect(cards).toHaveCount(1);
  await page.getByRole('button', { name: /Remove filter/ }).click();
  await expect(cards).toHaveCount(5);

  await page.getByLabel('Filter by contract').fill(LIGHTS);
  await page.getByRole('button', { name: 'Add filter' }).click();
  await expect(cards).toHaveCount(3);
  await page.getByLabel('Token id').selectOption('hex');
  await expect(page.locator('li[data-token-id="0xff"]')).toBeVisible();
  await page.reload();
  await expect(cards).toHaveCount(3);
  await expect(page.locator('li[data-token-id="0xff"]')).toBeVisible();
});

test('hostile NFT metadata renders as safe cards', async ({ page }) => {
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto(url(`/wallet/${cs(W.hostile)}/nfts`));
  const grid = page.getByRole('list', { name: /NFTs, page 1/ });
  await expect(grid.locator('li[data-token-id]')).toHaveCount(5);
  // The 50 MB "image" is not an image: its card falls back to the name.
  await expect(page.locator('li[data-token-id="2"] [data-role="nft-fallback"]')).toHaveText('Fifty megabytes', { timeout: 20_000 });
  // Invalid JSON: collection name and id. javascript: image: no image at all.
  await expect(page.locator('li[data-token-id="3"] [data-role="nft-fallback"]')).toHaveText('Hostile Collection #3');
  await expect(page.locator('li[data-token-id="4"] img')).toHaveCount(0);
  // The name with markup is text.
  await expect(page.locator('li[data-token-id="1"] [data-role="nft-name"]')).toHaveText(`<img src=x onerror="window.__pwned='name'">`);

  // Every image and script the grid asked for has loaded or failed before looking for their effects.
  await page.waitForLoadState('networkidle');
  expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
  expect(dialogs).toEqual([]);
  expect(await grid.locator('script, iframe, object, embed, svg').count()).toBe(0);
  expect(await page.locator('a[href^="javascript:" i], a[href^="data:" i]').count()).toBe(0);
  const srcs = await grid.locator('img').evaluateAll((els) => els.map((e) => e.getAttribute('src') ?? ''));
  for (const s of srcs) expect(s).toMatch(/^(https?:\/\/|data:image\/(png|jpeg|gif|webp|svg\+xml))/);
  // Metadata URLs are loaded by the browser only: Lantern's server never fetched one.
  const agents = fx.mediaRequesters();
  expect(agents.length).toBeGreaterThan(0);
  for (const a of agents) expect(a).toMatch(/Chrome/);
});

test('the theme toggle is remembered and applied before paint', async ({ page }) => {
  await page.goto(url('/'));
  const toggle = page.getByRole('button', { name: /theme; switch to/ });
  await expect(toggle).toHaveAttribute('data-theme-choice', 'system');
  // A click before React has hydrated the toggle does nothing: click again until the first one takes.
  await expect(async () => {
    await toggle.click();
    await expect(toggle).not.toHaveAttribute('data-theme-choice', 'system', { timeout: 500 });
  }).toPass();
  await toggle.click();
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  await page.goto(url(`/wallet/${cs(W.plain)}`), { waitUntil: 'commit' });
  // Set by the inline script before any stylesheet or React runs. Just after the commit the new document
  // may have no <html> element yet: keep polling rather than fail on null.
  await page.waitForFunction(() => document.documentElement?.classList.contains('dark'));
  await toggle.click();
  await expect(page.locator('html')).not.toHaveClass(/\b(dark|light)\b/);
});

test('the home page lists recent searches', async ({ page }) => {
  await page.goto(url('/'));
  await expect(page.getByRole('heading', { name: 'Recent searches' })).toBeVisible();
  await page.getByRole('searchbox').fill(W.plain);
  await page.getByRole('searchbox').press('Enter');
  await expect(page).toHaveURL(new RegExp(`/wallet/${cs(W.plain)}$`));
  await page.goto(url('/'));
  await expect(page.getByRole('region', { name: 'Recent searches' }).getByRole('link')).toHaveCount(1);
});

const PAGES: { name: string; path: () => string; ready: (p: Page) => Promise<void> }[] = [
  { name: 'home', path: () => '/', ready: async (p) => void (await expect(p.getByRole('heading', { level: 1 })).toBeVisible()) },
  { name: 'history', path: () => `/wallet/${cs(W.paging)}`, ready: async (p) => void (await expect(p.locator('li[data-tx-hash]').first()).toBeVisible()) },
  {
    name: 'history-expanded',
    path: () => `/wallet/${cs(W.plain)}?time=utc`,
    ready: async (p) => {
      await p.locator('li[data-tx-hash]').first().getByRole('button', { name: /Show details/ }).click();
      await expect(p.getByText('Transfers (1)')).toBeVisible();
    },
  },
  { name: 'history-empty', path: () => `/wallet/${cs(W.empty)}`, ready: async (p) => void (await expect(p.getByText('No transactions on')).toBeVisible()) },
  { name: 'history-error', path: () => `/wallet/${cs(W.keyRejected)}`, ready: async (p) => void (await expect(p.locator('[data-error-code]')).toBeVisible()) },
  { name: 'nfts', path: () => `/wallet/${cs(W.nfts)}/nfts?spam=true`, ready: async (p) => void (await expect(p.locator('li[data-token-id]')).toHaveCount(5)) },
  { name: 'nfts-hostile', path: () => `/wallet/${cs(W.hostile)}/nfts`, ready: async (p) => void (await expect(p.locator('li[data-token-id]')).toHaveCount(5)) },
  { name: 'not-found', path: () => '/wallet/0xnope', ready: async (p) => void (await expect(p.getByRole('heading', { level: 1 })).toBeVisible()) },
  { name: 'search-problem', path: () => '/search?q=what', ready: async (p) => void (await expect(p.getByRole('alert').filter({ hasText: 'not an EVM address' })).toBeVisible()) },
];

for (const theme of THEMES) {
  for (const width of WIDTHS) {
    test(`every wallet page at ${width}px, ${theme}: no sideways scroll, axe passes`, async ({ page }, testInfo) => {
      test.setTimeout(120_000);
      await setView(page, width, theme);
      for (const p of PAGES) {
        await page.goto(url(p.path()));
        await p.ready(page);
        await expectNoHorizontalScroll(page);
        await expectAccessible(page);
        await keepScreenshot(page, testInfo, `${p.name}-${width}-${theme}`);
      }
    });
  }
}

// --- The toolbar's filters reach the hosted API (the page's own re-filtering would hide a dropped one).

/** The query of the last history request the hosted API received for `wallet`. */
function lastUpstreamHistory(wallet: string): Record<string, string> | undefined {
  const r = fx.stub.requests.filter((q) => q.path.toLowerCase() === `/api/v2.2/wallets/${wallet.toLowerCase()}/history`).at(-1);
  return r && Object.fromEntries(r.query);
}
const FILTER_WALLET = (n: number) => `0x00000000000000000000000000000000000000f${n}`;

test('toolbar: the chain select asks the hosted API for that chain and keeps it in the URL', async ({ page }) => {
  const w = FILTER_WALLET(1);
  await page.goto(url(`/wallet/${cs(w)}`));
  await expect(page.locator('li[data-tx-hash]')).toHaveCount(23);
  await page.getByLabel('Chain').selectOption('polygon');
  await expect(page).toHaveURL(new RegExp(`/wallet/${cs(w)}\\?chain=polygon$`));
  await expect.poll(() => lastUpstreamHistory(w)?.chain).toBe('0x89');
  await expect(page.locator('li[data-tx-hash]')).toHaveCount(23);
});

test('toolbar: a block range is sent upstream and shows exactly the blocks in it', async ({ page }) => {
  const w = FILTER_WALLET(2);
  await page.goto(url(`/wallet/${cs(w)}`));
  await page.getByText('Date or block range').click();
  const form = page.getByRole('form', { name: 'Date or block range' });
  await form.getByLabel('From block').fill('19000003');
  await form.getByLabel('To block').fill('19000005');
  await form.getByRole('button', { name: 'Apply range' }).click();
  await expect(page).toHaveURL(/from_block=19000003/);
  await expect(page).toHaveURL(/to_block=19000005/);
  await expect.poll(() => rowHashes(page)).toEqual([5, 4, 3].map((i) => stubTx(w, i).hash));
  expect(lastUpstreamHistory(w)).toMatchObject({ from_block: '19000003', to_block: '19000005' });
  await expect(page.getByText('Date or block range (set)')).toBeVisible();
  await form.getByRole('button', { name: 'Clear' }).click();
  await expect(page).toHaveURL(new RegExp(`/wallet/${cs(w)}$`));
  await expect(page.locator('li[data-tx-hash]')).toHaveCount(23);
});

test('toolbar: a date range is sent upstream as ISO instants, the to-date’s whole day included', async ({ page }) => {
  const w = FILTER_WALLET(3);
  await page.goto(url(`/wallet/${cs(w)}`));
  await page.getByText('Date or block range').click();
  const form = page.getByRole('form', { name: 'Date or block range' });
  await form.getByLabel('From date (UTC)').fill('2025-01-01');
  await form.getByLabel('To date (UTC)').fill('2025-01-01');
  await form.getByRole('button', { name: 'Apply range' }).click();
  await expect(page).toHaveURL(/from_date=2025-01-01/);
  await expect(page).toHaveURL(/to_date=2025-01-01/);
  await expect.poll(() => lastUpstreamHistory(w)?.from_date).toBe('2025-01-01T00:00:00.000Z');
  expect(lastUpstreamHistory(w)?.to_date).toBe('2025-01-01T23:59:59.999Z');
  // The stub's transactions are an hour apart from 2025-01-01T00:00Z: all 23 fall on the 1st.
  await expect(page.locator('li[data-tx-hash]')).toHaveCount(23);
  const csv = await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
  expect(new URL(csv!, app.url).searchParams.get('to_date')).toBe('2025-01-01');
  const r = await page.request.get(url(csv!));
  expect(r.status()).toBe(200);
  expect((await r.text()).trimEnd().split('\r\n')).toHaveLength(1 + 23);
  expect(lastUpstreamHistory(w)?.to_date).toBe('2025-01-01T23:59:59.999Z');
});

test('toolbar: the internal-transactions toggle asks the hosted API for them', async ({ page }) => {
  const w = FILTER_WALLET(4);
  await page.goto(url(`/wallet/${cs(w)}`));
  await expect.poll(() => lastUpstreamHistory(w)?.include_internal_transactions).toBe('false');
  await page.getByLabel('Internal transactions').check();
  await expect(page).toHaveURL(/internal=true/);
  await expect.poll(() => lastUpstreamHistory(w)?.include_internal_transactions).toBe('true');
  await page.getByLabel('Internal transactions').uncheck();
  await expect(page).toHaveURL(new RegExp(`/wallet/${cs(w)}$`));
});

test('CSV with filters: the download link carries them, and every row of the range is in the file', async ({ page, request }) => {
  const w = FILTER_WALLET(5);
  await page.goto(url(`/wallet/${cs(w)}?from_block=19000010&to_block=19000019&order=asc`));
  const href = await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
  expect(href).toMatch(new RegExp(`^/wallet/${cs(w)}/history\\.csv\\?`));
  expect(new URL(href!, app.url).searchParams.get('from_block')).toBe('19000010');
  const r = await request.get(url(href!));
  expect(r.status()).toBe(200);
  const lines = (await r.text()).trimEnd().split('\r\n');
  expect(lines).toHaveLength(11);
  expect(lines.slice(1).map((l) => l.split(',')[2])).toEqual(Array.from({ length: 10 }, (_, k) => stubTx(w, 10 + k).hash));
  expect(lastUpstreamHistory(w)).toMatchObject({ from_block: '19000010', to_block: '19000019', order: 'ASC' });
});

test('NFTs: while the source is still syncing the wallet, the page says SYNCING', async ({ page }) => {
  const w = FILTER_WALLET(6);
  fx.stub.setNftStatus(w, 'SYNCING');
  await page.goto(url(`/wallet/${cs(w)}/nfts`));
  await expect(page.getByRole('status').filter({ hasText: 'SYNCING' })).toHaveText(
    'SYNCING: the source is still reading this wallet’s NFTs. What is known so far is shown; this page updates by itself.',
  );
  // The source finishes: the page refreshes itself (every 4 s) and the banner goes, no reload needed.
  const asked = fx.stub.requests.length;
  fx.stub.setNftStatus(w, 'SYNCED');
  await expect.poll(() => fx.stub.requests.length, { timeout: 20_000 }).toBeGreaterThan(asked);
  await expect(page.locator('[data-status="SYNCING"]')).toHaveCount(0, { timeout: 20_000 });
});
