// Wallet page figures: JavaScript a browser downloads to first show /wallet/{address} (gzip), server
// time to first byte (warm p50), and Largest Contentful Paint in headless Chromium.
// Usage: node bench/wallet-page.mjs <baseUrl> <address>   (or import { benchWalletPage })
import { gzipSync } from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { chromium } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../scripts/lib/chromium.mjs';

const TARGETS = { jsGzipBytes: 150 * 1024, ttfbP50Ms: 100, lcpMs: 1500 };
// Wallet-connection code must load only when a person asks to connect.
const WALLET_MARKERS = [/eip6963:requestProvider/, /walletconnect/i, /wagmi/i, /eth_requestAccounts/];

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function ttfb(url) {
  const t0 = performance.now();
  const res = await fetch(url, { redirect: 'manual' });
  const t = performance.now() - t0;
  await res.arrayBuffer();
  if (res.status >= 400) throw new Error(`${url} answered ${res.status}`);
  return t;
}

/**
 * @param {{ baseUrl: string, address: string, runs?: number }} opts
 * @returns {Promise<{ jsGzipBytes: number, jsFiles: number, walletCodeInFirstLoad: string[], ttfbP50Ms: number, ttfbP95Ms: number, lcpMs: number | null, targets: typeof TARGETS }>}
 */
export async function benchWalletPage({ baseUrl, address, runs = 30 }) {
  const url = `${baseUrl.replace(/\/+$/, '')}/wallet/${address}`;

  // Warm the server (compilation caches, upstream connections), then time the document.
  for (let i = 0; i < 3; i++) await ttfb(url);
  const times = [];
  for (let i = 0; i < runs; i++) times.push(await ttfb(url));
  times.sort((a, b) => a - b);

  const browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const scripts = new Map();
    page.on('response', async (res) => {
      if (res.request().resourceType() !== 'script') return;
      try {
        scripts.set(res.url(), await res.body());
      } catch {
        // redirected or aborted
      }
    });
    await page.goto(url, { waitUntil: 'networkidle' });
    const lcpMs = await page.evaluate(
      () =>
        new Promise((resolve) => {
          let last = null;
          new PerformanceObserver((list) => {
            for (const e of list.getEntries()) last = e.startTime;
          }).observe({ type: 'largest-contentful-paint', buffered: true });
          setTimeout(() => resolve(last), 300);
        }),
    );
    let jsGzipBytes = 0;
    const walletCodeInFirstLoad = [];
    for (const [src, body] of scripts) {
      jsGzipBytes += gzipSync(body, { level: 9 }).length;
      const text = body.toString('utf8');
      for (const m of WALLET_MARKERS) if (m.test(text)) walletCodeInFirstLoad.push(`${new URL(src).pathname} matches ${m}`);
    }
    return {
      jsGzipBytes,
      jsFiles: scripts.size,
      walletCodeInFirstLoad,
      ttfbP50Ms: Math.round(percentile(times, 50) * 10) / 10,
      ttfbP95Ms: Math.round(percentile(times, 95) * 10) / 10,
      lcpMs: lcpMs === null ? null : Math.round(lcpMs),
      targets: TARGETS,
    };
  } finally {
    await browser.close();
  }
}

export function printWalletPageFigures(r) {
  const ok = (v, t) => (v !== null && v <= t ? 'ok' : 'OVER');
  console.log('wallet page /wallet/{address}');
  console.log(`  JS to first show (gzip): ${(r.jsGzipBytes / 1024).toFixed(1)} kB in ${r.jsFiles} files  (target <= 150 kB: ${ok(r.jsGzipBytes, r.targets.jsGzipBytes)})`);
  console.log(`  wallet-connection code in first load: ${r.walletCodeInFirstLoad.length ? r.walletCodeInFirstLoad.join('; ') : 'none'}`);
  console.log(`  TTFB warm: p50 ${r.ttfbP50Ms} ms, p95 ${r.ttfbP95Ms} ms  (target p50 <= 100 ms: ${ok(r.ttfbP50Ms, r.targets.ttfbP50Ms)})`);
  console.log(`  LCP headless Chromium: ${r.lcpMs ?? 'n/a'} ms  (target <= 1500 ms: ${ok(r.lcpMs, r.targets.lcpMs)})`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [baseUrl = 'http://127.0.0.1:3000', address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'] = process.argv.slice(2);
  printWalletPageFigures(await benchWalletPage({ baseUrl, address }));
}
