// Load figures with autocannon, on loopback only. Every run is bounded in time and stops by itself.
import autocannon from 'autocannon';
import { pct } from './stats.mjs';

/** One autocannon run; returns the figures the README and notes quote. */
export async function load({ url, connections = 20, duration = 8, headers = {} }) {
  const r = await autocannon({ url, connections, duration, headers, timeout: 10 });
  return {
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    total: r.requests.total,
  };
}

/** Sequential latency of single requests (no concurrency): p50/p95 in ms. */
export async function latency(url, { n = 200, headers = {} } = {}) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const res = await fetch(typeof url === 'function' ? url(i) : url, { headers });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${res.status} from ${typeof url === 'function' ? url(i) : url}`);
    times.push(performance.now() - t);
  }
  const q = (p) => Math.round(pct(times, p) * 10) / 10;
  return { p50: q(50), p95: q(95), n, times };
}

export const fmt = (o) => Object.entries(o).map(([k, v]) => `${k}=${v}`).join(' ');
