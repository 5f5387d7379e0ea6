import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BIG_BLOCK, createChain } from '../devnet/ledger/chain.mjs';
import { startLedgerDevnet } from '../devnet/ledger/index.mjs';
import { chromiumArgs, chromiumPath } from '../scripts/lib/chromium.mjs';
import { median } from './stats.mjs';

/**
 * Ledger figures: block lookup p50 through Lantern's API on the local ledger, cold (first request for
 * a block: upstream fetch, validation, caching) and warm (answered from Lantern's cache), and the time
 * headless Chromium takes to show the 2,000-transaction block with the searched row on screen.
 * `baseUrl`: a running Lantern whose `local` network is `ledgerUrl` (the devnet of ./devnet/ledger).
 */
export async function benchLedger({ baseUrl, ledgerUrl, samples = 40, log = console.log }) {
  const info = await (await fetch(ledgerUrl)).json();
  const oldest = Number(info.oldest_ledger_version);
  const head = Number(info.ledger_version);
  // Evenly spaced versions: distinct blocks, none fetched through Lantern before (cold).
  const versions = Array.from({ length: samples }, (_, i) => Math.floor(oldest + ((head - oldest) * (i + 0.5)) / samples));
  const time = async (url) => {
    const t = performance.now();
    const res = await fetch(url);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url} -> ${res.status}`);
    return performance.now() - t;
  };
  const api = (v) => `${baseUrl}/api/ledger/local/blocks/by_version/${v}?with_transactions=true`;
  const cold = [];
  for (const v of versions) cold.push(await time(api(v)));
  const warm = [];
  for (let round = 0; round < 5; round++) for (const v of versions) warm.push(await time(api(v)));

  // The 2,000-transaction block in Chromium: navigation start to the searched row being visible.
  const chain = createChain();
  const bigVersion = chain.firstVersionOf(BIG_BLOCK) + 1500;
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs });
  const render = [];
  try {
    for (let i = 0; i < 4; i++) {
      const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
      const t = performance.now();
      await page.goto(`${baseUrl}/ledger/local/versions/${bigVersion}`);
      await page.getByTestId('tx-searched').waitFor({ state: 'visible' });
      await page.waitForFunction(() => {
        const el = document.querySelector('[data-testid="tx-searched"]');
        const r = el?.getBoundingClientRect();
        return !!r && r.top >= 0 && r.bottom <= window.innerHeight;
      });
      render.push(performance.now() - t);
      await page.close();
    }
  } finally {
    await browser.close();
  }

  const figures = {
    blockLookupColdP50Ms: median(cold),
    blockLookupWarmP50Ms: median(warm),
    render2000FirstMs: render[0], // includes the server's first fetch of the block
    render2000WarmP50Ms: median(render.slice(1)),
  };
  log(`ledger: block lookup p50 cold ${fmt(figures.blockLookupColdP50Ms)} ms, warm ${fmt(figures.blockLookupWarmP50Ms)} ms (${samples} blocks)`);
  log(`ledger: 2,002-transaction block rendered in Chromium: first ${fmt(figures.render2000FirstMs)} ms, warm p50 ${fmt(figures.render2000WarmP50Ms)} ms`);
  return figures;
}

const fmt = (n) => n.toFixed(1);

// `node bench/ledger.mjs`: starts the devnet and a production server of the last build, measures, stops.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.env.BENCH_PORT ?? 3390);
  const devnet = await startLedgerDevnet({ port: Number(process.env.BENCH_LEDGER_PORT ?? 38090) });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lantern-bench-'));
  const server = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-p', String(port), '-H', '127.0.0.1'], {
    stdio: 'ignore',
    env: {
      ...process.env,
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      DATA_API_KEY: '',
      DATA_DIR: dataDir,
      LEDGER_API_URL_LOCAL: devnet.url,
      SESSION_SECRET: 'bench-session-secret-0123456789abcdef0123',
      RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'warn',
    },
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${baseUrl}/api/health`)).status < 500) break;
      } catch {
        if (i > 200) throw new Error('next start did not come up (run `npm run build` first)');
      }
      await new Promise((r) => setTimeout(r, 150));
    }
    await benchLedger({ baseUrl, ledgerUrl: devnet.url });
  } finally {
    server.kill('SIGTERM');
    await devnet.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
