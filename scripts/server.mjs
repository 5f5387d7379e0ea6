#!/usr/bin/env node
// `npm start`: Next's production server behind a few lines that make the client address trustworthy
// and answer what Next would turn into a 5xx (malformed requests, hostile server actions) with a JSON
// 4xx (scripts/lib/edge-guard.mjs).
// Next only fills X-Forwarded-For when it is absent, so a client could name any address and dodge
// per-IP rate limits. Here the socket's peer is always appended, and lib/security/rate-limit.ts reads
// the entry TRUSTED_PROXY hops from the right.
import { EventEmitter } from 'node:events';
import { createServer } from 'node:http';
import next from 'next';
import { warmUp } from './lib/warm-up.mjs';
import { MAX_HEADER_BYTES, guardAction, isActionRequest, onClientError, onConnect, onUpgrade, refuseBadTarget } from './lib/edge-guard.mjs';
import { parsePublicOrigins } from '../lib/security/public-origins.mjs';

// Server actions are accepted only from these origins (lib/config.ts refuses to start without one).
const publicOrigins = parsePublicOrigins(process.env.PUBLIC_URL);
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
await app.prepare();
// Load every route before the first real request (LANTERN_WARM_UP=off skips it).
if (process.env.LANTERN_WARM_UP !== 'off') {
  const ms = await warmUp(handle, (line) => console.warn(line));
  console.log(`Lantern warmed up in ${ms} ms`);
}

const onRequest = (req, res) => {
  // Requests Next would answer with a 5xx, an empty body or HTML get a JSON 4xx here (edge-guard.mjs).
  if (refuseBadTarget(req, res)) return;
  const peer = req.socket.remoteAddress ?? 'unknown';
  const sent = req.headers['x-forwarded-for'];
  req.headers['x-forwarded-for'] = sent ? `${Array.isArray(sent) ? sent.join(', ') : sent}, ${peer}` : peer;
  if (isActionRequest(req)) {
    guardAction(req, res, publicOrigins, (replayed) => handle(replayed, res)).catch((e) => {
      console.error('server action guard failed', e);
      if (!res.headersSent) res.writeHead(500).end();
    });
    return;
  }
  handle(req, res);
};
const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, onRequest);
server.on('clientError', onClientError);
server.on('upgrade', onUpgrade(onRequest));
server.on('connect', onConnect);
server.keepAliveTimeout = 65_000; // longer than common load balancers' idle timeout
server.listen(port, hostname, () => console.log(`Lantern listening on http://${hostname}:${port}`));

for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    // Idle keep-alive sockets would hold close() open for a minute: drop them, finish the rest.
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 3000).unref();
  });
}

function argValue(flag) {
  const i = process.argv.indexOf(flag);
  return i > 0 ? process.argv[i + 1] : undefined;
}
