// The floor for Lantern's cached endpoints: a bare Next.js app (this repository's own `next` and `react`)
// whose one route handler returns a constant JSON, built and served by `next start` from a temporary
// folder. `/api/bare/<name>` sends the bytes of `bodies[name]` as they were given (read once at start),
// so an endpoint is compared with Next sending the same answer and nothing else; `/api/bare/tiny` is a
// 50-byte constant. An endpoint's requests/s is read as a fraction of its floor's, measured in the same run.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROUTE = `import { readFileSync } from 'node:fs';
export const dynamic = 'force-dynamic';
const bodies = new Map(Object.entries(JSON.parse(readFileSync(process.cwd() + '/bodies.json', 'utf8'))).map(([k, v]) => [k, new TextEncoder().encode(v)]));
export async function GET(_req, { params }) {
  const body = bodies.get((await params).name);
  return body ? new Response(body, { headers: { 'Content-Type': 'application/json' } }) : new Response(null, { status: 404 });
}
`;

/**
 * Builds the bare app and starts it on `port` serving `bodies` (name to JSON text); resolves to
 * `{ url(name), stop, pid }` once it answers. BARE_NODE_ARGS adds node flags to `next start` (a profile
 * of the floor beside one of Lantern's).
 */
export async function startBareRoute(port, bodies = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'lantern-bare-route-'));
  mkdirSync(path.join(dir, 'app/api/bare/[name]'), { recursive: true });
  writeFileSync(path.join(dir, 'app/api/bare/[name]/route.js'), ROUTE);
  writeFileSync(path.join(dir, 'bodies.json'), JSON.stringify({ tiny: JSON.stringify({ cursor: null, page: 0, page_size: 25, result: [] }), ...bodies }));
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'bare-route', private: true }));
  // Turbopack compiles only files under its root: '/' lets it follow the link to this repository's packages.
  writeFileSync(path.join(dir, 'next.config.mjs'), "export default { turbopack: { root: '/' } };\n");
  symlinkSync(path.resolve('node_modules'), path.join(dir, 'node_modules'), 'dir');
  const nextBin = path.resolve('node_modules/next/dist/bin/next');
  const env = { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' };
  const stopped = () => rmSync(dir, { recursive: true, force: true });
  try {
    await new Promise((resolve, reject) => {
      const c = spawn(process.execPath, [nextBin, 'build'], { cwd: dir, env, stdio: 'ignore' });
      c.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the bare route's next build exited ${code}`))));
    });
  } catch (e) {
    stopped();
    throw e;
  }
  const child = spawn(process.execPath, [...(process.env.BARE_NODE_ARGS ? process.env.BARE_NODE_ARGS.split(' ') : []), nextBin, 'start', '-p', String(port), '-H', '127.0.0.1'], { cwd: dir, env, stdio: 'ignore' });
  const exited = new Promise((r) => child.once('exit', r));
  const url = (name) => `http://127.0.0.1:${port}/api/bare/${name}`;
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    stopped();
  };
  for (let i = 0; i < 1200; i++) {
    try {
      const res = await fetch(url('tiny'));
      await res.arrayBuffer();
      if (res.ok) return { url, stop, pid: child.pid };
    } catch {
      if (child.exitCode !== null) break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  await stop();
  throw new Error('the bare Next.js route did not start');
}
