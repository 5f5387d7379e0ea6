#!/usr/bin/env node
// `npm run dev`: the devnets and `next dev` together; Ctrl-C (or either one dying) stops everything.
import { spawn } from 'node:child_process';
import { devnetsWanted, startDevnets } from './lib/devnets.mjs';
import { shutdownOnce } from './lib/shutdown.mjs';

const want = devnetsWanted();
const nets = await startDevnets(want);
if (nets.evm) console.log(`EVM devnet    ${nets.evm.url}`);
if (nets.ledger) console.log(`ledger devnet ${nets.ledger.url}`);

const next = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'dev', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  detached: true, // its own process group, so stopping it also stops its workers
});

const stop = shutdownOnce(async () => {
  try {
    process.kill(-next.pid, 'SIGTERM');
  } catch {
    // already gone
  }
  await nets.stop();
});
next.on('exit', (code) => stop(code ?? 0));
