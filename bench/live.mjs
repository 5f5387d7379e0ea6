// Live pages (issue 24): how long after a block is mined its row shows on an open wallet page in
// Chromium, beside the floor of the node's own newHeads notification to a bare WebSocket subscriber,
// measured on the same transactions; then 1,000 open streams on one instance: the server's memory per
// stream, the followers it keeps (one per chain, whatever the number of streams) and how long one new
// transaction takes to reach all of them.
// Usage: node bench/live.mjs   (after `npm run build`; or import { benchLive })
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { chromium } from '@playwright/test';
import { createPublicClient, webSocket } from 'viem';
import { chromiumArgs, chromiumPath } from '../scripts/lib/chromium.mjs';
import { freePort, startServer, untilReady } from './server.mjs';
import { pct as percentile } from './stats.mjs';

const pct = (xs, p) => Math.round(percentile(xs, p));

const TARGETS = { minedToVisibleP95Ms: 1000 };
const TXS = 20;
const STREAMS = 1000;
const WALLETS = 100; // the streams watch this many distinct wallets, ten streams each


async function rpc(url, method, params = []) {
  const body = await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })).json();
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

const rssKb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);

/** An SSE stream held open with a bare HTTP request; counts `tx` events. */
function openStream(url) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, headers: { accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`${url} answered ${res.statusCode}`));
      const s = { txs: 0, waiters: [], close: () => req.destroy() };
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        buf += chunk;
        let i;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const frame = buf.slice(0, i);
          buf = buf.slice(i + 2);
          if (/^event: tx$/m.test(frame)) {
            s.txs++;
            for (const w of s.waiters.splice(0)) w();
          }
        }
      });
      res.on('error', () => {});
      resolve(s);
    });
    req.on('error', reject);
  });
}

/**
 * @param {{ evmPort: number, ledgerPort: number, rpcUrl: string, manifest: { accounts: Record<string, { address: string, checksumAddress: string }> } }} o
 */
