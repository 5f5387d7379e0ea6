// Benchmark of a wallet's first history page at any size (issue 11): Lantern's own EVM node source reads
// a wallet's history in windows, so a never-seen wallet's first page should cost about what the node's
// own newest-page query costs, whatever the wallet's size. Measured in one run, on one anvil:
//
// - the floor: `ots_searchTransactionsBefore(wallet, 0, 25)` plus the receipts of those transactions,
//   asked of the node directly (what Otterscan does for its first page);
// - Lantern's cold first page (limit 25, DESC) for never-seen wallets of 10, 10,000 and 50,000
//   transactions, on a server that has already answered one request (so its own start-up is not counted),
//   one fresh server per round;
// - the first history row visible in Chromium for a never-seen 10,000-transaction wallet, then for a
//   never-seen 10-transaction wallet while the first is read in the background, beside that same wallet's
//   first row on a server reading nothing else;
// - warm first and deep pages (p50);
// - the time to read a 50,000-transaction wallet completely in the background, and the RPC calls it made.
//
//   benchHistoryScale()   from bench/run.mjs
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { encodeDeployData, encodeFunctionData } from 'viem';
import { chromium } from '@playwright/test';
import { spawnAnvil } from '../devnet/evm/anvil.mjs';
import { rpcClient } from '../devnet/evm/rpc.mjs';
import { chromiumArgs, chromiumPath } from '../scripts/lib/chromium.mjs';
import { firstRow as firstRowSeen } from './first-row.mjs';
import { freePort, startServer, untilReady } from './server.mjs';
import { median, pct } from './stats.mjs';

const SIZES = [10, 10_000, 50_000];
const ROUNDS = 3;
const PER_BLOCK = 500;

const round1 = (x) => Math.round(x * 10) / 10;

