// Benchmark of Lantern's own EVM node source (issue 3): history pages (first and deep, warm, p50/p95),
// how page cost grows from a 10-transaction wallet to the 300+ one and a synthetic 5,000-transaction
// one, NFT listing p50, and the time from a first NFT request to SYNCED for the busiest NFT wallet.
//
//   node bench/evm.mjs            starts its own devnet, counting RPC proxy and `next start` (needs a build)
//   benchEvm({ baseUrl, rpcUrl }) measures an instance that reads the devnet at rpcUrl
//
// "Uncached" samples vary `to_block` above the head: the result is the same, but the response cache key
// (and the cursor's binding) differ, so every sample runs the source (index query + cached facts).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadManifest, seedSyntheticWallet, startEvmDevnet } from '../devnet/evm/index.mjs';
import { pct } from './stats.mjs';

const SYNTHETIC_COUNT = 5000;

const fmt = (xs) => `p50 ${pct(xs, 50).toFixed(1)} ms, p95 ${pct(xs, 95).toFixed(1)} ms (n=${xs.length})`;

async function timed(url) {
  const t0 = performance.now();
  const res = await fetch(url);
  const body = await res.json();
  const ms = performance.now() - t0;
  if (!res.ok) throw new Error(`${url}: ${res.status} ${JSON.stringify(body)}`);
  return { ms, body };
}

async function rpc(url, method, params = []) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const j = await res.json();
  if (j.error) throw new Error(`${method}: ${j.error.message}`);
  return j.result;
}

/**
 * @param {{ baseUrl: string, rpcUrl: string, samples?: number, rpcCalls?: () => number, log?: (s: string) => void }} o
 * @returns {Promise<Record<string, unknown>>} the figures, also printed
 */
export async function benchEvm({ baseUrl, rpcUrl, samples = 60, rpcCalls, log = console.log }) {
  const manifest = loadManifest();
  const alice = manifest.accounts.alice.address;
  const dave = manifest.accounts.dave.address;
  const bob = manifest.accounts.bob.address;
  const figures = {};
  const history = (a, q) => `${baseUrl}/api/v2.2/wallets/${a}/history?${q}`;

  // NFT first: bob must not have been asked for before (a fresh instance).
  {
    const t0 = performance.now();
    let first = await timed(`${baseUrl}/api/v2.2/${bob}/nft`);
    const firstStatus = first.body.status;
    while (first.body.status !== 'SYNCED') {
      await new Promise((r) => setTimeout(r, 20));
      first = await timed(`${baseUrl}/api/v2.2/${bob}/nft`);
    }
    figures.nftFirstToSynced = { ms: Math.round(performance.now() - t0), firstStatus, nfts: first.body.total };
    log(`NFTs bob: first request answered ${firstStatus}; SYNCED after ${figures.nftFirstToSynced.ms} ms (${first.body.total} NFTs)`);
    const cachedNft = [];
    const uncachedNft = [];
    for (let i = 0; i < samples; i++) cachedNft.push((await timed(`${baseUrl}/api/v2.2/${bob}/nft`)).ms);
    for (let i = 0; i < samples; i++) uncachedNft.push((await timed(`${baseUrl}/api/v2.2/${bob}/nft?limit=${100 - (i % 50)}`)).ms);
    figures.nftListing = { cached: fmt(cachedNft), uncached: fmt(uncachedNft) };
    log(`NFT listing bob: cached ${fmt(cachedNft)}; uncached ${fmt(uncachedNft)}`);
  }

  // Synthetic wallet (seeded once per chain: its account has no transactions before).
  let synthetic;
  {
    const { SYNTHETIC_INDEX } = await import('../devnet/evm/synthetic.mjs');
    const { mnemonicToAccount } = await import('viem/accounts');
    const account = mnemonicToAccount(manifest.mnemonic, { addressIndex: SYNTHETIC_INDEX }).address.toLowerCase();
    const sent = Number(await rpc(rpcUrl, 'eth_getTransactionCount', [account, 'latest']));
    if (sent === 0) {
      const s = await seedSyntheticWallet({ rpcUrl, count: SYNTHETIC_COUNT, perBlock: 10 });
      log(`seeded synthetic wallet ${s.address}: ${s.count} transactions in ${s.ms} ms`);
    }
    synthetic = account;
  }

  const head = Number(await rpc(rpcUrl, 'eth_blockNumber'));
  let salt = 0;
  const fresh = () => `to_block=${head + 1_000_000 + ++salt}`;

  /** First index build, then cached and uncached first pages, uncached deep page, RPC calls per page. */
  async function wallet(name, address, deepPage) {
    const build = await timed(history(address, `limit=100&${fresh()}`));
    const firstCached = [];
    const firstUncached = [];
    const deep = [];
    let calls = 0;
    for (let i = 0; i < samples; i++) firstCached.push((await timed(history(address, 'limit=100'))).ms);
    const before = rpcCalls?.();
    for (let i = 0; i < samples; i++) firstUncached.push((await timed(history(address, `limit=100&${fresh()}`))).ms);
    if (rpcCalls) calls = (rpcCalls() - before) / samples;
    for (let i = 0; i < Math.ceil(samples / 3); i++) {
      const q = `limit=100&${fresh()}`;
      let r = await timed(history(address, q));
      for (let p = 1; p < deepPage && r.body.cursor; p++) r = await timed(history(address, `${q}&cursor=${encodeURIComponent(r.body.cursor)}`));
      deep.push(r.ms);
    }
    const f = {
      firstRequestWithIndexBuild: Math.round(build.ms),
      firstPageCached: fmt(firstCached),
      firstPageUncached: fmt(firstUncached),
      [`page${deepPage}Uncached`]: fmt(deep),
      ...(rpcCalls ? { rpcCallsPerUncachedPage: calls } : {}),
    };
    log(`history ${name}: first request (index build) ${f.firstRequestWithIndexBuild} ms; first page cached ${f.firstPageCached}; uncached ${f.firstPageUncached}; page ${deepPage} uncached ${f[`page${deepPage}Uncached`]}${rpcCalls ? `; RPC calls per uncached page ${calls.toFixed(2)}` : ''}`);
    return f;
  }

  figures.dave = await wallet('dave (10 txs)', dave, 1);
  figures.alice = await wallet('alice (398 txs)', alice, 4);
  figures.synthetic = await wallet(`synthetic (${SYNTHETIC_COUNT} txs)`, synthetic, 40);
  return figures;
}