export async function benchLive({ evmPort, ledgerPort, rpcUrl, manifest }) {
  const server = await startServer(await freePort(), {
    DEVNET_EVM_PORT: String(evmPort),
    DEVNET_LEDGER_PORT: String(ledgerPort),
    LIVE_STREAMS_PER_IP: String(STREAMS + 100),
  });
  // The server listens at once and warms up behind it: measure a warm server, as a person meets one.
  await untilReady(server.url);
  const wallet = manifest.accounts.erin.checksumAddress;
  const payer = manifest.accounts.deployer.address;
  const heads = new Map(); // block hash -> when the node's own notification arrived
  const node = createPublicClient({ transport: webSocket(rpcUrl.replace(/^http/, 'ws')) });
  const unwatch = node.watchBlocks({ onBlock: (b) => heads.set(b.hash, performance.timeOrigin + performance.now()), emitOnBegin: false });
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs });
  try {
    // 1. Mined to visible, each transaction on its own, the page open and live.
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(`${server.url}/wallet/${wallet}?chain=devnet`, { timeout: 120_000 });
    await page.locator('[data-testid="live-state"][data-state="open"]').waitFor({ timeout: 60_000 });
    await page.evaluate(() => {
      const seen = (window.__seen = {});
      const mark = () => {
        for (const li of document.querySelectorAll('li[data-tx-hash]')) seen[li.getAttribute('data-tx-hash').toLowerCase()] ??= performance.timeOrigin + performance.now();
      };
      mark();
      new MutationObserver(mark).observe(document.body, { childList: true, subtree: true });
    });
    const floor = [];
    const visible = [];
    for (let i = 0; i < TXS; i++) {
      const sendAt = performance.timeOrigin + performance.now();
      const hash = await rpc(rpcUrl, 'eth_sendTransaction', [{ from: payer, to: wallet, value: `0x${(10n ** 15n + BigInt(i)).toString(16)}` }]);
      let receipt = null;
      while (!(receipt = await rpc(rpcUrl, 'eth_getTransactionReceipt', [hash]))) await new Promise((r) => setTimeout(r, 5));
      await page.waitForFunction((h) => window.__seen[h] !== undefined, hash.toLowerCase(), { timeout: 30_000, polling: 50 });
      const shownAt = await page.evaluate((h) => window.__seen[h], hash.toLowerCase());
      for (let t = 0; t < 200 && !heads.has(receipt.blockHash); t++) await new Promise((r) => setTimeout(r, 10));
      const minedAt = heads.get(receipt.blockHash);
      if (minedAt === undefined) throw new Error(`the node announced no head for ${hash}`);
      visible.push(shownAt - minedAt);
      floor.push(minedAt - sendAt);
      await new Promise((r) => setTimeout(r, 250));
    }
    await page.close();

    // 2. 1,000 streams on one instance.
    const health = async () => (await (await fetch(`${server.url}/api/health`)).json()).live;
    const wallets = Array.from({ length: WALLETS }, (_, i) => `0x${(0xb0b0000 + i).toString(16).padStart(40, '0')}`);
    const one = await openStream(`${server.url}/api/live/wallets/${wallet}?chain=devnet`);
    await new Promise((r) => setTimeout(r, 1000));
    const before = rssKb(server.pid);
    const streams = [one];
    for (let i = 0; i < STREAMS - 1; i += 50) {
      const batch = Array.from({ length: Math.min(50, STREAMS - 1 - i) }, (_, j) => `${server.url}/api/live/wallets/${(i + j) % 10 === 0 ? wallet : wallets[(i + j) % WALLETS]}?chain=devnet`);
      streams.push(...(await Promise.all(batch.map(openStream))));
    }
    await new Promise((r) => setTimeout(r, 2000));
    const after = rssKb(server.pid);
    const h = await health();
    const watchingWallet = streams.filter((_, i) => i === 0 || (i - 1) % 10 === 0);
    const t0 = performance.now();
    const arrived = watchingWallet.map((s) => new Promise((r) => s.waiters.push(r)).then(() => performance.now() - t0));
    await rpc(rpcUrl, 'eth_sendTransaction', [{ from: payer, to: wallet, value: '0x1' }]);
    const fanout = await Promise.all(arrived.map((p) => Promise.race([p, new Promise((r) => setTimeout(() => r(Infinity), 30_000))])));
    for (const s of streams) s.close();
    return {
      minedToVisibleP50Ms: pct(visible, 50),
      minedToVisibleP95Ms: pct(visible, 95),
      minedToVisibleMaxMs: pct(visible, 100),
      floorSendToHeadP50Ms: pct(floor, 50),
      floorSendToHeadP95Ms: pct(floor, 95),
      streams: h.streams,
      followers: h.following.length,
      rssBeforeMb: Math.round(before / 1024),
      rssAfterMb: Math.round(after / 1024),
      kbPerStream: Math.round(((after - before) / (STREAMS - 1)) * 10) / 10,
      fanoutStreams: fanout.length,
      fanoutP95Ms: pct(fanout, 95),
      targets: TARGETS,
    };
  } finally {
    unwatch();
    (await node.transport.getRpcClient()).close();
    await browser.close();
    await server.stop();
  }
}

export function printLiveFigures(r) {
  console.log(`live: block mined -> row visible in Chromium, ${TXS} transactions: p50 ${r.minedToVisibleP50Ms} ms, p95 ${r.minedToVisibleP95Ms} ms, max ${r.minedToVisibleMaxMs} ms  (target p95 <= 1000 ms: ${r.minedToVisibleP95Ms <= TARGETS.minedToVisibleP95Ms ? 'ok' : 'OVER'})`);
  console.log(`  floor: send -> the node's own newHeads at a bare WebSocket subscriber: p50 ${r.floorSendToHeadP50Ms} ms, p95 ${r.floorSendToHeadP95Ms} ms`);
  console.log(`live: ${r.streams} open streams on one instance: RSS ${r.rssBeforeMb} -> ${r.rssAfterMb} MB, ${r.kbPerStream} kB per stream; followers ${r.followers} (one per chain followed)`);
  console.log(`  one new transaction reached all ${r.fanoutStreams} streams watching its wallet: p95 ${r.fanoutP95Ms} ms`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { startDevnets } = await import('../scripts/lib/devnets.mjs');
  const [evmPort, evm2Port, ledgerPort] = await Promise.all([freePort(), freePort(), freePort()]);
  const nets = await startDevnets({ evmPort, evm2Port, ledgerPort, log: () => undefined });
  try {
    printLiveFigures(await benchLive({ evmPort, ledgerPort, rpcUrl: nets.evm.url, manifest: nets.evm.manifest }));
  } finally {
    await nets.stop();
  }
}
