#!/usr/bin/env node
// `npm run dev`: the devnets and `next dev` together; Ctrl-C (or either one dying) stops everything.
// `npm run dev -- --live`: the EVM devnet also keeps moving (a scenario transaction every few seconds),
// so an open wallet page shows new transactions arriving.
import { spawn } from 'node:child_process';
import { startDriverControl } from './lib/devnet-driver-control.mjs';
import { devnetsWanted, startDevnets } from './lib/devnets.mjs';
import { shutdownOnce } from './lib/shutdown.mjs';
import { WARM_UP_PATHS, flagged, warmPaths } from './lib/warm-up.mjs';
import { developmentOrigins } from '../lib/public-origins.mjs';

const want = devnetsWanted();
const nets = await startDevnets(want);
if (nets.evm) console.log(`EVM devnet    ${nets.evm.url}  (devnet, chain 31337)`);
if (nets.evm2) console.log(`EVM devnet 2  ${nets.evm2.url}  (devnet2, chain 31338)`);
if (nets.ledger) console.log(`ledger devnet ${nets.ledger.url}`);
// The devnet's Far Lanterns keep their metadata at ipfs:// URIs this local gateway serves: by default
// Lantern resolves ipfs:// through it and may fetch from it (loopback is otherwise always refused).
const nftEnv = {};
if (nets.nftMetadata) {
  console.log(`NFT metadata  ${nets.nftMetadata.url}/ipfs (local IPFS gateway of the devnet)`);
  if (!process.env.NFT_IPFS_GATEWAY) nftEnv.NFT_IPFS_GATEWAY = `${nets.nftMetadata.url}/ipfs`;
  if (!process.env.NFT_METADATA_ALLOW_HOSTS) nftEnv.NFT_METADATA_ALLOW_HOSTS = `127.0.0.1:${nets.nftMetadata.port}`;
}

// --live[=seconds] is this script's; everything else goes to `next dev`.
const liveArg = process.argv.slice(2).find((a) => a === '--live' || a.startsWith('--live='));
const nextArgs = process.argv.slice(2).filter((a) => a !== liveArg);
// The driver runs from the start with --live, and is switched from the home page's button either way.
let driver;
if (nets.evm) {
  const seconds = Math.max(1, Number(liveArg?.split('=')[1] ?? 4) || 4);
  driver = await startDriverControl({ rpcUrl: nets.evm.url, manifest: nets.evm.manifest, intervalS: seconds, running: !!liveArg, log: (line) => console.log(line) });
  if (liveArg) console.log(`devnet live   a scenario transaction every ${seconds} s (alice, bob, carol, erin): open one of their wallet pages to watch`);
} else if (liveArg) {
  console.warn('--live keeps the local EVM devnet moving; this configuration reads another node, so it does nothing.');
}

const port = Number(argValue('-p') ?? argValue('--port') ?? process.env.PORT ?? 3000);
// Sign-in messages are made for PUBLIC_URL only; by default that is this dev server itself.
const publicUrl = process.env.PUBLIC_URL || developmentOrigins(port).join(',');
const next = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'dev', ...nextArgs], {
  stdio: 'inherit',
  env: { ...process.env, ...nftEnv, NEXT_TELEMETRY_DISABLED: '1', PUBLIC_URL: publicUrl, ...(driver ? { LANTERN_DEVNET_DRIVER: driver.url } : {}) },
  detached: true, // its own process group, so stopping it also stops its workers
});

const stop = shutdownOnce(async () => {
  await driver?.stop();
  try {
    process.kill(-next.pid, 'SIGTERM');
  } catch {
    // already gone
  }
  await nets.stop();
});
next.on('exit', (code) => stop(code ?? 0));

// Compile every route in the background once the dev server answers, home first, so the newcomer's
// first clicks do not each wait for a compile (LANTERN_WARM_UP=off skips it).
if (process.env.LANTERN_WARM_UP !== 'off') {
  void warmDevServer(`http://127.0.0.1:${port}`);
}

async function warmDevServer(origin) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      await fetch(origin + '/robots.txt', { signal: AbortSignal.timeout(2000) });
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  // One line for the whole warm-up: its requests are flagged so `next dev` does not log each one (their
  // 400/404/405 answers to deliberately bad input would read like failures).
  const failed = [];
  const ms = await warmPaths(origin, WARM_UP_PATHS.map(flagged), (line) => failed.push(line.replace(/^warm-up: /, '')));
  console.log(
    `Lantern: warm-up compiled ${WARM_UP_PATHS.length} routes in ${(ms / 1000).toFixed(1)} s; pages now open without waiting` +
      (failed.length ? ` (no answer from ${failed.length}: ${failed.join('; ')})` : ''),
  );
}

function argValue(flag) {
  const i = process.argv.indexOf(flag);
  return i > 0 ? process.argv[i + 1] : undefined;
}
