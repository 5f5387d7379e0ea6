// A production Lantern for one benchmark: on its own port, with a database of its own that goes with it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
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
 * `acceptingMs` is the time from spawn to the first TCP connection accepted (what a load balancer's TCP
 * check and issue 22's "accepts connections" mean), `listeningMs` to the first HTTP answer (that answer
 * can wait behind one warm-up step, a route's code loading, which no request can interrupt).
 * SERVER_NODE_ARGS adds node flags to the server (`--cpu-prof --cpu-prof-dir=/tmp/prof` to profile one);
 * `script` (or SERVER_SCRIPT) replaces scripts/server.mjs (`node_modules/next/dist/bin/next start`: the
 * same build without Lantern's own server, the cold-start section's floor).
 */
export async function startServer(port, env = {}, { script = process.env.SERVER_SCRIPT } = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lantern-bench-'));
  const started = performance.now();
  const child = spawn(process.execPath, [...(process.env.SERVER_NODE_ARGS ? process.env.SERVER_NODE_ARGS.split(' ') : []), ...(script ? script.split(' ') : ['scripts/server.mjs']), '-p', String(port), '-H', '127.0.0.1'], {
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
  // A TCP probe every 10 ms until the socket accepts, then the HTTP probe as before.
  let acceptingMs;
  for (let i = 0; i < 12_000 && acceptingMs === undefined && child.exitCode === null; i++) {
    if (await accepts(port)) acceptingMs = performance.now() - started;
    else await new Promise((r) => setTimeout(r, 10));
  }
  for (let i = 0; i < 2400; i++) {
    try {
      await (await fetch(`${url}/robots.txt`)).arrayBuffer();
      return { url, pid: child.pid, acceptingMs, listeningMs: performance.now() - started, stop };
    } catch {
      if (child.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  await stop();
  throw new Error(`the server on port ${port} did not start`);
}

function accepts(port) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
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
