#!/usr/bin/env node
// Playwright's web server. Two production servers of the last build over the devnets (both EVM devnets,
// E2E_EVM_PORT and E2E_EVM2_PORT, the ledger, the NFT gateway):
//   A (E2E_PORT, node mode): Lantern's own sources on the devnets, with API_KEYS set, so its pages
//     must work through page tokens alone;
//   B (E2E_HOSTED_PORT, hosted mode): DATA_API_URL and AUTH_API_URL point at A, with one of A's keys
//     as DATA_API_KEY: the hosted-API client against a real implementation. Its mainnet and testnet
//     ledgers are a closed port of its own; its local ledger is the devnet, as A's is.
// The same browser specs run against both. Everything stops when Playwright stops this script.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startDevnets } from './lib/devnets.mjs';
import { freePortsSync } from './lib/free-ports.mjs';
import { shutdownOnce } from './lib/shutdown.mjs';

// playwright.config.ts passes the ports it chose; run alone, this script chooses free ones and says so.
// The last two are closed: A's and B's mainnet and testnet ledger nodes, so those pages fail the
// same way on every machine (the connection drops) instead of depending on whether the public nodes are
// reachable. B has a closed port of its own rather than going through A, so what one spec's error pages
// do to A (its breakers) never reaches another spec through B.
// A closed port stays closed only while it is held: left unbound, the system may hand it to a server
// another spec starts (an anvil, a proxy) and the "failing" node answers 404. So each is held by a
// listener that drops every connection unanswered, as a node that is down would.
const [freeA, freeB, freeEvm, freeEvm2, freeLedger, freeNft, closedPortA, closedPortB] = freePortsSync(8);
const deadNodes = await Promise.all(
  [closedPortA, closedPortB].map(
    (port) =>
      new Promise((resolve, reject) => {
        const s = createServer((socket) => socket.destroy());
        s.once('error', reject);
        s.listen(port, '127.0.0.1', () => resolve(s));
      }),
  ),
);
const portA = Number(process.env.E2E_PORT ?? freeA);
const portB = Number(process.env.E2E_HOSTED_PORT ?? freeB);
const evmPort = Number(process.env.E2E_EVM_PORT ?? freeEvm);
const evm2Port = Number(process.env.E2E_EVM2_PORT ?? freeEvm2);
const ledgerPort = Number(process.env.E2E_LEDGER_PORT ?? freeLedger);
const nftPort = Number(process.env.E2E_NFT_PORT ?? freeNft);
if (!process.env.E2E_PORT) console.log(`e2e: A http://127.0.0.1:${portA}, B http://127.0.0.1:${portB}, evm ${evmPort}, evm2 ${evm2Port}, ledger ${ledgerPort}`);
export const E2E_API_KEY = 'e2e-api-key-0123456789abcdef';

// Both EVM devnets (A reads each from its node: its default nodes) and the ledger.
const nets = await startDevnets({ evmPort, evm2Port, ledgerPort, nftPort });
// The Far Lanterns' off-chain metadata, as `npm run dev` serves it (scripts/dev.mjs): A resolves ipfs://
// through the devnet's local gateway and may fetch from it; B shows the images through it too.
const nftGateway = `${nets.nftMetadata.url}/ipfs`;
const servers = [];
const stop = shutdownOnce(async () => {
  await Promise.all(
    servers.map(
      (s) =>
        new Promise((resolve) => {
          if (s.child.exitCode !== null) return resolve();
          s.child.once('exit', resolve);
          s.child.kill('SIGTERM');
        }),
    ),
  );
  await nets.stop();
  for (const s of deadNodes) s.close();
  for (const s of servers) rmSync(s.dataDir, { recursive: true, force: true });
});
const a = url(portA);
servers.push(
  start(portA, {
    DATA_API_KEY: '',
    API_KEYS: E2E_API_KEY,
    NFT_IPFS_GATEWAY: nftGateway,
    NFT_METADATA_ALLOW_HOSTS: `127.0.0.1:${nets.nftMetadata.port}`,
    LEDGER_API_URL_MAINNET: `http://127.0.0.1:${closedPortA}/v1`,
    LEDGER_API_URL_TESTNET: `http://127.0.0.1:${closedPortA}/v1`,
  }),
);
// A answering its health check has opened (and migrated) its database: B and the tests then meet a
// warm A, as they would in production.
await waitHealthy(a);
servers.push(
  start(portB, {
    DATA_API_KEY: E2E_API_KEY,
    DATA_API_URL: a,
    AUTH_API_URL: `${a}/api/auth`,
    LEDGER_API_URL_MAINNET: `http://127.0.0.1:${closedPortB}/api/ledger/mainnet`,
    LEDGER_API_URL_TESTNET: `http://127.0.0.1:${closedPortB}/api/ledger/testnet`,
    DEFAULT_CHAIN: 'devnet',
    NFT_IPFS_GATEWAY: nftGateway,
    // B also offers WalletConnect (a public client id; no relay is reachable from a test machine).
    WALLETCONNECT_PROJECT_ID: 'e2e0000000000000000000000000000e',
  }),
);

async function waitHealthy(base) {
  for (let i = 0; i < 600; i++) {
    try {
      // Health answers 200 while the process runs; `ok` is its database's state.
      if ((await (await fetch(`${base}/api/health`)).json()).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${base} did not become healthy`);
}

function url(port) {
  return `http://127.0.0.1:${port}`;
}

function start(port, env) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lantern-e2e-'));
  const child = spawn(process.execPath, ['scripts/server.mjs', '-p', String(port), '-H', '127.0.0.1'], {
    // Same process group as this script, so whatever way Playwright stops us, the servers stop too.
    stdio: 'inherit',
    env: {
      ...process.env,
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      DATA_DIR: dataDir,
      DEVNET_EVM_PORT: String(evmPort),
      DEVNET_EVM2_PORT: String(evm2Port),
      DEVNET_LEDGER_PORT: String(ledgerPort),
      SESSION_SECRET: process.env.SESSION_SECRET ?? 'e2e-session-secret-0123456789abcdef0123',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'warn',
      ...env,
    },
  });
  child.on('exit', (code) => stop(code ?? 1));
  return { child, dataDir };
}
