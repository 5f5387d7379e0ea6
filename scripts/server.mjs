#!/usr/bin/env node
// `npm start`: Next's production server behind a few lines that make the client address trustworthy
// and turn malformed URLs into 400s.
// Next only fills X-Forwarded-For when it is absent, so a client could name any address and dodge
// per-IP rate limits. Here the socket's peer is always appended, and lib/security/rate-limit.ts reads
// the entry TRUSTED_PROXY hops from the right.
import { createServer } from 'node:http';
import next from 'next';
import { warmUp } from './lib/warm-up.mjs';

const port = Number(process.env.PORT ?? argValue('-p') ?? 3000);
const hostname = process.env.HOST ?? argValue('-H') ?? '0.0.0.0';
const app = next({ dev: false, hostname, port });
const handle = app.getRequestHandler();
await app.prepare();
// Load every route before the first real request (LANTERN_WARM_UP=off skips it).
if (process.env.LANTERN_WARM_UP !== 'off') {
  const ms = await warmUp(handle, (line) => console.warn(line));
  console.log(`Lantern warmed up in ${ms} ms`);
}

const server = createServer((req, res) => {
  // Next throws while decoding a malformed %-sequence in a path parameter and answers 500: it is the
  // caller's mistake, so say so here, before Next sees it.
  const path = (req.url ?? '/').split('?')[0];
  if (!wellEncoded(path)) {
    const api = path.startsWith('/api/');
    res.writeHead(400, {
      'Content-Type': api ? 'application/json' : 'text/plain; charset=utf-8',
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
    });
    res.end(api ? JSON.stringify({ message: 'The path contains malformed percent-encoding.', code: 'invalid_request' }) : 'Bad request: the address contains malformed percent-encoding.\n');
    return;
  }
  const peer = req.socket.remoteAddress ?? 'unknown';
  const sent = req.headers['x-forwarded-for'];
  req.headers['x-forwarded-for'] = sent ? `${Array.isArray(sent) ? sent.join(', ') : sent}, ${peer}` : peer;
  handle(req, res);
});
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

function wellEncoded(path) {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

function argValue(flag) {
  const i = process.argv.indexOf(flag);
  return i > 0 ? process.argv[i + 1] : undefined;
}