/** A counting JSON-RPC proxy: the RPC calls Lantern makes. */
async function countingProxy(target, port) {
  const counts = { calls: 0 };
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = Buffer.concat(chunks);
    try {
      const j = JSON.parse(body.toString('utf8'));
      counts.calls += Array.isArray(j) ? j.length : 1;
    } catch {
      // forwarded as is
    }
    const up = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    res.writeHead(up.status, { 'content-type': 'application/json' });
    res.end(Buffer.from(await up.arrayBuffer()));
  });
  await new Promise((r) => server.listen(port, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${port}`, counts, stop: () => new Promise((r) => server.close(r)) };
}

/** Wallets of each size on a fresh anvil: sends out, receipts in, token transfers, PER_BLOCK per block. */
async function seed(rpc, log) {
  const accounts = await rpc.call('eth_accounts');
  const [deployer, ...rest] = accounts;
  const token = JSON.parse(readFileSync(new URL('../devnet/evm/artifacts/Token.json', import.meta.url), 'utf8'));
  const hash = await rpc.call('eth_sendTransaction', [{ from: deployer, data: encodeDeployData({ abi: token.abi, bytecode: token.bytecode, args: ['Bench Token', 'BNT', 18] }), gas: '0x4c4b40' }]);
  const tokenAddress = (await rpc.receipt(hash)).contractAddress;
  const counterparties = rest.slice(SIZES.length, SIZES.length + 8);
  const wallets = { warm: rest[rest.length - 1].toLowerCase() };
  const specs = [0, 1, 2].map((i) => ({ from: rest[rest.length - 1], to: counterparties[i], value: '0x1', gas: '0x5208' }));
  SIZES.forEach((size, w) => {
    const wallet = rest[w];
    wallets[size] = wallet.toLowerCase();
    specs.push({ from: deployer, to: tokenAddress, data: encodeFunctionData({ abi: token.abi, functionName: 'mint', args: [wallet, 10n ** 30n] }), gas: '0x30d40' });
    for (let i = 1; i < size; i++) {
      const cp = counterparties[i % counterparties.length];
      if (i % 5 === 0) specs.push({ from: cp, to: wallet, value: '0x38d7ea4c68000', gas: '0x5208' });
      else if (i % 5 === 1) specs.push({ from: wallet, to: tokenAddress, data: encodeFunctionData({ abi: token.abi, functionName: 'transfer', args: [cp, BigInt(i)] }), gas: '0x186a0' });
      else specs.push({ from: wallet, to: cp, value: `0x${(1e12 + i).toString(16)}`, gas: '0x5208' });
    }
  });
  // Interleaved, so every wallet's history spans the same blocks: a small wallet's page is not cheap for being alone.
  specs.sort((a, b) => (a.i ??= Math.random()) - (b.i ??= Math.random()));
  // Nonces set here: anvil answers a batch's requests concurrently, and two of one sender's would take the same nonce.
  const nonces = new Map();
  for (const tx of specs) {
    const from = tx.from.toLowerCase();
    if (!nonces.has(from)) nonces.set(from, Number(await rpc.call('eth_getTransactionCount', [tx.from, 'pending'])));
    tx.nonce = `0x${nonces.get(from).toString(16)}`;
    nonces.set(from, nonces.get(from) + 1);
  }
  const t0 = performance.now();
  await rpc.call('evm_setAutomine', [false]);
  for (let i = 0; i < specs.length; i += PER_BLOCK) {
    await rpc.batch(specs.slice(i, i + PER_BLOCK).map(({ i: _i, ...tx }) => ['eth_sendTransaction', [tx]]));
    await rpc.call('evm_mine', []);
  }
  await rpc.call('evm_setAutomine', [true]);
  const head = Number(await rpc.call('eth_blockNumber'));
  log(`seeded wallets of ${SIZES.join(', ')} transactions in ${head} blocks (${PER_BLOCK} per block) in ${Math.round(performance.now() - t0)} ms`);
  return { wallets, head };
}

/** The node's own first page: ots_searchTransactionsBefore(wallet, 0, 25) and the receipts of its transactions. */
async function floorMs(rpc, wallet) {
  const t0 = performance.now();
  const page = await rpc.call('ots_searchTransactionsBefore', [wallet, 0, 25]);
  await rpc.batch(page.txs.map((t) => ['eth_getTransactionReceipt', [t.hash]]));
  return performance.now() - t0;
}

async function timed(url) {
  const t0 = performance.now();
  const res = await fetch(url);
  const body = await res.json();
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  return { ms: performance.now() - t0, body };
}

export async function benchHistoryScale({ log = console.log, parts = process.env.BENCH_HISTORY_PARTS?.split(',') } = {}) {
  // BENCH_HISTORY_PARTS=browser (or cold,background,warm) runs only those parts.
  const want = (p) => !parts || parts.includes(p);
  const anvil = await spawnAnvil({ port: await freePort(), args: ['--accounts', '20', '--gas-limit', '60000000', '--max-persisted-states', '2000'] });
  const rpc = rpcClient(anvil.url);
  const proxy = await countingProxy(anvil.url, await freePort());
  const figures = {};
  try {
    const { wallets } = await seed(rpc, log);
    const history = (base, w, q = '') => `${base}/api/v2.2/wallets/${w}/history?limit=25${q}`;

    if (want('cold')) {
      const floor = Object.fromEntries(SIZES.map((s) => [s, []]));
      const cold = Object.fromEntries(SIZES.map((s) => [s, []]));
      let last;
      // One fresh server per wallet and round: another wallet's background read never runs beside the measured page.
      for (let r = 0; r < ROUNDS; r++) {
        for (const size of SIZES) {
          if (last) await last.stop();
          last = await startServer(await freePort(), { EVM_RPC_URL: proxy.url, DEFAULT_CHAIN: 'devnet' });
          // The server has answered one request (its start-up and first contact with the node are not what is measured).
          await timed(history(last.url, wallets.warm, '&order=ASC'));
          floor[size].push(await floorMs(rpc, wallets[size]));
          cold[size].push((await timed(history(last.url, wallets[size]))).ms);
        }
      }
      figures.coldFirstPage = {};
      for (const size of SIZES) {
        const f = median(floor[size]);
        const c = median(cold[size]);
        figures.coldFirstPage[size] = { floorMs: round1(f), lanternMs: round1(c), timesFloor: round1(c / f), target: '<= 3x the floor, flat in wallet size' };
        log(`cold first page, ${size.toLocaleString('en-US')}-transaction wallet: Lantern ${round1(c)} ms, node floor ${round1(f)} ms (${round1(c / f)}x; median of ${ROUNDS})`);
      }

      // The 50,000-transaction wallet's background read, on the last server (it began with the first page above).
      {
        const t0 = performance.now();
        const calls0 = proxy.counts.calls;
        let count = null;
        for (let i = 0; i < 2400 && count === null; i++) {
          const html = await (await fetch(`${last.url}/wallet/${wallets[50_000]}`)).text();
          const m = /data-testid="tx-count"[^>]*>([\d,]+)</.exec(html);
          if (m) count = Number(m[1].replace(/,/g, ''));
          else await new Promise((r) => setTimeout(r, 250));
        }
        const ms = performance.now() - t0;
        figures.backgroundIndex50k = { ms: Math.round(ms), transactions: count, rpcCallsWhileReading: proxy.counts.calls - calls0 };
        log(`background read of the 50,000-transaction wallet: complete ${Math.round(ms)} ms after its first page (counted ${count}); ${proxy.counts.calls - calls0} RPC calls meanwhile (page polls included)`);
      }

      // Warm pages: the same first page again, and page 40 by cursor, repeated.
      {
        const first = [];
        const deep = [];
        const w = wallets[10_000];
        for (let i = 0; i < 40; i++) first.push((await timed(history(last.url, w))).ms);
        let p = (await timed(history(last.url, w))).body;
        const cursors = [];
        for (let i = 1; i < 40 && p.cursor; i++) {
          cursors.push(p.cursor);
          p = (await timed(history(last.url, w, `&cursor=${encodeURIComponent(p.cursor)}`))).body;
        }
        const c40 = cursors[cursors.length - 1];
        for (let i = 0; i < 40; i++) deep.push((await timed(history(last.url, w, `&cursor=${encodeURIComponent(c40)}`))).ms);
        figures.warm = { firstPageP50Ms: round1(pct(first, 50)), page40P50Ms: round1(pct(deep, 50)), target: 'p50 <= 20 ms' };
        log(`warm pages (10,000-transaction wallet): first p50 ${round1(pct(first, 50))} ms, page 40 p50 ${round1(pct(deep, 50))} ms`);
      }
      await last.stop();
    }

    // First row in Chromium, a never-seen 10,000-transaction wallet, then at once a never-seen small one
    // while the server still reads the large one's older history in the background (issue 22: a fill must
    // not slow another person's first visit). A fresh server per round, so the fill is fresh each time.
    // Its floor, in the same round: the same small wallet's first visit on a fresh server reading nothing
    // else. Every server is ready (its start-up warm-up done) before its first visit, so neither figure
    // counts the warm-up running beside it.
    if (want('browser')) {
      const browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs });
      const large = [];
      const small = [];
      const smallIdle = [];
      const smallWarm = [];
      const callsDuringSmall = [];
      const smallFloor = [];
      const firstRow = async (server, wallet) => {
        const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
        // Warm the browser's own caches (the app's scripts) on another page kind, then the wallet.
        await page.goto(`${server.url}/`, { waitUntil: 'load' });
        const seen = await firstRowSeen(page, `${server.url}/wallet/${wallet}`);
        await page.context().close();
        return seen;
      };
      const readyServer = async () => {
        const server = await startServer(await freePort(), { EVM_RPC_URL: proxy.url, DEFAULT_CHAIN: 'devnet' });
        await untilReady(server.url);
        await timed(history(server.url, wallets.warm, '&order=ASC'));
        return server;
      };
      try {
        for (let r = 0; r < ROUNDS; r++) {
          smallFloor.push(await floorMs(rpc, wallets[10]));
          const idle = await readyServer();
          try {
            smallIdle.push(await firstRow(idle, wallets[10]));
            // The same page again, its history now cached: what the page costs in this browser on this
            // machine whatever the wallet, beside which the never-seen visits are read.
            smallWarm.push(await firstRow(idle, wallets[10]));
          } finally {
            await idle.stop();
          }
          const server = await readyServer();
          try {
            large.push(await firstRow(server, wallets[10_000]));
            const calls0 = proxy.counts.calls;
            small.push(await firstRow(server, wallets[10]));
            callsDuringSmall.push(proxy.counts.calls - calls0);
          } finally {
            await server.stop();
          }
        }
      } finally {
        await browser.close();
      }
      // The figures are the page's own (navigation start to the frame showing the row); Playwright's wait beside them.
      const page = (xs) => xs.map((x) => x.pageMs);
      const seenBy = (xs) => Math.round(median(xs.map((x) => x.playwrightMs)));
      const list = (xs) => page(xs).map(Math.round).join(', ');
      figures.firstRowInBrowser10k = { ms: Math.round(median(page(large))), playwrightMs: seenBy(large), target: '<= 1,000 ms (Otterscan: 980 ms on the same work)' };
      figures.firstRowInBrowserSmallAfter10k = {
        ms: Math.round(median(page(small))),
        playwrightMs: seenBy(small),
        idleServerMs: Math.round(median(page(smallIdle))),
        cachedPageMs: Math.round(median(page(smallWarm))),
        timesIdle: round1(median(page(small)) / median(page(smallIdle))),
        nodeFloorMs: round1(median(smallFloor)),
        rpcCallsDuringVisit: median(callsDuringSmall),
        target: '<= 1,000 ms while the 10,000-transaction wallet is read in the background',
      };
      log(`first history row visible in Chromium, never-seen 10,000-transaction wallet: ${Math.round(median(page(large)))} ms (median of ${ROUNDS}: ${list(large)}; Playwright saw it at ${seenBy(large)} ms)`);
      log(
        `first history row visible in Chromium, never-seen 10-transaction wallet opened right after it: ${Math.round(median(page(small)))} ms (median of ${ROUNDS}: ${list(small)}; Playwright ${seenBy(small)} ms), ` +
          `the same wallet on a server reading nothing else ${Math.round(median(page(smallIdle)))} ms (${list(smallIdle)}; ${round1(median(page(small)) / median(page(smallIdle)))}x), ` +
          `node floor ${round1(median(smallFloor))} ms; ${median(callsDuringSmall)} RPC calls during that visit (background read included)`,
      );
      log(`first history row visible in Chromium, that wallet's page again with its history cached (the page's and browser's own cost on this machine): ${Math.round(median(page(smallWarm)))} ms (${list(smallWarm)})`);
    }
  } finally {
    await proxy.stop();
    await anvil.stop();
  }
  return figures;
}
