import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './ports';

/**
 * Starts a real production server of Lantern (`npm start`'s scripts/server.mjs, from the build `npm test` made) with the
 * given environment, on a free loopback port, with its own DATA_DIR so instances never share PGlite.
 */
export interface LanternInstance {
  url: string;
  dataDir: string;
  /** Everything the server printed so far (tests assert no secret is logged). */
  output: () => string;
  stop: () => Promise<void>;
  /** Stops the server as `npm start` is stopped (SIGTERM) and starts it again on the same port and data. */
  restart: () => Promise<void>;
  /** Kills the server at once (SIGKILL: no clean shutdown), keeping its data. */
  kill: () => Promise<void>;
}

/**
 * As `npm run dev` does (scripts/dev.mjs): ipfs:// resolves through the devnet's local gateway, which
 * may be fetched from, when the integration run started one (tests/integration/global-setup.ts).
 * A test that names its own NFT_IPFS_GATEWAY or NFT_METADATA_ALLOW_HOSTS overrides these.
 */
export function devnetNftEnv(): Record<string, string> {
  const gateway = process.env.LANTERN_TEST_NFT_GATEWAY;
  if (!gateway) return {};
  return { NFT_IPFS_GATEWAY: `${gateway}/ipfs`, NFT_METADATA_ALLOW_HOSTS: new URL(gateway).host };
}

export async function startLantern(env: Record<string, string | undefined> = {}): Promise<LanternInstance> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lantern-test-'));
  let output = '';
  const url = `http://127.0.0.1:${port}`;
  const launch = () => spawnLantern(port, dataDir, env, (d) => (output += d));
  let child = launch();
  await waitUntilUp(url, child, () => output);
  return {
    url,
    dataDir,
    output: () => output,
    stop: async () => {
      await stopChild(child);
      rmSync(dataDir, { recursive: true, force: true });
    },
    restart: async () => {
      await stopChild(child);
      child = launch();
      await waitUntilUp(url, child, () => output);
    },
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await gone;
    },
  };
}

function spawnLantern(port: number, dataDir: string, env: Record<string, string | undefined>, onOutput: (d: string) => void): ChildProcess {
  const child = spawn(process.execPath, [path.resolve('scripts/server.mjs'), '-p', String(port), '-H', '127.0.0.1'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      SESSION_SECRET: 'integration-test-session-secret-0123456789abcdef',
      RATE_LIMIT_PER_MINUTE: '0',
      DATA_DIR: dataDir,
      DATA_API_KEY: '',
      // Start-up warm-up (scripts/lib/warm-up.mjs) costs seconds per instance; tests that measure it turn it on.
      LANTERN_WARM_UP: 'off',
      // Production refuses to start without it; the instance's own loopback URL is where tests reach it.
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ...devnetNftEnv(),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => onOutput(String(d)));
  child.stderr!.on('data', (d) => onOutput(String(d)));
  return child;
}

async function waitUntilUp(url: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`next start exited (${child.exitCode}):\n${output()}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  child.kill('SIGKILL');
  throw new Error(`next start did not come up within 60 s:\n${output()}`);
}

export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const t = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(t);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
