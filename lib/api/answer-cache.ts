import 'server-only';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { Keep } from '@/lib/cache';
import { clock } from '@/lib/clock';
import { isLanternError } from '@/lib/errors';
import { log, requestLog } from '@/lib/log';
import { requestIdFor } from '@/lib/security/headers';
import { enforceRateLimit } from '@/lib/security/rate-limit';
import { requireApiAccess } from './access';
import { apiHeaders, errorResponse, withApiHeaders } from './responses';
import { ROUTE_VARY, gzipWanted } from '@/lib/http/compression.mjs';

export type { Keep };

/**
 * Whole answers of the published API's cached GETs (history, NFTs, tokens, approvals, stats, ledger
 * blocks), kept where `npm start`'s front (scripts/server.mjs) finds them before Next is asked: a repeat is
 * sent from here, skipping Next's routing, which is most of what a cached answer costs (issue 22: cached
 * endpoints at >= 80% of a bare route).
 *
 * An answer is kept only while the route itself would send the same bytes: no longer than the cache entry it
 * came from (`until`, Lantern's clock), and only while `fresh()` holds (in node mode: the chain's head that
 * keyed it is still the one shared, checked and its node's breaker closed, so a new block or a breaker that
 * opened sends the request to the route again). Each repeat still goes through everything per request the
 * route runs: the access check (a refused one is left to the route, to answer it), the rate limit, the API's
 * headers with a request id of its own, gzip when asked, and the request's log line.
 *
 * The store lives on globalThis: the route bundles each hold a copy of this module, and scripts/server.mjs
 * turns it on (`npm run dev` and `next start` have no front, so nothing is kept there).
 */

interface Answer {
  body: Uint8Array;
  /** The route's own headers (the API's shared ones are added per request). */
  headers: Record<string, string>;
  keep: Keep;
  open: boolean;
  /** Sends the answer to this request, or says false (stale, or a refusal the route must word) and sends nothing. */
  serve(req: IncomingMessage, res: ServerResponse): boolean;
}

interface Store {
  entries: Map<string, Answer>;
  bytes: number;
}

// Made by scripts/server.mjs (`{ entries: new Map(), bytes: 0 }`), which looks each GET up in `entries` by its raw path and query.
const STORE = Symbol.for('lantern.answers');
const MAX_BYTES = 32 * 1024 * 1024;
const MAX_ENTRIES = 20_000;

const store = (): Store | undefined => (globalThis as unknown as Record<symbol, Store | undefined>)[STORE];

const keeps = new WeakMap<Response, { keep: Keep; body: Uint8Array }>();

/** Marks a route's 200 as one the front may send again while `keep` holds (api() keeps it). */
export function keepAnswer(res: Response, body: Uint8Array, keep: Keep | undefined): Response {
  if (keep && keep.until > clock.now() && store()) keeps.set(res, { keep, body });
  return res;
}

/** api()'s side: a GET answered 200 with an answer marked by keepAnswer is kept under its path and query. */
export function rememberAnswer(req: Request, res: Response, open: boolean): void {
  const s = store();
  const marked = s && req.method === 'GET' && res.status === 200 ? keeps.get(res) : undefined;
  if (!s || !marked) return;
  const url = new URL(req.url);
  const key = url.pathname + url.search;
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    headers[k] = v;
  });
  const answer: Answer = { body: marked.body, headers, keep: marked.keep, open, serve: (r, w) => serve(s, key, answer, r, w) };
  drop(s, key);
  s.entries.set(key, answer);
  s.bytes += answer.body.byteLength;
  for (const [k] of s.entries) {
    if (s.bytes <= MAX_BYTES && s.entries.size <= MAX_ENTRIES) break;
    drop(s, k);
  }
}

function drop(s: Store, key: string) {
  const old = s.entries.get(key);
  if (!old) return;
  s.entries.delete(key);
  s.bytes -= old.body.byteLength;
}

/** A request as the API's helpers read it (headers, method, URL), made from node's own without copying. */
function requestOf(req: IncomingMessage): Request {
  const get = (name: string): string | null => {
    const v = req.headers[name];
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
  };
  return { method: 'GET', url: `http://lantern${req.url ?? '/'}`, headers: { get, has: (n: string) => get(n) !== null } } as unknown as Request;
}

function serve(s: Store, key: string, a: Answer, req: IncomingMessage, res: ServerResponse): boolean {
  if (!(a.keep.until > clock.now() && a.keep.fresh())) {
    if (s.entries.get(key) === a) drop(s, key);
    return false;
  }
  const request = requestOf(req);
  if (!a.open) {
    try {
      requireApiAccess(request);
    } catch {
      return false; // the route answers the refusal, in its words
    }
  }
  respond(a, request, req, res).catch((e) => {
    log().error({ err: e }, 'unhandled error sending a kept answer');
    if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    res.end(JSON.stringify({ message: 'Lantern failed unexpectedly; the error has been logged.', code: 'internal_error' }));
  });
  return true;
}

const gzipped = new WeakMap<Uint8Array, Buffer>();

async function respond(a: Answer, request: Request, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const started = performance.now();
  const requestId = requestIdFor(request.headers.get('x-request-id'));
  const shared = apiHeaders(request, requestId);
  try {
    await enforceRateLimit(request.headers);
  } catch (e) {
    if (!isLanternError(e)) throw e;
    // The route's own refusal (on ledger paths in the node's shape), with the API's headers.
    const refusal = withApiHeaders(request, errorResponse(e, request, requestId), requestId);
    const headers: Record<string, string> = {};
    refusal.headers.forEach((v, k) => {
      headers[k] = v;
    });
    res.writeHead(refusal.status, headers).end(Buffer.from(await refusal.arrayBuffer()));
    logLine(request, requestId, refusal.status, started);
    return;
  }
  // As Next sends the route's answer (lib/http/compression.mjs).
  const vary = `${ROUTE_VARY}${shared.Vary ? `, ${shared.Vary}` : ''}, Accept-Encoding`;
  const headers: Record<string, string | number> = { ...a.headers, ...shared, Vary: vary };
  let body = a.body;
  if (gzipWanted(body, a.headers['content-type'], request.headers.get('accept-encoding'))) {
    let gz = gzipped.get(body);
    if (!gz) gzipped.set(body, (gz = gzipSync(body)));
    body = gz;
    headers['Content-Encoding'] = 'gzip';
  }
  headers['Content-Length'] = body.byteLength;
  res.writeHead(200, headers).end(body);
  logLine(request, requestId, 200, started);
}

/** The line api() logs for a request it answered (info; nothing when info is off), saying it was a kept answer. */
function logLine(request: Request, requestId: string, status: number, started: number) {
  if (!log().isLevelEnabled('info')) return;
  const { pathname } = new URL(request.url);
  requestLog(request, requestId).info({ method: 'GET', path: pathname, status, ms: Math.round(performance.now() - started), kept: true }, 'api request');
}
