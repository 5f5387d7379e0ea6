// What `npm start` (scripts/server.mjs) answers itself, before Next sees a request: everything a client
// can send that Next would answer with a 5xx, an empty body or an HTML page. Each answer is JSON
// `{message, code}` with the right 4xx status.
//
// - An HTTP/1.1 request without Host, request targets that are not a path (`GET *`, absolute-form),
//   malformed %-encoding: 400.
// - Methods a path does not serve (TRACE, PROPFIND, ..., CONNECT; PUT or DELETE on a page): 405 with the
//   path's own Allow; OPTIONS on a page: 204 with it.
// - `Expect` other than 100-continue: 417 naming the header.
// - Dot segments (`/api/%2e%2e/health`) under /api: 404 (Next would resolve them to the HTML 404 page);
//   /_next/image (Next's image optimizer, unused): 404.
// - Oversized request lines and headers (node:http's parser refuses them): 414 / 431 naming the limit.
// - Server actions (any POST to a page): refused unless Origin is one of PUBLIC_URL's origins (403),
//   larger than MAX_ACTION_BYTES (413), or not a request React's reply decoder reads safely (400/415):
//   only the argument shapes Lantern's actions take get through, so the action itself never runs on
//   anything else. An action id this build does not have: 404 (Next would log a stack for it). The body
//   is read here and replayed to Next unchanged.
import { IncomingMessage, STATUS_CODES, ServerResponse, createServer } from 'node:http';
import { createRequire } from 'node:module';
import { matchOrigin } from '../../lib/public-origins.mjs';

// Next's own reader of the router-state header: Next throws (500) on a value it cannot read.
const { parseAndValidateFlightRouterState } = createRequire(import.meta.url)('next/dist/server/app-render/parse-and-validate-flight-router-state.js');

/** node:http's limit on the request line plus headers (its default, named so messages can say it). */
export const MAX_HEADER_BYTES = 16 * 1024;
/** Largest server-action body: Lantern's largest (a signed 8 KB message) is far below. */
export const MAX_ACTION_BYTES = 64 * 1024;
/** Deepest nesting of arrays and objects in an action's arguments (Lantern's are at most 3 deep). */
export const MAX_ACTION_DEPTH = 32;

const ROUTED_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const BASE_HEADERS = { 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' };

/** What Lantern serves as a whole (`OPTIONS *`), and what a non-path target (CONNECT's) is told. */
export const SERVER_METHODS = 'GET, HEAD, POST, OPTIONS';

/**
 * The methods a path serves, for Allow. Mirrors the route handlers' `otherMethods` (lib/api/handler.ts);
 * pages also take POST (server actions); files and the CSV download are GET only.
 */
export function allowedMethods(pathname) {
  if (/^\/api\/auth\/challenge\/(request|verify)\/evm\/?$/.test(pathname)) return 'POST, OPTIONS';
  if (pathname === '/api' || pathname.startsWith('/api/')) return 'GET, HEAD, OPTIONS';
  if (pathname.startsWith('/_next/') || /\/(history\.csv|opengraph-image[^/]*)\/?$/.test(pathname) || /^\/[^/]+\.[a-z0-9]+$/i.test(pathname)) return 'GET, HEAD';
  return 'GET, HEAD, POST';
}

/** "GET or POST": the methods worth naming in a 405's sentence. */
const methodsToUse = (allow) =>
  allow
    .split(', ')
    .filter((m) => m !== 'HEAD' && m !== 'OPTIONS')
    .join(' or ');

const notAllowed = (method, allow) => `${method} is not allowed here; use ${methodsToUse(allow)}.`;

/**
 * node:http's server with every check of this file in front of `onRequest`, which sees only requests
 * with a path target, a routed method and a readable head (server actions still go to guardAction).
 */
export function createGuardedServer(onRequest) {
  const handler = (req, res) => {
    headParsed(req, res);
    if (refuseBadTarget(req, res)) return;
    onRequest(req, res);
  };
  // Without Host, node:http would answer a bare 400 itself; refuseBadTarget answers it in words.
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES, requireHostHeader: false }, handler);
  server.on('connection', watchHeads);
  server.on('clientError', onClientError);
  server.on('checkExpectation', onCheckExpectation);
  server.on('upgrade', onUpgrade(handler));
  server.on('connect', onConnect);
  return server;
}

