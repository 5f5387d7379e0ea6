// The floor for Lantern's cached endpoints: a bare Next.js app (this repository's own `next` and `react`)
// whose route handlers return constant JSON, built and served by `next start` from a temporary folder.
// Each endpoint's floor is a route handler at the same route pattern as Lantern's (`app/api/v2.2/[address]/nft`)
// sending the bytes of its `body` as they were given (read once at start), and it is asked the same
// path and query string Lantern is asked: Next does the same routing and URL work for both (a query
// string costs Next's request handling something too), and the only difference left is what Lantern
// does itself. `/api/bare/tiny` is a 50-byte constant. An endpoint's requests/s is read as a fraction
// of its floor's, measured in the same run.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const TINY = `export const dynamic = 'force-dynamic';
const body = new TextEncoder().encode(${JSON.stringify(JSON.stringify({ cursor: null, page: 0, page_size: 25, result: [] }))});
export async function GET() {
  return new Response(body, { headers: { 'Content-Type': 'application/json' } });
}
`;

// One endpoint's floor: its params are awaited as Lantern's handlers await theirs, then the bytes go out.
const route = (name) => `import { readFileSync } from 'node:fs';
export const dynamic = 'force-dynamic';
const body = new TextEncoder().encode(JSON.parse(readFileSync(process.cwd() + '/bodies.json', 'utf8'))[${JSON.stringify(name)}]);
export async function GET(_req, { params }) {
  await params;
  return new Response(body, { headers: { 'Content-Type': 'application/json' } });
}
`;

// The floor of a proxy: forwards its path below /api/bare/proxy and its query to BARE_PROXY_UPSTREAM with
// the key a hosted-mode Lantern would add, and passes the answer's bytes on unread (no validation, no
// breaker, no cache).
const PROXY = `export const dynamic = 'force-dynamic';
const upstream = process.env.BARE_PROXY_UPSTREAM;
const key = process.env.BARE_PROXY_KEY ?? '';
export async function GET(req, { params }) {
  const { path } = await params;
  const res = await fetch(upstream + '/' + path.join('/') + new URL(req.url).search, { headers: { 'X-API-Key': key, Accept: 'application/json', 'Accept-Encoding': 'identity' }, cache: 'no-store' });
  return new Response(await res.arrayBuffer(), { status: res.status, headers: { 'Content-Type': 'application/json' } });
}
`;

/**
 * Builds the bare app and starts it on `port` serving `endpoints`: name to `{ body, route, url }`, the
 * JSON text, the app-router pattern of Lantern's route (`api/ledger/[network]/blocks/by_version/[version]`)
 * and Lantern's URL for it (whose path and query the floor is asked). Resolves to `{ url(name), stop, pid }`
 * once it answers (`url('tiny')`: the 50-byte route). `proxy: { upstream, key }` adds the bare proxy:
 * `proxyUrl(path)` is `path` (with its query) asked of `upstream` through it. BARE_NODE_ARGS adds node
 * flags to `next start` (a profile of the floor beside one of Lantern's).
 */
export async function startBareRoute(port, endpoints = {}, { proxy } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'lantern-bare-route-'));
  const routeFile = (pattern, text) => {
    mkdirSync(path.join(dir, 'app', pattern), { recursive: true });
    writeFileSync(path.join(dir, 'app', pattern, 'route.js'), text);
  };
  routeFile('api/bare/tiny', TINY);
  if (proxy) routeFile('api/bare/proxy/[...path]', PROXY);
  const paths = { tiny: '/api/bare/tiny' };
  for (const [name, e] of Object.entries(endpoints)) {
    routeFile(e.route, route(name));
    const u = new URL(e.url);
    paths[name] = u.pathname + u.search;
  }
  writeFileSync(path.join(dir, 'bodies.json'), JSON.stringify(Object.fromEntries(Object.entries(endpoints).map(([name, e]) => [name, e.body]))));
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'bare-route', private: true }));
  // Turbopack compiles only files under its root: '/' lets it follow the link to this repository's packages.
  writeFileSync(path.join(dir, 'next.config.mjs'), "export default { turbopack: { root: '/' } };\n");
  symlinkSync(path.resolve('node_modules'), path.join(dir, 'node_modules'), 'dir');
  const nextBin = path.resolve('node_modules/next/dist/bin/next');
  const env = { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', ...(proxy ? { BARE_PROXY_UPSTREAM: proxy.upstream, BARE_PROXY_KEY: proxy.key } : {}) };
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
  const url = (name) => `http://127.0.0.1:${port}${paths[name]}`;
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    stopped();
  };
  for (let i = 0; i < 1200; i++) {
    try {
      const res = await fetch(url('tiny'));
      await res.arrayBuffer();
      if (res.ok) return { url, proxyUrl: (p) => `http://127.0.0.1:${port}/api/bare/proxy${p}`, stop, pid: child.pid };
    } catch {
      if (child.exitCode !== null) break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  await stop();
  throw new Error('the bare Next.js route did not start');
}
