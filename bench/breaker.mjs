// Breaker open: how fast a request for a stalled upstream is answered once its breaker is open (target:
// under 100 ms each). A production server reads a local ledger node that accepts and never answers
// (UPSTREAM_TIMEOUT_MS=1000); the first request waits out the timeout and opens the breaker (unless
// start-up's health check already timed out on it and did), then 20 requests are timed one after
// another. tests/integration/breaker.test.ts asserts what makes them fast.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export async function benchBreaker({ evmPort }) {
  const held = [];
  const stalled = createServer((_req, res) => held.push(res)); // accepted, never answered
  await new Promise((r) => stalled.listen(0, '127.0.0.1', r));
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lantern-breaker-'));
  const child = spawn(process.execPath, ['scripts/server.mjs', '-p', String(port), '-H', '127.0.0.1'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      DATA_API_KEY: '',
      SESSION_SECRET: 'bench-session-secret-0123456789abcdef0123',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'error',
      DATA_DIR: dataDir,
      DEVNET_EVM_PORT: String(evmPort),
      LEDGER_API_URL_LOCAL: `http://127.0.0.1:${stalled.address().port}/v1`,
      UPSTREAM_TIMEOUT_MS: '1000',
      UPSTREAM_PROBE_INTERVAL_MS: '30000',
      LANTERN_WARM_UP: 'off',
    },
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  try {
    const url = `http://127.0.0.1:${port}`;
    await untilListening(url);
    const block = `${url}/api/ledger/local/blocks/by_version/1000`;
    const first = await timed(block);
    const times = [];
    const statuses = new Set();
    for (let i = 0; i < 20; i++) {
      const r = await timed(block);
      statuses.add(r.status);
      times.push(r.ms);
    }
    const sorted = [...times].sort((a, b) => a - b);
    const figures = {
      first_request_ms: Math.round(first.ms),
      first_status: first.status,
      statuses: [...statuses].join(','),
      p50_ms: Math.round(sorted[10] * 10) / 10,
      max_ms: Math.round(sorted.at(-1) * 10) / 10,
      all_ms: times.map((t) => Math.round(t)),
      stalled_upstream_saw: held.length,
    };
    console.log(`breaker open (stalled ledger node)              first ${figures.first_request_ms} ms (${figures.first_status}), then 20 answers (${figures.statuses}): p50 ${figures.p50_ms} ms, max ${figures.max_ms} ms; the upstream saw ${figures.stalled_upstream_saw} request(s)`);
    return figures;
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    for (const res of held) res.destroy();
    stalled.closeAllConnections();
    await new Promise((r) => stalled.close(r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function timed(u) {
  const t = performance.now();
  const res = await fetch(u);
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - t };
}

async function untilListening(url) {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${url}/api/health`)).status < 500) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not start`);
}

function freePort() {
  return new Promise((resolve) => {
    const s = createNetServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}
