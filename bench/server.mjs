// A production Lantern for one benchmark: on its own port, with a database of its own that goes with it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts `npm start`'s server with `env` over the bench defaults and resolves once it answers (a static
 * file: listening; the warm-up of every route may still be running behind it, see `/api/health?ready`).
 * `listeningMs` is the time from spawn to that answer. SERVER_NODE_ARGS adds node flags to the server
 * (`--cpu-prof --cpu-prof-dir=/tmp/prof` to profile one); SERVER_SCRIPT replaces scripts/server.mjs
 * (`node_modules/next/dist/bin/next start`: the same build without Lantern's own server).
 */
export async function startServer(port, env = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lantern-bench-'));
  const started = performance.now();
  const child = spawn(process.execPath, [...(process.env.SERVER_NODE_ARGS ? process.env.SERVER_NODE_ARGS.split(' ') : []), ...(process.env.SERVER_SCRIPT ? process.env.SERVER_SCRIPT.split(' ') : ['scripts/server.mjs']), '-p', String(port), '-H', '127.0.0.1'], {
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
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((r) => child.once('exit', r));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  };
  for (let i = 0; i < 2400; i++) {
    try {
      await (await fetch(`${url}/robots.txt`)).arrayBuffer();
      return { url, pid: child.pid, listeningMs: performance.now() - started, stop };
    } catch {
      if (child.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  await stop();
  throw new Error(`the server on port ${port} did not start`);
}

/** Milliseconds until `url`'s `/api/health?ready` answers 200 (the warm-up done and the database answering). */
export async function untilReady(url) {
  const t = performance.now();
  for (let i = 0; i < 2400; i++) {
    const res = await fetch(`${url}/api/health?ready`);
    await res.arrayBuffer();
    if (res.status === 200) return performance.now() - t;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} did not become ready`);
}
