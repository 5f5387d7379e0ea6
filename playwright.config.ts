import { defineConfig, devices } from '@playwright/test';
import { chromiumArgs, chromiumPath } from './scripts/lib/chromium.mjs';
import { freePortsSync } from './scripts/lib/free-ports.mjs';

// Free ports unless E2E_* name them, so runs never collide with each other or with `npm run dev`.
// Written back to process.env: Playwright's workers inherit it (and so read the same ports when they
// load this file), the specs read them there, and the web server gets them below.
const PORT_VARS = ['E2E_PORT', 'E2E_HOSTED_PORT', 'E2E_EVM_PORT', 'E2E_EVM2_PORT', 'E2E_LEDGER_PORT', 'E2E_NFT_PORT'] as const;
const unset = PORT_VARS.filter((v) => !process.env[v]);
if (unset.length > 0 && !process.env.E2E_BASE_URL) {
  const ports = freePortsSync(unset.length);
  unset.forEach((v, i) => (process.env[v] = String(ports[i])));
}
// A Lantern a spec starts without naming its nodes reads the e2e devnets (tests/support/lantern.ts passes the environment on).
process.env.DEVNET_EVM_PORT ??= process.env.E2E_EVM_PORT;
process.env.DEVNET_EVM2_PORT ??= process.env.E2E_EVM2_PORT;
const port = Number(process.env.E2E_PORT);
const hostedPort = Number(process.env.E2E_HOSTED_PORT);
const baseURL = process.env.E2E_BASE_URL ?? `http://127.0.0.1:${port}`;
const hostedURL = `http://127.0.0.1:${hostedPort}`;
const launchOptions = { executablePath: chromiumPath(), args: chromiumArgs };

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: { baseURL, trace: 'retain-on-failure', screenshot: 'only-on-failure' },
  projects: [
    // Instance A: Lantern's own sources on the devnets (API_KEYS set, so pages live on page tokens).
    { name: 'node', use: { ...devices['Desktop Chrome'], launchOptions } },
    // Instance B: hosted mode whose hosted API is instance A. The same specs must pass through it.
    // Specs that bring their own server (wallet-hosted: a stub-backed hosted Lantern; ens: a local ENS;
    // ledger-recorded: a node of recorded mainnet blocks; session-expiry: two servers on one database;
    // live: an anvil it reorganises and a server it restarts; live-devnet2: a second devnet of its own
    // behind a recording proxy; rows-first: a node whose traces it holds back) run once, under `node`; so does the
    // newcomer's tour of the one site shell, which is the same in both modes; so does `npm run dev` itself
    // (dev-mode: its own devnets and next dev).
    ...(process.env.E2E_BASE_URL
      ? []
      : [{ name: 'hosted', testIgnore: /(wallet-hosted|ens|ledger-recorded|session-expiry|newcomer|live|live-devnet2|rows-first|dev-mode)\.spec\.ts/, use: { ...devices['Desktop Chrome'], launchOptions, baseURL: hostedURL } }]),
  ],
  // The devnets and a production server of the app, started and stopped by one script.
  webServer: process.env.E2E_BASE_URL
    ? undefined
    : {
        command: `node scripts/e2e-server.mjs`,
        // B starts after A and depends on it: B answering means both are up.
        url: `${hostedURL}/api/health`,
        env: Object.fromEntries(PORT_VARS.map((v) => [v, process.env[v]!])),
        timeout: 180_000,
        reuseExistingServer: false,
        gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
        stdout: 'pipe',
      },
});
