import { expect, test, type Page } from '@playwright/test';
import { freshDatabase, requireServices } from '../tests/support/services';
import { startLantern, type LanternInstance } from '../tests/support/lantern';
import { alice, installTestWallet } from './test-wallet';

/**
 * A session ends at its sign-in message's Expiration Time (a week after sign-in), in the browser. Two
 * production servers share one fresh PostgreSQL database and the session secret: `now` on the wall
 * clock, `later` a week and 90 s ahead (LANTERN_TEST_CLOCK_OFFSET_MS), so the browser meets the
 * session's end without waiting for it. Both are on 127.0.0.1, where a cookie is the host's whatever
 * the port: the session signed in on `now` reaches `later`. Runs once (playwright.config.ts).
 */

const SESSION_MS = 7 * 24 * 3600_000;
let db: Awaited<ReturnType<typeof freshDatabase>>;
let now: LanternInstance;
let later: LanternInstance;

test.describe.configure({ mode: 'serial', timeout: 60_000 });

// Under CI a missing PostgreSQL is a failure saying what to start; elsewhere the spec is skipped, saying so.
const available = await requireServices(['postgres'], 'the session-expiry browser test');
test.skip(!available, 'PostgreSQL is not running on 127.0.0.1 (see the warning above)');

test.beforeAll(async () => {
  test.setTimeout(180_000);
  db = await freshDatabase();
  // The EVM node is the e2e server's devnet (chain 31337, the test wallet's chain).
  const env = { DATABASE_URL: db.url, DEVNET_EVM_PORT: process.env.E2E_EVM_PORT, DEVNET_LEDGER_PORT: process.env.E2E_LEDGER_PORT };
  now = await startLantern(env);
  later = await startLantern({ ...env, LANTERN_TEST_CLOCK_OFFSET_MS: String(SESSION_MS + 90_000) });
});

test.afterAll(async () => {
  await Promise.allSettled([now?.stop(), later?.stop()]);
  await db?.drop();
});

const signedInAs = (page: Page, address: string) => page.getByRole('link', { name: `Signed in as ${address}` });

test('a page sign-in ends at its Expiration Time: signed out a week on, still signed in before it', async ({ page }) => {
  await installTestWallet(page);
  await page.goto(`${now.url}/`);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('dialog', { name: 'Sign in with your wallet' }).getByRole('button', { name: 'Test Wallet' }).click();
  await expect(signedInAs(page, alice.address)).toBeVisible();
  const session = (await page.context().cookies(now.url)).find((c) => c.name === 'lantern_session');
  expect(session?.httpOnly).toBe(true);

  // A week and 90 s on: the same browser, the same cookie, and the page says signed out.
  await page.goto(`${later.url}/`);
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(signedInAs(page, alice.address)).toHaveCount(0);

  // Ended by time, not revoked: where the clock is now, the session is still there.
  await page.goto(`${now.url}/`);
  await expect(signedInAs(page, alice.address)).toBeVisible();
});
