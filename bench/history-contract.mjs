// Benchmark of the complete API first page of a never-seen wallet whose transactions call a contract that
// passes ETH on (issue 22, item 3): every row needs its internal transfers, which only a trace (or the
// node's own internal-operations call) tells. Measured in one run, on one anvil of its own:
//
// - the floor, asked of the node directly: `ots_searchTransactionsBefore(wallet, 0, 25)`, those 25
//   receipts, and the cheapest way the node offers to the internal operations of those transactions:
//   `ots_getInternalOperations` for each (Otterscan's way), or one `debug_traceBlockByNumber` (callTracer)
//   or one `trace_block` per block the page reaches; each is measured, the floor takes the cheapest;
// - Lantern's cold first page (limit 25, DESC) of that wallet, on a fresh server that has already
//   answered one request (its start-up is not counted), and the node calls the page made, by method;
// - the first history row visible in Chromium for that never-seen wallet (a fresh server each round):
//   the rows come before their internal transfers (issue 22: <= 1 s for any never-seen wallet).
//
//   benchHistoryContract()   from bench/run.mjs
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { encodeDeployData, encodeFunctionData } from 'viem';
import { chromium } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../scripts/lib/chromium.mjs';
import { spawnAnvil } from '../devnet/evm/anvil.mjs';
import { rpcClient } from '../devnet/evm/rpc.mjs';
import { firstRow } from './first-row.mjs';
import { freePort, startServer } from './server.mjs';
import { median } from './stats.mjs';

const SIZE = 10_000;
const PER_BLOCK = 100;
const ROUNDS = 3;

const round1 = (x) => Math.round(x * 10) / 10;

