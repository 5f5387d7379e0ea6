// Breaker open: how fast a request for a stalled upstream is answered once its breaker is open (target:
// under 100 ms each). A production server reads a local ledger node that accepts and never answers
// (UPSTREAM_TIMEOUT_MS=1000). A breaker opens on distinct requests failing in a row (the default, 3:
// one request's own trouble, however often it is asked, never opens it; lib/sources/breaker.ts), so
// three different versions each wait out the timeout (fewer when start-up's health check already timed
// out on it), then 20 requests are timed one after another. tests/integration/breaker.test.ts asserts what makes them fast.
import { createServer } from 'node:http';
import { freePort, startServer } from './server.mjs';

export async function benchBreaker({ evmPort }) {
  const held = [];
  const stalled = createServer((_req, res) => held.push(res)); // accepted, never answered
  await new Promise((r) => stalled.listen(0, '127.0.0.1', r));
  const server = await startServer(await freePort(), {
    LOG_LEVEL: 'error',
    DEVNET_EVM_PORT: String(evmPort),
    LEDGER_API_URL_LOCAL: `http://127.0.0.1:${stalled.address().port}/v1`,
    UPSTREAM_TIMEOUT_MS: '1000',
    UPSTREAM_PROBE_INTERVAL_MS: '30000',
    LANTERN_WARM_UP: 'off',
  });
  try {
    const url = server.url;
    const block = `${url}/api/ledger/local/blocks/by_version/1000`;
    const opening = [];
    for (const v of [1000, 2000, 3000]) {
      const r = await timed(`${url}/api/ledger/local/blocks/by_version/${v}`);
      opening.push(r);
      if (r.status === 503) break; // open already
    }
    const first = opening[0];
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
      opening_requests: opening.map((r) => `${Math.round(r.ms)} ms ${r.status}`).join(', '),
      statuses: [...statuses].join(','),
      p50_ms: Math.round(sorted[10] * 10) / 10,
      max_ms: Math.round(sorted.at(-1) * 10) / 10,
      all_ms: times.map((t) => Math.round(t)),
      stalled_upstream_saw: held.length,
    };
    console.log(`breaker open (stalled ledger node)              opened by ${opening.length} different request(s) (${figures.opening_requests}), then 20 answers (${figures.statuses}): p50 ${figures.p50_ms} ms, max ${figures.max_ms} ms; the upstream saw ${figures.stalled_upstream_saw} request(s)`);
    return figures;
  } finally {
    await server.stop();
    for (const res of held) res.destroy();
    stalled.closeAllConnections();
    await new Promise((r) => stalled.close(r));
  }
}

async function timed(u) {
  const t = performance.now();
  const res = await fetch(u);
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - t };
}