function errorBody(pathname, status, code, message) {
  const body = { message, code };
  // Under /api/ledger/ errors also carry the ledger node's fields (see lib/api/ledger-errors.ts).
  if (pathname.startsWith('/api/ledger/')) Object.assign(body, { error_code: status === 400 ? 'invalid_input' : 'web_framework_error', vm_error_code: null });
  return JSON.stringify(body);
}

function sendJson(res, pathname, status, code, message, extra = {}) {
  const body = errorBody(pathname, status, code, message);
  res.writeHead(status, { ...BASE_HEADERS, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...extra });
  res.end(body);
}

/**
 * A whole HTTP/1.1 response written on a socket the HTTP parser has given up on; the connection closes.
 * The answer to a HEAD has no body (a client would read one as garbage after the response).
 */
export function rawResponse(status, code, message, extra = {}, head = false) {
  const body = JSON.stringify({ message, code });
  const headers = { ...BASE_HEADERS, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Connection: 'close', ...extra };
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n${head ? '' : body}`;
}

/**
 * node:http's `clientError`: the request could not be parsed. Node's default answer is a bare status
 * line; this one says what was wrong and names the limit.
 */
export function onClientError(err, socket) {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  let response;
  const head = headMethod(err, socket) === 'HEAD';
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    // Which part overflowed: the URL when the head so far has no line end (the request line never ended).
    response = requestLineEnded(err, socket)
      ? rawResponse(431, 'request_headers_too_large', `The request headers are too large: the request line and headers together may be at most ${MAX_HEADER_BYTES / 1024} KB.`, {}, head)
      : rawResponse(414, 'uri_too_long', `The request URL is too long: the request line and headers together may be at most ${MAX_HEADER_BYTES / 1024} KB.`, {}, head);
  } else if (err.code === 'HPE_INVALID_METHOD' && /^[A-Za-z][A-Za-z0-9-]* /.test(err.rawPacket?.toString('latin1') ?? '')) {
    // A method token node:http does not know (FOO): the same answer as for one it knows but Next does not route.
    const [, method, target = ''] = /^([A-Za-z][A-Za-z0-9-]*) (\S*)/.exec(err.rawPacket.toString('latin1'));
    const allow = target.startsWith('/') ? allowedMethods(target.split('?')[0]) : SERVER_METHODS;
    response = rawResponse(405, 'method_not_allowed', notAllowed(method.slice(0, 32), allow), { Allow: allow });
  } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT' || err.code === 'ERR_HTTP_HEADERS_TIMEOUT') {
    response = rawResponse(408, 'request_timeout', 'The request was not sent in time.', {}, head);
  } else {
    response = rawResponse(400, 'invalid_request', 'The request is not valid HTTP/1.1.', {}, head);
  }
  socket.end(response);
}

// ------------------------------------------------------------------------------------------------
// Where a request head's first line ended
//
// node:http reads a connection in segments and says only which segment overflowed the header limit
// (`err.rawPacket`). A head sent in several segments (a 20 KB header in 4 KB writes) overflows in a
// segment that holds no line end, though the request line ended long before. So each connection
// notes, for the head being received, whether a line end has come yet; a head begins on a new
// connection, and again once the previous request has been read to its end and answered.
// (Adding a `data` listener makes node:http parse in JavaScript rather than in C++: Node supports this,
// and it costs one call per segment.)

const HEAD = Symbol('lantern.head');

/** node:http's `connection`: start watching the connection's first head. */
export function watchHeads(socket) {
  const state = { receiving: true, lineEnded: false, lastWasCr: false, method: undefined };
  socket[HEAD] = state;
  socket.on('data', (chunk) => {
    if (!state.receiving) return;
    state.method ??= methodOf(chunk);
    if (state.lineEnded) return;
    state.lineEnded = hasLineEnd(chunk, chunk.length, state.lastWasCr);
    state.lastWasCr = chunk[chunk.length - 1] === 0x0d;
  });
}

/**
 * Call for every request node:http parsed a head of (the `request` and `checkExpectation` events): the
 * connection's next head begins after this request's body and answer.
 */
export function headParsed(req, res) {
  const state = req.socket?.[HEAD];
  if (!state) return;
  state.receiving = false;
  let pending = 2;
  const next = () => {
    if (--pending > 0) return;
    Object.assign(state, { receiving: true, lineEnded: false, lastWasCr: false, method: undefined });
  };
  if (req.complete) pending--;
  else req.once('end', next);
  res.once('finish', next);
}

function hasLineEnd(buf, end, lastWasCr) {
  if (end > 0 && lastWasCr && buf[0] === 0x0a) return true;
  const at = buf.indexOf('\r\n');
  return at !== -1 && at + 1 < end;
}

const methodOf = (buf) => /^[A-Za-z-]{1,32}(?= )/.exec(buf.toString('latin1', 0, 34))?.[0] ?? '';

/** The method of the head that failed (its first segment's, or the failing segment's when it is the first). */
function headMethod(err, socket) {
  const state = socket[HEAD];
  if (state?.receiving && state.method) return state.method;
  return err.rawPacket ? methodOf(err.rawPacket) : '';
}

function requestLineEnded(err, socket) {
  const state = socket[HEAD];
  // Heads of pipelined requests arrive while the previous one is answered: only their segment is known.
  const before = state?.receiving ? state : { lineEnded: false, lastWasCr: false };
  if (before.lineEnded) return true;
  const raw = err.rawPacket ?? Buffer.alloc(0);
  return hasLineEnd(raw, Math.min(raw.length, err.bytesParsed ?? raw.length), before.lastWasCr);
}

/**
 * node:http's `upgrade`: a request with `Connection: Upgrade` (a WebSocket, or curl's `--http2` asking
 * for h2c). Lantern upgrades nothing, and an upgrade is only ever an offer, so a GET or HEAD is answered
 * as if it had not asked, on a connection that closes after it; other methods are refused (their body
 * is no longer readable once node:http hands the socket over).
 */
export function onUpgrade(handler) {
  return (req, socket, head) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      socket.end(rawResponse(400, 'invalid_request', `Lantern does not upgrade connections; send the ${req.method} without Connection: Upgrade.`));
      return;
    }
    if (head.length) socket.unshift(head);
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket);
    // node:http relays the socket's drain to its response only while it owns the socket.
    const drain = () => res.emit('drain');
    socket.on('drain', drain);
    res.once('finish', () => {
      socket.off('drain', drain);
      res.detachSocket(socket);
      socket.end();
    });
    req.push(null);
    handler(req, res);
  };
}

/** node:http's `connect` (the CONNECT method): Lantern is not a proxy. */
export function onConnect(_req, socket) {
  // CONNECT's target is a host, not one of Lantern's paths: Allow names what Lantern serves at all.
  socket.end(rawResponse(405, 'method_not_allowed', 'CONNECT is not allowed: Lantern is not a proxy.', { Allow: SERVER_METHODS }));
}

/**
 * node:http's `checkExpectation`: an `Expect` header other than `100-continue`, which node:http would
 * answer with a bare 417. The request is not passed on.
 */
export function onCheckExpectation(req, res) {
  headParsed(req, res);
  const expect = String(req.headers.expect ?? '').slice(0, 64);
  const path = (req.url ?? '').split('?')[0];
  sendJson(res, path.startsWith('/') ? path : '', 417, 'expectation_failed', `The Expect header asks for ${JSON.stringify(expect)}, which Lantern does not support; send the request without it (only "100-continue" is understood).`, {
    Connection: 'close',
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

/** A `.` or `..` segment, written plainly or %-encoded (the path is known to be well encoded). */
export const hasDotSegment = (path) => path.split('/').some((seg) => ['.', '..'].includes(decodeURIComponent(seg)));

/**
 * Checks a request before Next. Returns true when it answered (the caller must not pass it on).
 * Server actions are handled by `guardAction`, which is asynchronous.
 */
export function refuseBadTarget(req, res) {
  const target = req.url ?? '';
  // The server is made with requireHostHeader: false, so this answer replaces node:http's bare 400.
  if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1) {
    const path = target.startsWith('/') ? target.split('?')[0] : '';
    sendJson(res, path, 400, 'invalid_request', 'The request has no Host header; HTTP/1.1 requires one (Host: the name and port Lantern was reached at).');
    return true;
  }
  if (!target.startsWith('/')) {
    if (req.method === 'OPTIONS' && target === '*') {
      res.writeHead(204, { ...BASE_HEADERS, Allow: SERVER_METHODS });
      res.end();
    } else {
      sendJson(res, '', 400, 'invalid_request', 'The request target must be a path beginning with "/" (such as /api/health).');
    }
    return true;
  }
  const path = target.split('?')[0];
  const api = path === '/api' || path.startsWith('/api/');
  if (!wellEncoded(path)) {
    // Next throws while decoding a malformed %-sequence in a path parameter and answers 500.
    sendJson(res, path, 400, 'invalid_request', 'The path contains malformed percent-encoding.');
    return true;
  }
  const allow = allowedMethods(path);
  // The API's route handlers answer the methods they do not serve themselves (lib/api/handler.ts
  // otherMethods); pages, files and downloads do not, so every other method is answered here.
  if (!ROUTED_METHODS.has(req.method) || (!api && req.method !== 'OPTIONS' && !allow.split(', ').includes(req.method))) {
    // Worded as the route handlers' own 405.
    sendJson(res, path, 405, 'method_not_allowed', notAllowed(req.method, allow), { Allow: allow });
    return true;
  }
  if (!api && req.method === 'OPTIONS') {
    res.writeHead(204, { ...BASE_HEADERS, Allow: allow });
    res.end();
    return true;
  }
  if (!api && req.headers['next-router-state-tree'] !== undefined) {
    try {
      parseAndValidateFlightRouterState(req.headers['next-router-state-tree']);
    } catch {
      sendJson(res, path, 400, 'invalid_request', 'The Next-Router-State-Tree header is not a router state Lantern’s pages send.');
      return true;
    }
  }
  if (path === '/_next/image') {
    // Next's image optimizer, which Lantern does not use (NFT media are plain <img>): not offered at all.
    sendJson(res, path, 404, 'not_found', 'Lantern resizes no images: /_next/image is not served.');
    return true;
  }
  if (api && hasDotSegment(path)) {
    sendJson(res, path, 404, 'not_found', `No API operation at ${path}: dot segments ("." and "..", encoded or not) are not resolved.`);
    return true;
  }
  return false;
}

// ------------------------------------------------------------------------------------------------
// Server actions

class Refusal extends Error {
  constructor(status, code, message, headers = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

/** A request Next may treat as a server action: any POST outside the published API. */
export function isActionRequest(req) {
  const path = (req.url ?? '').split('?')[0];
  return req.method === 'POST' && !(path === '/api' || path.startsWith('/api/'));
}

/**
 * The ids of the server actions a build has (Next's server-reference-manifest.json, node and edge), or
 * undefined when the manifest cannot be read (then Next alone judges ids).
 */
export function actionIdsOf(manifestJson) {
  try {
    const m = JSON.parse(manifestJson);
    return new Set([...Object.keys(m.node ?? {}), ...Object.keys(m.edge ?? {})]);
  } catch {
    return undefined;
  }
}

/**
 * Checks a server-action request and, when it passes, calls `pass(replayed)` with a request that
 * carries the same body for Next. Otherwise answers 403/400/404/413/415 and the action never runs.
 * `actionIds`: the build's action ids (actionIdsOf); an id not among them is answered 404 here.
 */
export async function guardAction(req, res, publicOrigins, pass, actionIds) {
  const path = (req.url ?? '').split('?')[0];
  try {
    const origin = matchOrigin(publicOrigins, req.headers.origin);
    if (!origin) {
      throw new Refusal(403, 'origin_not_allowed', 'This form or action must be sent from Lantern’s own pages: the request’s Origin is missing or not one of PUBLIC_URL’s origins.');
    }
    // Next refuses (with a 500) an action whose Origin differs from X-Forwarded-Host/Host. The Origin was
    // just checked against PUBLIC_URL, which is also where the action takes its domain from, so the
    // request's own Host (forged, or a proxy's internal name) has no say: tell Next the public host.
    req.headers['x-forwarded-host'] = new URL(origin).host;
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > MAX_ACTION_BYTES) throw tooLarge();
    if (req.headers['next-action'] !== undefined) checkActionId(String(req.headers['next-action']), actionIds);
    const body = await readLimited(req, MAX_ACTION_BYTES);
    await checkActionBody(req.headers, body, actionIds);
    pass(replay(req, body));
  } catch (e) {
    if (!(e instanceof Refusal)) throw e;
    // Clients write the whole body before they read an answer: read what is left (up to a bound) so
    // they get this one instead of a broken pipe; past the bound, answer and close the connection.
    const drained = await discard(req, MAX_DISCARD_BYTES);
    sendJson(res, path, e.status, e.code, e.message, { ...e.headers, ...(drained ? {} : { Connection: 'close' }) });
  }
}

/** How much of a refused body is read and thrown away before answering. */
const MAX_DISCARD_BYTES = 8 * 1024 * 1024;

function discard(req, limit) {
  if (req.complete) return Promise.resolve(true);
  return new Promise((resolve) => {
    let size = 0;
    const done = (ok) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      resolve(ok);
    };
    const onData = (chunk) => {
      size += chunk.length;
      if (size > limit) done(false);
    };
    const onEnd = () => done(true);
    const onError = () => done(false);
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', onError);
    req.resume();
  });
}

const tooLarge = () => new Refusal(413, 'payload_too_large', `The action’s body is larger than ${MAX_ACTION_BYTES / 1024} KB.`);

function readLimited(req, limit) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    const onData = (chunk) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', () => reject(new Refusal(400, 'invalid_request', 'The request body could not be read.')));
  });
}

/** A request with the same head as `req` whose body is `body`, for Next to read as if nothing happened. */
function replay(req, body) {
  const r = new IncomingMessage(req.socket);
  r.method = req.method;
  r.url = req.url;
  r.httpVersion = req.httpVersion;
  r.httpVersionMajor = req.httpVersionMajor;
  r.httpVersionMinor = req.httpVersionMinor;
  r.headers = req.headers;
  r.rawHeaders = req.rawHeaders;
  r.push(body);
  r.push(null);
  r.complete = true;
  return r;
}

/** Next's id length (a 2-digit info byte and a 40-digit hash). */
const ACTION_ID_LENGTH = 42;

/**
 * An action this build does not have: a page loaded before an update, or a made-up id. Next would
 * answer it with a bare text and log a stack; this answer carries the header Next's client router reads
 * (`x-nextjs-action-not-found`), so a page still says "reload" as it would.
 */
function checkActionId(id, actionIds) {
  if (!actionIds) return;
  const shown = JSON.stringify(id.slice(0, ACTION_ID_LENGTH + 2));
  const headers = { 'x-nextjs-action-not-found': '1' };
  if (id.length !== ACTION_ID_LENGTH || !/^[0-9a-f]+$/.test(id)) {
    throw new Refusal(400, 'invalid_request', `${shown} is not a server action id.`, headers);
  }
  if (!actionIds.has(id)) {
    throw new Refusal(404, 'not_found', `This version of Lantern has no server action ${shown}: the page was probably loaded before Lantern was updated; reload it.`, headers);
  }
}

async function checkActionBody(headers, body, actionIds) {
  const type = String(headers['content-type'] ?? '').trim();
  const fetchAction = headers['next-action'] !== undefined;
  if (/^multipart\/form-data\s*(;|$)/i.test(type)) {
    if (!/;\s*boundary=("[^"]+"|[^;\s]+)/i.test(type)) throw new Refusal(400, 'invalid_request', 'A multipart/form-data body needs a boundary parameter in its Content-Type.');
    let form;
    try {
      form = await new Response(body, { headers: { 'content-type': type } }).formData();
    } catch {
      throw new Refusal(400, 'invalid_request', 'The multipart/form-data body is malformed.');
    }
    if (fetchAction && !form.has('0')) throw new Refusal(400, 'invalid_request', 'The action\u2019s arguments are missing (no field "0").');
    for (const [key, value] of form) {
      // Numbered fields (and an HTML form's `$ACTION_n:m`) are React reply rows: JSON that the decoder
      // follows. Other fields are plain form values (address, label, note) and stay text.
      const row = /^\d+$/.test(key) || /^\$ACTION_\d+:\d+$/.test(key);
      if (typeof value !== 'string') throw new Refusal(400, 'invalid_request', `Field ${JSON.stringify(key.slice(0, 64))} is a file; Lantern's actions take none.`);
      if (row) checkReplyRow(value, key === '0', true);
      // A form posted without JavaScript names its action in a field (React's decodeAction reads these).
      if (key.startsWith('$ACTION_ID_')) checkActionId(key.slice('$ACTION_ID_'.length), actionIds);
      if (/^\$ACTION_\d+:0$/.test(key)) checkActionId(/^\{"id":"([^"]*)"/.exec(value)?.[1] ?? '', actionIds);
    }
    return;
  }
  if (!fetchAction) {
    // Not an action: a POST of something else to a page. Next renders the page; nothing runs.
    if (type === '' || /^application\/x-www-form-urlencoded\b/i.test(type) || /^text\/plain\b/i.test(type)) return;
    throw new Refusal(415, 'unsupported_media_type', 'Pages take POSTs only from Lantern’s own forms (multipart/form-data).');
  }
  if (!/^text\/plain\b/i.test(type)) {
    throw new Refusal(415, 'unsupported_media_type', 'A server action’s arguments are sent as text/plain (JSON) or multipart/form-data.');
  }
  checkReplyRow(body.toString('utf8'), true, false);
}

