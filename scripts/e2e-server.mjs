#!/usr/bin/env node
// Playwright's web server: the devnets on test ports and a production server of the last build,
// with a throwaway data directory. Stops everything when Playwright stops it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startDevnets } from './lib/devnets.mjs';

const port = Number(process.env.E2E_PORT ?? 3100);
const evmPort = Number(process.env.E2E_EVM_PORT ?? 18545);
const ledgerPort = Number(process.env.E2E_LEDGER_PORT ?? 18080);
const dataDir = mkdtempSync(path.join(tmpdir(), 'lantern-e2e-'));

const nets = await startDevnets({ evmPort, ledgerPort });
const server = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-p', String(port), '-H', '127.0.0.1'], {
  stdio: 'inherit',
  detached: true,
  env: {
    ...process.env,
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    DATA_API_KEY: '',
    DATA_DIR: dataDir,
    DEVNET_EVM_PORT: String(evmPort),
    DEVNET_LEDGER_PORT: String(ledgerPort),
    SESSION_SECRET: process.env.SESSION_SECRET ?? 'e2e-session-secret-0123456789abcdef0123',
    RATE_LIMIT_PER_MINUTE: '0',
  },
});

let stopping = false;
async function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  try {
    process.kill(-server.pid, 'SIGTERM');
  } catch {
    // already gone
  }
  await nets.stop();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(code);
}
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => stop(0));
server.on('exit', (code) => stop(code ?? 1));
