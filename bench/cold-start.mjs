// Cold start: the first wallet page after a server starts, against a second never-seen wallet and the same
// page warm, with the start-up warm-up (scripts/lib/warm-up.mjs) off and on. Each pass is a fresh server
// with a fresh database, so nothing is cached from an earlier one.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

// The busiest devnet wallet, as the newcomer issue measured its first page (5,010 ms before warm-up),
// and a second never-seen wallet of another size.
const ALICE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'; // 398 transactions
const JUDY = '0x71bE63f3384f5fb98995898A86B02Fb2426c5788'; // 14 transactions

export async function benchColdStart({ evmPort, ledgerPort }) {
  const out = {};
  for (const warm of ['off', 'on']) {
    const port = await freePort();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'lantern-cold-'));
    const started = performance.now();
    const child = spawn(process.execPath, ['scripts/server.mjs', '-p', String(port), '-H', '127.0.0.1'], {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        NEXT_TELEMETRY_DISABLED: '1',
        DATA_API_KEY: '',
        SESSION_SECRET: 'bench-session-secret-0123456789abcdef0123',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        RATE_LIMIT_PER_MINUTE: '0',
        LOG_LEVEL: 'warn',
        DATA_DIR: dataDir,
        DEVNET_EVM_PORT: String(evmPort),
        DEVNET_LEDGER_PORT: String(ledgerPort),
        LANTERN_WARM_UP: warm,
      },
      stdio: ['ignore', 'ignore', 'ignore'],
    });
    const url = `http://127.0.0.1:${port}`;
    await untilListening(url);
    const listening = performance.now() - started;
    const first = await documentMs(`${url}/wallet/${ALICE}`);
    const otherNeverSeen = await documentMs(`${url}/wallet/${JUDY}`);
    const again = [];
    for (let i = 0; i < 7; i++) again.push(await documentMs(`${url}/wallet/${ALICE}`));
    again.sort((x, y) => x - y);
    const figures = {
      start_to_listening_ms: Math.round(listening),
      first_wallet_page_ms: Math.round(first),
      other_never_seen_wallet_ms: Math.round(otherNeverSeen),
      same_page_warm_p50_ms: Math.round(again[3]),
    };
    out[`warm_up_${warm}`] = figures;
    console.log(`cold start, warm-up ${warm.padEnd(3)}                  ${Object.entries(figures).map(([k, v]) => `${k} ${v}`).join('  ')}`);
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
  return out;
}

async function documentMs(u) {
  const t = performance.now();
  const res = await fetch(u);
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${u} answered ${res.status}`);
  return performance.now() - t;
}

async function untilListening(url) {
  for (let i = 0; i < 1200; i++) {
    try {
      await fetch(`${url}/robots.txt`);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error('server did not start');
}

function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}