/** A JSON-RPC proxy that counts the calls it forwards, by method. */
async function countingProxy(target, port) {
  const byMethod = new Map();
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = Buffer.concat(chunks);
    try {
      const j = JSON.parse(body.toString('utf8'));
      for (const m of Array.isArray(j) ? j : [j]) byMethod.set(m.method, (byMethod.get(m.method) ?? 0) + 1);
    } catch {
      // forwarded as is
    }
    const up = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    res.writeHead(up.status, { 'content-type': 'application/json' });
    res.end(Buffer.from(await up.arrayBuffer()));
  });
  await new Promise((r) => server.listen(port, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${port}`, byMethod, stop: () => new Promise((r) => server.close(r)) };
}

/** One wallet of SIZE calls to MultiSend, each passing its ETH on to one recipient, PER_BLOCK a block. */
async function seed(rpc, log) {
  const [deployer, wallet, warm, ...rest] = await rpc.call('eth_accounts');
  const art = JSON.parse(readFileSync(new URL('../devnet/evm/artifacts/MultiSend.json', import.meta.url), 'utf8'));
  const hash = await rpc.call('eth_sendTransaction', [{ from: deployer, data: encodeDeployData({ abi: art.abi, bytecode: art.bytecode }), gas: '0x4c4b40' }]);
  const multiSend = (await rpc.receipt(hash)).contractAddress;
  await rpc.call('eth_sendTransaction', [{ from: warm, to: rest[0], value: '0x1', gas: '0x5208' }]);
  let nonce = Number(await rpc.call('eth_getTransactionCount', [wallet, 'pending']));
  const specs = [];
  for (let i = 0; i < SIZE; i++) {
    const value = BigInt(1e12 + i);
    specs.push({
      from: wallet, to: multiSend, value: `0x${value.toString(16)}`, gas: '0x186a0', nonce: `0x${(nonce++).toString(16)}`,
      data: encodeFunctionData({ abi: art.abi, functionName: 'send', args: [[rest[i % rest.length]], [value]] }),
    });
  }
  const t0 = performance.now();
  await rpc.call('evm_setAutomine', [false]);
  for (let i = 0; i < specs.length; i += PER_BLOCK) {
    await rpc.batch(specs.slice(i, i + PER_BLOCK).map((tx) => ['eth_sendTransaction', [tx]]));
    await rpc.call('evm_mine', []);
  }
  await rpc.call('evm_setAutomine', [true]);
  log(`seeded a wallet of ${SIZE.toLocaleString('en-US')} MultiSend calls passing ETH on (${PER_BLOCK} a block) in ${Math.round(performance.now() - t0)} ms`);
  return { wallet: wallet.toLowerCase(), warm: warm.toLowerCase() };
}

/** The node's own complete first page, with each way to its internal operations timed on its own. */
async function floor(rpc, wallet) {
  const t0 = performance.now();
  const page = await rpc.call('ots_searchTransactionsBefore', [wallet, 0, 25]);
  await rpc.batch(page.txs.map((t) => ['eth_getTransactionReceipt', [t.hash]]));
  const base = performance.now() - t0;
  const blocks = [...new Set(page.txs.map((t) => t.blockNumber))];
  const ways = {};
  const time = async (name, fn) => {
    const t = performance.now();
    await fn();
    ways[name] = performance.now() - t;
  };
  await time('ots_getInternalOperations', () => rpc.batch(page.txs.map((t) => ['ots_getInternalOperations', [t.hash]])));
  await time('debug_traceBlockByNumber', () => Promise.all(blocks.map((b) => rpc.call('debug_traceBlockByNumber', [b, { tracer: 'callTracer' }]))));
  await time('trace_block', () => Promise.all(blocks.map((b) => rpc.call('trace_block', [b]))));
  const cheapest = Object.entries(ways).sort((a, b) => a[1] - b[1])[0];
  return { ms: base + cheapest[1], base, ways, cheapest: cheapest[0], blocks: blocks.length };
}

async function timed(url) {
  const t0 = performance.now();
  const res = await fetch(url);
  const body = await res.json();
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  return { ms: performance.now() - t0, body };
}

export async function benchHistoryContract({ log = console.log } = {}) {
  const anvil = await spawnAnvil({ port: await freePort(), args: ['--accounts', '12', '--gas-limit', '60000000', '--max-persisted-states', '2000'] });
  const rpc = rpcClient(anvil.url);
  const proxy = await countingProxy(anvil.url, await freePort());
  try {
    const { wallet, warm } = await seed(rpc, log);
    const history = (base, w, q = '') => `${base}/api/v2.2/wallets/${w}/history?limit=25${q}`;
    const floors = [];
    const cold = [];
    let calls = {};
    let internal = 0;
    for (let r = 0; r < ROUNDS; r++) {
      const server = await startServer(await freePort(), { EVM_RPC_URL: proxy.url, DEFAULT_CHAIN: 'devnet' });
      try {
        await timed(history(server.url, warm, '&order=ASC'));
        floors.push(await floor(rpc, wallet));
        proxy.byMethod.clear();
        const page = await timed(history(server.url, wallet));
        cold.push(page.ms);
        calls = Object.fromEntries(proxy.byMethod);
        internal = page.body.result.reduce((n, t) => n + t.native_transfers.filter((m) => String(m.internal_transaction) === 'true').length, 0);
      } finally {
        await server.stop();
      }
    }
    // First row in Chromium: the app's scripts warmed on another page kind, then the never-seen wallet.
    const firstRows = [];
    const browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs });
    try {
      for (let r = 0; r < ROUNDS; r++) {
        const server = await startServer(await freePort(), { EVM_RPC_URL: proxy.url, DEFAULT_CHAIN: 'devnet' });
        try {
          await timed(history(server.url, warm, '&order=ASC'));
          const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
          await page.goto(`${server.url}/`, { waitUntil: 'load' });
          firstRows.push(await firstRow(page, `${server.url}/wallet/${wallet}`));
          await page.context().close();
        } finally {
          await server.stop();
        }
      }
    } finally {
      await browser.close();
    }
    const f = median(floors.map((x) => x.ms));
    const c = median(cold);
    const ways = Object.fromEntries(Object.keys(floors[0].ways).map((k) => [k, round1(median(floors.map((x) => x.ways[k])))]));
    const figures = {
      floorMs: round1(f),
      lanternMs: round1(c),
      timesFloor: round1(c / f),
      floorSearchAndReceiptsMs: round1(median(floors.map((x) => x.base))),
      internalOperationsMs: ways,
      pageBlocks: floors[0].blocks,
      internalTransfersOnPage: internal,
      nodeCallsOfLastColdPage: calls,
      target: '<= 3x the floor',
      firstRowInBrowserMs: Math.round(median(firstRows.map((x) => x.pageMs))),
      firstRowPlaywrightMs: Math.round(median(firstRows.map((x) => x.playwrightMs))),
      firstRowTarget: '<= 1,000 ms',
    };
    log(
      `cold complete first page, ${SIZE.toLocaleString('en-US')} contract calls passing ETH on: Lantern ${figures.lanternMs} ms, node floor ${figures.floorMs} ms ` +
        `(${figures.timesFloor}x; median of ${ROUNDS}; ${internal} internal transfers on the page)`,
    );
    log(`  floor: search + receipts ${figures.floorSearchAndReceiptsMs} ms, internal operations of ${figures.pageBlocks} block(s): ${Object.entries(ways).map(([k, v]) => `${k} ${v} ms`).join(', ')}`);
    log(`  node calls of the cold page: ${Object.entries(calls).map(([k, v]) => `${k} ${v}`).join(', ')}`);
    log(`first history row visible in Chromium, never-seen wallet of ${SIZE.toLocaleString('en-US')} contract calls: ${figures.firstRowInBrowserMs} ms (median of ${ROUNDS}: ${firstRows.map((x) => Math.round(x.pageMs)).join(', ')}; Playwright saw it at ${figures.firstRowPlaywrightMs} ms; target <= 1,000 ms)`);
    return figures;
  } finally {
    await proxy.stop();
    await anvil.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchHistoryContract();
