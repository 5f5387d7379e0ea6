// Cold start: the first wallet page after a server starts, against a second never-seen wallet and the same
// page warm, with the start-up warm-up (scripts/lib/warm-up.mjs) off and on. Each pass is a fresh server
// with a fresh database, so nothing is cached from an earlier one (the template a fresh embedded database
// is copied from, lib/db/template.ts, is made by the first server of the run when the build has none yet).
// bench/run.mjs starts its own servers first and waits until they are ready, so their warm-up does not
// share the CPU with the launches measured here.
import { freePort, startServer, untilReady } from './server.mjs';

// The busiest devnet wallet, as the newcomer issue measured its first page (5,010 ms before warm-up),
// and a second never-seen wallet of another size.
const ALICE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'; // 398 transactions
const JUDY = '0x71bE63f3384f5fb98995898A86B02Fb2426c5788'; // 14 transactions

export async function benchColdStart({ evmPort, ledgerPort }) {
  const out = {};
  const devnets = { DEVNET_EVM_PORT: String(evmPort), DEVNET_LEDGER_PORT: String(ledgerPort) };
  // The floor: the same build under `next start` (no edge guard, no warm-up, no start-up before listening).
  const floor = await startServer(await freePort(), devnets, { script: 'node_modules/next/dist/bin/next start' });
  out.floor_next_start = { start_to_accepting_ms: Math.round(floor.acceptingMs), start_to_listening_ms: Math.round(floor.listeningMs) };
  await floor.stop();
  console.log(`cold start, floor: next start               ${Object.entries(out.floor_next_start).map(([k, v]) => `${k} ${v}`).join('  ')}`);
  for (const warm of ['off', 'on']) {
    const server = await startServer(await freePort(), { ...devnets, LANTERN_WARM_UP: warm });
    const { url } = server;
    const listening = server.listeningMs;
    // The server listens at once and warms up behind it: the page figures are taken once it is ready.
    const ready = await untilReady(url);
    const first = await documentMs(`${url}/wallet/${ALICE}`);
    const otherNeverSeen = await documentMs(`${url}/wallet/${JUDY}`);
    const again = [];
    for (let i = 0; i < 7; i++) again.push(await documentMs(`${url}/wallet/${ALICE}`));
    again.sort((x, y) => x - y);
    const figures = {
      start_to_accepting_ms: Math.round(server.acceptingMs),
      start_to_listening_ms: Math.round(listening),
      start_to_ready_ms: Math.round(listening + ready),
      first_wallet_page_ms: Math.round(first),
      other_never_seen_wallet_ms: Math.round(otherNeverSeen),
      same_page_warm_p50_ms: Math.round(again[3]),
    };
    out[`warm_up_${warm}`] = figures;
    // Issue 22: accepts connections within 1 s of launch (the first answer is printed beside it, not judged).
    const verdict = figures.start_to_accepting_ms <= 1000 ? 'ok' : 'OVER';
    console.log(`cold start, warm-up ${warm.padEnd(3)}                  ${Object.entries(figures).map(([k, v]) => `${k} ${v}`).join('  ')}  (target accepting <= 1 s: ${verdict})`);
    await server.stop();
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
