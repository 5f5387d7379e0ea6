// The published API's GETs answered by their route handlers straight from `npm start`'s node:http front,
// without Next's routing and response plumbing: measured on the 2-core machine, Next took ~2 ms to reach a
// route handler and ~2 ms to send its answer, most of what a hosted-mode request over its upstream cost
// (issue 22: hosted overhead <= 5 ms p50) and a steady part of every other API answer.
//
// Nothing is routed here that Next has not routed first: a route is answered here only once Next has
// loaded its module (the warm-up loads them all), and only with the handler Next would call (the
// module's own GET, found through Next's build manifest), and only if that handler was made by api()
// (lib/api/handler.ts marks it): api() does everything per request (access, rate limit, validation,
// headers, the log line) whichever way it is called. The front then does what Next does around it:
// route parameters decoded from the path, the request's abort signal when the client goes away, `after`
// work once the answer is sent (lib/db answerFirst), gzip as Next's compression does it. Anything else
// (another method, a path Next would normalise or redirect, a route not loaded yet, a stream) goes to
// Next as before. API_FRONT=off sends everything to Next.
import { AsyncLocalStorage } from 'node:async_hooks';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzip } from 'node:zlib';
import { COMPRESSIBLE, ROUTE_VARY, gzipWanted } from '../../lib/http/compression.mjs';

/** Set by api() on the handlers it makes that the front may call (lib/api/handler.ts). */
const FRONT_HANDLER = Symbol.for('lantern.api.frontHandler');
/** Where answerFirst (lib/db) finds the work to run once the answer being made has been sent. */
const AFTER = Symbol.for('lantern.after');
/** Marks the requests the front hands a handler (api() logs `"front": true`). */
const VIA_FRONT = Symbol.for('lantern.api.viaFront');

const require = createRequire(import.meta.url);
const SEGMENT = /^[A-Za-z0-9._~!$&'()*+,;=:@%-]+$/;

/**
 * The front for the build in `distDir`, or null when it is turned off or the build has no app routes.
 * `serve(req, res)` answers a request and says true, or says false and sends nothing (Next answers it).
 */
export function apiFront(distDir, { log = console.error } = {}) {
  if (process.env.API_FRONT === 'off') return null;
  const manifestFile = path.join(distDir, 'server', 'app-paths-manifest.json');
  if (!existsSync(manifestFile)) return null;
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  /** Per number of path segments, the routes in Next's order: at each level a static segment before a dynamic one. */
  const bySize = new Map();
  for (const [page, file] of Object.entries(manifest)) {
    if (!page.startsWith('/api/') || !page.endsWith('/route')) continue;
    const parts = page.slice(1, -'/route'.length).split('/');
    // Catch-alls, optional segments, groups and parallel routes: Next's to match.
    if (parts.some((p) => p.startsWith('[[') || p.startsWith('[...') || p.startsWith('(') || p.startsWith('@'))) continue;
    const route = {
      parts: parts.map((p) => (p.startsWith('[') && p.endsWith(']') ? { param: p.slice(1, -1) } : { name: p })),
      file: path.join(distDir, 'server', file),
    };
    const list = bySize.get(parts.length) ?? [];
    list.push(route);
    bySize.set(parts.length, list);
  }
  const rank = (r) => r.parts.map((p) => (p.param ? '1' : '0')).join('');
  for (const list of bySize.values()) list.sort((a, b) => (rank(a) < rank(b) ? -1 : rank(a) > rank(b) ? 1 : 0));
  const afterStore = (globalThis[AFTER] ??= new AsyncLocalStorage());

  /** The loaded handler and parameters for this path, or undefined. */
  function match(pathname) {
    if (!pathname.startsWith('/api/') || pathname.endsWith('/')) return undefined;
    const segments = pathname.slice(1).split('/');
    const list = bySize.get(segments.length);
    if (!list) return undefined;
    for (const s of segments) if (!SEGMENT.test(s) || s === '.' || s === '..') return undefined;
    for (const route of list) {
      const params = {};
      let ok = true;
      for (let i = 0; i < segments.length && ok; i++) {
        const p = route.parts[i];
        if (p.name !== undefined) ok = p.name === segments[i];
        else {
          const value = decode(segments[i]);
          ok = value !== undefined;
          params[p.param] = value;
        }
      }
      if (!ok) continue;
      // The first route Next would pick: served here only if Next has loaded it and api() made its GET.
      const get = require.cache[route.file]?.exports?.routeModule?.userland?.GET;
      return get?.[FRONT_HANDLER] ? { get, params } : undefined;
    }
    return undefined;
  }

  function serve(req, res) {
    if (req.method !== 'GET') return false;
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const found = match(q < 0 ? url : url.slice(0, q));
    if (!found) return false;
    let request;
    const controller = new AbortController();
    try {
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) {
        if (Array.isArray(v)) for (const x of v) headers.append(k, x);
        else if (v !== undefined) headers.set(k, v);
      }
      request = new Request(`http://${req.headers.host || 'localhost'}${url}`, { method: 'GET', headers, signal: controller.signal });
      request[VIA_FRONT] = true;
    } catch {
      return false; // a Host or header the WHATWG Request refuses: Next answers it
    }
    // Work held until the answer is sent (answerFirst); once it is, what is held later starts at once.
    const answer = { sent: false, afters: [] };
    const runAfters = () => {
      answer.sent = true;
      for (const f of answer.afters.splice(0)) f();
    };
    res.once('close', () => {
      if (!res.writableFinished) controller.abort(new DOMException('The client closed the connection', 'AbortError'));
      runAfters();
    });
    res.once('finish', runAfters);
    afterStore
      .run(answer, () => found.get(request, { params: Promise.resolve(found.params) }))
      .then((response) => send(req, res, response))
      .catch((e) => {
        log('unhandled error answering an API request in the front', e);
        if (res.headersSent) return void res.destroy();
        res.writeHead(500, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
        res.end(JSON.stringify({ message: 'Lantern failed unexpectedly; the error has been logged.', code: 'internal_error' }));
      });
    return true;
  }

  return { serve };
}

/** A path segment as Next hands it to a route (percent-decoded), or undefined where Next should judge it. */
function decode(segment) {
  if (!segment.includes('%')) return segment;
  try {
    const v = decodeURIComponent(segment);
    return v.includes('/') || v.includes('\\') ? undefined : v;
  } catch {
    return undefined;
  }
}

async function send(req, res, response) {
  const headers = {};
  response.headers.forEach((v, k) => {
    if (k !== 'set-cookie') headers[k] = v;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  let body = response.body ? Buffer.from(await response.arrayBuffer()) : null;
  if (res.destroyed) return; // the client went away while the answer was made (api() logged it)
  const type = headers['content-type'] ?? '';
  headers.vary = headers.vary ? `${ROUTE_VARY}, ${headers.vary}` : ROUTE_VARY;
  if (body && COMPRESSIBLE.test(type)) {
    headers.vary += ', Accept-Encoding';
    if (gzipWanted(body, type, req.headers['accept-encoding'])) {
      body = await new Promise((resolve, reject) => gzip(body, (e, out) => (e ? reject(e) : resolve(out))));
      headers['content-encoding'] = 'gzip';
      if (res.destroyed) return;
    }
  }
  headers['content-length'] = String(body?.length ?? 0);
  res.writeHead(response.status, headers);
  res.end(body ?? undefined);
}