// Reference strings React's reply decoder resolves. Lantern's action arguments (strings, numbers,
// null, plain objects, a FormData) only ever need these; others (promises `$@`, server references
// `$F`/`$h`, streams, blobs, temporary references, Maps, Sets, ...) make the decoder wait for rows
// that never come or build objects no action expects, and are refused.
const PLAIN_REFS = /^\$(\$|undefined$|NaN$|Infinity$|-Infinity$|-0$|D\d{4}-\d\d-\d\dT[\d:.]+Z$|n-?\d{1,80}$)/;
const FORM_REF = /^\$K[0-9a-f]{1,8}$/;

function checkReplyRow(text, root, multipart) {
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Refusal(400, 'invalid_request', 'The action’s arguments are not valid JSON.');
  }
  if (root && !Array.isArray(value)) throw new Refusal(400, 'invalid_request', 'The action’s arguments must be a JSON array.');
  // Iterative walk: a hostile depth must not overflow this server's stack either.
  const stack = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop();
    if (typeof v === 'string') {
      if (v.startsWith('$') && !PLAIN_REFS.test(v) && !(multipart && FORM_REF.test(v))) {
        throw new Refusal(400, 'invalid_request', `The action’s arguments hold a reference Lantern does not take: ${JSON.stringify(v.slice(0, 16))}.`);
      }
    } else if (v !== null && typeof v === 'object') {
      if (depth > MAX_ACTION_DEPTH) throw new Refusal(400, 'invalid_request', `The action’s arguments are nested deeper than ${MAX_ACTION_DEPTH} levels.`);
      for (const [k, child] of Object.entries(v)) {
        if (k === '__proto__') throw new Refusal(400, 'invalid_request', 'The action’s arguments hold a "__proto__" key.');
        stack.push([child, depth + 1]);
      }
    }
  }
}
