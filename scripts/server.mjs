#!/usr/bin/env node
// `npm start`: Next's production server behind a few lines that make the client address trustworthy
// and answer what Next would turn into a 5xx (malformed requests, hostile server actions) with a JSON
// 4xx (lib/edge/, the front door: docs/architecture.md says which of its checks run where).
// Next only fills X-Forwarded-For when it is absent, so a client could name any address and dodge
// per-IP rate limits. Here the socket's peer is always appended, and lib/security/rate-limit.ts reads
// the entry TRUSTED_PROXY hops from the right.
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import next from 'next';
import { warmUp } from './lib/warm-up.mjs';
import { apiFront } from './lib/api-front.mjs';
import { runServerShutdownHooks } from './lib/shutdown.mjs';
import { parsePublicOrigins } from '../lib/public-origins.mjs';

// The .env files, loaded as Next loads them (the copy of @next/env that Next itself uses), before any
// setting is read here: Next would load them only inside next() below.
const { loadEnvConfig } = createRequire(createRequire(import.meta.url).resolve('next'))('@next/env');
loadEnvConfig(process.cwd(), false);

// Server actions are accepted only from these origins (lib/config.ts refuses to start without one).
let publicOrigins;
try {
  publicOrigins = parsePublicOrigins(process.env.PUBLIC_URL);
} catch (e) {
  // Worded as lib/config.ts words it at start-up, without a stack.
  console.error(`Lantern's configuration is invalid:\n  ${e.message}`);
  process.exit(1);
}
const port = Number(process.env.PORT ?? argValue('-p') ?? 3000);
const hostname = process.env.HOST ?? argValue('-H') ?? '0.0.0.0';
// Next would bind its WebSocket handler (development's hot reload; production has none) to the first
// request's server and close every `Connection: Upgrade` request unanswered: give it a server of its own.
const app = next({ dev: false, hostname, port, httpServer: new EventEmitter() });
// lib/clock.ts: a test server's clock may run ahead; say so, so it is never mistaken for a real one.
if (process.env.LANTERN_TEST_CLOCK_FILE) {
  console.warn(`LANTERN_TEST_CLOCK_FILE is set: this server's clock runs ahead by the milliseconds in ${process.env.LANTERN_TEST_CLOCK_FILE} (tests only).`);
}
if (Number(process.env.LANTERN_TEST_CLOCK_OFFSET_MS)) {
  console.warn(`LANTERN_TEST_CLOCK_OFFSET_MS is set: this server's clock runs ${process.env.LANTERN_TEST_CLOCK_OFFSET_MS} ms ahead of the wall clock (tests only).`);
}
const handle = app.getRequestHandler();
// Whole answers of the API's cached GETs, kept by the route handlers (lib/api/answer-cache.ts, which says
// when they hold) and sent from here again without asking Next. Set before any request: only `npm start` keeps them.
const answers = (globalThis[Symbol.for('lantern.answers')] = { entries: new Map(), bytes: 0 });
// The API's other GETs, answered by their route handlers without Next's routing once Next has loaded them.
const front = apiFront(path.join(process.cwd(), '.next'), { log: (message, e) => console.error(message, e) });
await app.prepare();
// One request goes through before listening: it runs start-up's checks (a refused configuration or EVM
// node stops the server here, never after it listened; the database opens behind the listening server). The warm-up of every route
// (LANTERN_WARM_UP=off skips it) runs after the server listens, beside real requests, which are served
// as they come rather than queued behind it; until it is done `/api/health?ready` answers 503
// (and after it, while the database is unavailable).
await warmUp(handle, (line) => console.warn(line), ['/robots.txt']);
let ready = process.env.LANTERN_WARM_UP === 'off';
// The edge guard (lib/edge/), compiled by `next build` into the instrumentation bundle, whose register()
// has run by now (app.prepare(), at the latest the request above) and left it on globalThis.
const edge = globalThis[Symbol.for('lantern.edge')];
if (!edge) {
  console.error('The build has no edge guard (lib/edge/ via instrumentation.ts): run `next build` again.');
  process.exit(1);
}
const { actionIdsOf, createGuardedServer, guardAction, isActionRequest } = edge;
// Start-up (lib/startup.ts) must have finished, not only begun, before the server listens.
await globalThis[Symbol.for('lantern.started')];
// The build's server actions: an id not among them is answered by the guard (lib/edge/actions.ts).
const actionIds = actionIdsOf(readOptional(path.join(process.cwd(), '.next/server/server-reference-manifest.json')));

// Requests Next would answer with a 5xx, an empty body or HTML get a JSON 4xx first (lib/edge/server.ts).
const server = createGuardedServer((req, res) => {
  if (!ready && isReadinessProbe(req.url)) {
    // Readiness for load balancers and orchestrators: not while warming up, answered here without Next;
    // once warm, the route answers it (app/api/health: the database must answer too).
    res.writeHead(503, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }).end(JSON.stringify({ ready: false, reason: 'warming_up' }));
    return;
  }
  const peer = req.socket.remoteAddress ?? 'unknown';
  const sent = req.headers['x-forwarded-for'];
  req.headers['x-forwarded-for'] = sent ? `${Array.isArray(sent) ? sent.join(', ') : sent}, ${peer}` : peer;
  if (req.method === 'GET') {
    const kept = answers.entries.get(req.url);
    if (kept !== undefined && kept.serve(req, res)) return;
    if (front?.serve(req, res)) return;
  }
  if (isActionRequest(req)) {
    guardAction(req, res, publicOrigins, (replayed) => handle(replayed, res), actionIds).catch((e) => {
      console.error('server action guard failed', e);
      if (!res.headersSent) res.writeHead(500).end();
    });
    return;
  }
  handle(req, res);
});
server.keepAliveTimeout = 65_000; // longer than common load balancers' idle timeout
server.listen(port, hostname, () => {
  console.log(`Lantern listening on http://${hostname}:${port}`);
  if (ready) return;
  warmUp(handle, (line) => console.warn(line)).then((ms) => {
    ready = true;
    console.log(`Lantern warmed up in ${ms} ms`);
  });
});

let stopping = false;
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, async () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(0), 5000).unref();
    // Live streams end first (their browsers reconnect elsewhere) and followed chains' leases pass on.
    await runServerShutdownHooks();
    // Idle keep-alive sockets would hold close() open for a minute: drop them, finish the rest.
    server.close(() => process.exit(0));
    server.closeIdleConnections();
  });
}

/** `GET /api/health?ready` (any value, or none). */
function isReadinessProbe(url = '') {
  const q = url.indexOf('?');
  if (q < 0 || url.slice(0, q) !== '/api/health') return false;
  return new URLSearchParams(url.slice(q + 1)).has('ready');
}

function readOptional(file) {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function argValue(flag) {
  const i = process.argv.indexOf(flag);
  return i > 0 ? process.argv[i + 1] : undefined;
}