// ---------------------------------------------------------------------------------------------------
// CLI: own devnet, counting proxy, own `next start` with a fresh DATA_DIR.

async function main() {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const port = (p) => Number(process.env[p]);
  const devnet = await startEvmDevnet({ port: port('BENCH_EVM_PORT') || 58590 });
  let calls = 0;
  const proxyPort = port('BENCH_PROXY_PORT') || 58591;
  const proxy = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = Buffer.concat(chunks).toString('utf8');
    try {
      const j = JSON.parse(body);
      calls += Array.isArray(j) ? j.length : 1;
    } catch {
      // counted as nothing
    }
    const up = await fetch(devnet.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    res.writeHead(up.status, { 'content-type': 'application/json' });
    res.end(await up.text());
  });
  await new Promise((r) => proxy.listen(proxyPort, '127.0.0.1', r));
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lantern-bench-'));
  const appPort = port('BENCH_APP_PORT') || 3690;
  const child = spawn(path.join(root, 'node_modules/.bin/next'), ['start', '-p', String(appPort), '-H', '127.0.0.1'], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', DATA_API_KEY: '', DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: '0',
      EVM_RPC_URL: `http://127.0.0.1:${proxyPort}`, DEVNET_EVM_PORT: String(proxyPort), SESSION_SECRET: 'bench-session-secret-0123456789abcdef-0123', PUBLIC_URL: `http://127.0.0.1:${appPort}` },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${appPort}`;
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${baseUrl}/api/health`)).status < 500) break;
      } catch {
        // not up yet
      }
      if (i > 400) throw new Error('next start did not come up');
      await new Promise((r) => setTimeout(r, 150));
    }
    // Open the database before timing anything (PGlite's first start creates the cluster).
    await fetch(`${baseUrl}/api/v2.2/wallets/${loadManifest().accounts.mallory.address}/history`);
    const figures = await benchEvm({ baseUrl, rpcUrl: devnet.url, rpcCalls: () => calls });
    console.log(JSON.stringify(figures, null, 2));
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    proxy.close();
    await devnet.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
