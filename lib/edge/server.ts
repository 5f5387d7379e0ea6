// The node:http front `npm start` (scripts/server.mjs) puts before Next: what only the server that owns
// the sockets can answer. A proxy (proxy.ts) sees a request only once node:http has parsed it and Next
// has routed it, so these stay here:
// - Oversized request lines and headers (node:http's parser refuses them): 414 / 431 naming the limit.
// - A method token node:http does not know (FOO), a head that is not HTTP/1.1, a head sent too slowly.
// - An HTTP/1.1 request without Host, request targets that are not a path (`GET *`, absolute-form).
// - `Expect` other than 100-continue: 417 naming the header. CONNECT and `Connection: Upgrade`.
// Every request with a path then goes through checkRequest (request.ts), as proxy.ts's paths do.
import type { Socket } from 'node:net';
import { IncomingMessage, STATUS_CODES, ServerResponse, createServer, type Server } from 'node:http';
import type { ErrorCode } from '@/lib/errors';
import { render, type Answer } from './answers';
import { checkRequest } from './request';
import { SERVER_METHODS, allowedMethods, noOperation, notAllowed } from './routes';

/** The limit on the request line plus headers (node:http's default, named so messages can say it). */
export const MAX_HEADER_BYTES = 16 * 1024;
/**
 * node:http's own limit, above MAX_HEADER_BYTES: a head up to it is parsed, so which part is over
 * MAX_HEADER_BYTES is read from the parsed request (refuseOversized) rather than from watching every
 * segment of every connection, which made node:http read each socket in JavaScript (a `data` listener
 * moves its parser out of C++), a cost every request paid. Only a head over this is node:http's error.
 */
export const PARSER_HEADER_BYTES = 64 * 1024;

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * node:http's server with every check of this file in front of `onRequest`, which sees only requests
 * with a path target, a routed method and a readable head (server actions still go to guardAction).
 */
export function createGuardedServer(onRequest: Handler): Server {
  const handler: Handler = (req, res) => {
    if (refuseOversized(req, res)) return;
    if (refuseBadTarget(req, res)) return;
    onRequest(req, res);
  };
  // Without Host, node:http would answer a bare 400 itself; refuseBadTarget answers it in words.
  const server = createServer({ maxHeaderSize: PARSER_HEADER_BYTES, requireHostHeader: false }, handler);
  server.on('clientError', onClientError);
  server.on('checkExpectation', onCheckExpectation);
  server.on('upgrade', onUpgrade(handler));
  server.on('connect', onConnect);
  return server;
}

/** Writes an answer on a node:http response. */
export function send(res: ServerResponse, pathname: string, a: Answer): void {
  const { status, headers, body } = render(pathname, a);
  res.writeHead(status, headers);
  res.end(body || undefined);
}

/**
 * A whole HTTP/1.1 response written on a socket the HTTP parser has given up on; the connection closes.
 * The answer to a HEAD has no body (a client would read one as garbage after the response).
 */
export function rawResponse(status: number, code: ErrorCode, message: string, extra: Record<string, string> = {}, head = false): string {
  const { headers, body } = render('', { status, code, message, headers: { Connection: 'close', ...extra } });
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n${head ? '' : body}`;
}

interface ParseError extends Error {
  code?: string;
  rawPacket?: Buffer;
  bytesParsed?: number;
}

/**
 * node:http's `clientError`: the request could not be parsed. Node's default answer is a bare status
 * line; this one says what was wrong and names the limit.
 */
export function onClientError(err: ParseError, socket: Socket): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  let response: string;
  const head = headMethod(err) === 'HEAD';
  const raw = err.rawPacket?.toString('latin1') ?? '';
  const unknownMethod = err.code === 'HPE_INVALID_METHOD' ? /^([A-Za-z][A-Za-z0-9-]*) (\S*)/.exec(raw) : null;
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    // Which part overflowed: the URL when the head so far has no line end (the request line never ended).
    const a = oversizedAnswer(overflowedIn(err));
    response = rawResponse(a.status, a.code!, a.message!, {}, head);
  } else if (unknownMethod) {
    // A method token node:http does not know (FOO): the same answer as for one it knows but Next does not route.
    const [, method, target] = unknownMethod;
    const path = target.split('?')[0];
    const allow = target.startsWith('/') ? allowedMethods(path) : SERVER_METHODS;
    response =
      allow === undefined
        ? rawResponse(404, 'not_found', noOperation(path))
        : rawResponse(405, 'method_not_allowed', notAllowed(method.slice(0, 32), allow), { Allow: allow });
  } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT' || err.code === 'ERR_HTTP_HEADERS_TIMEOUT') {
    response = rawResponse(408, 'request_timeout', 'The request was not sent in time.', {}, head);
  } else {
    response = rawResponse(400, 'invalid_request', 'The request is not valid HTTP/1.1.', {}, head);
  }
  socket.end(response);
}

// ------------------------------------------------------------------------------------------------
// Heads over MAX_HEADER_BYTES
//
// node:http counts a head's URL, header names and values against its limit (not the method, spaces and
// line ends), and the URL comes first: the head overflows in its URL (414) exactly when the URL alone
// reaches the limit, else in its headers (431). Heads up to PARSER_HEADER_BYTES are parsed and judged
// so here, however they were cut into segments. A head over even that is node:http's HPE_HEADER_OVERFLOW,
// of which only the segment it failed in is known (a later one: 64 KB is more than one TCP segment):
// 431 naming the headers when it holds a line end before the failure, else 431 saying only that the
// request line and headers are too large (a long URL and one long header look alike there).

/** The bytes node:http counts against its header limit: the URL, and each header's name and value. */
export function countedHeadBytes(req: IncomingMessage): number {
  let n = (req.url ?? '').length;
  for (const part of req.rawHeaders) n += part.length;
  return n;
}

/** Answers a head over MAX_HEADER_BYTES (414 or 431, on a connection that closes); true when it did. */
export function refuseOversized(req: IncomingMessage, res: ServerResponse): boolean {
  if (countedHeadBytes(req) < MAX_HEADER_BYTES) return false;
  res.shouldKeepAlive = false;
  send(res, '', oversizedAnswer((req.url ?? '').length >= MAX_HEADER_BYTES));
  return true;
}

function oversizedAnswer(inUrl: boolean | 'unknown'): Answer {
  const [status, code, what]: [number, Answer['code'], string] = inUrl === true ? [414, 'uri_too_long', 'The request URL is too long'] : [431, 'request_headers_too_large', inUrl ? 'The request is too large' : 'The request headers are too large'];
  return { status, code, message: `${what}: the request line and headers together may be at most ${MAX_HEADER_BYTES / 1024} KB.`, headers: { Connection: 'close' } };
}

function hasLineEnd(buf: Buffer, end: number): boolean {
  const at = buf.indexOf('\r\n');
  return at !== -1 && at + 1 < end;
}

const methodOf = (buf: Buffer) => /^[A-Za-z-]{1,32}(?= )/.exec(buf.toString('latin1', 0, 34))?.[0] ?? '';

/** The method of the head that failed, when its failing segment is its first. */
function headMethod(err: ParseError): string {
  return err.rawPacket ? methodOf(err.rawPacket) : '';
}

/** Where a head over PARSER_HEADER_BYTES overflowed, as far as the segment it failed in tells. */
function overflowedIn(err: ParseError): false | 'unknown' {
  const raw = err.rawPacket ?? Buffer.alloc(0);
  return hasLineEnd(raw, Math.min(raw.length, err.bytesParsed ?? raw.length)) ? false : 'unknown';
}

/**
 * node:http's `upgrade`: a request with `Connection: Upgrade` (a WebSocket, or curl's `--http2` asking
 * for h2c). Lantern upgrades nothing, and an upgrade is only ever an offer, so a GET or HEAD is answered
 * as if it had not asked, on a connection that closes after it; other methods are refused (their body
 * is no longer readable once node:http hands the socket over).
 */
export function onUpgrade(handler: Handler) {
  return (req: IncomingMessage, socket: Socket, head: Buffer) => {
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
export function onConnect(req: IncomingMessage, socket: Socket): void {
  if (countedHeadBytes(req) >= MAX_HEADER_BYTES) {
    const a = oversizedAnswer((req.url ?? '').length >= MAX_HEADER_BYTES);
    socket.end(rawResponse(a.status, a.code!, a.message!));
    return;
  }
  // CONNECT's target is a host, not one of Lantern's paths: Allow names what Lantern serves at all.
  socket.end(rawResponse(405, 'method_not_allowed', 'CONNECT is not allowed: Lantern is not a proxy.', { Allow: SERVER_METHODS }));
}

/**
 * node:http's `checkExpectation`: an `Expect` header other than `100-continue`, which node:http would
 * answer with a bare 417. The request is not passed on.
 */
export function onCheckExpectation(req: IncomingMessage, res: ServerResponse): void {
  if (refuseOversized(req, res)) return;
  const expect = String(req.headers.expect ?? '').slice(0, 64);
  const path = (req.url ?? '').split('?')[0];
  send(res, path.startsWith('/') ? path : '', {
    status: 417,
    code: 'expectation_failed',
    message: `The Expect header asks for ${JSON.stringify(expect)}, which Lantern does not support; send the request without it (only "100-continue" is understood).`,
    headers: { Connection: 'close' },
  });
}

/**
 * Checks a request before Next. Returns true when it answered (the caller must not pass it on).
 * Server actions are handled by `guardAction`, which is asynchronous.
 */
export function refuseBadTarget(req: IncomingMessage, res: ServerResponse): boolean {
  const target = req.url ?? '';
  // The server is made with requireHostHeader: false, so this answer replaces node:http's bare 400.
  if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1) {
    const path = target.startsWith('/') ? target.split('?')[0] : '';
    send(res, path, { status: 400, code: 'invalid_request', message: 'The request has no Host header; HTTP/1.1 requires one (Host: the name and port Lantern was reached at).' });
    return true;
  }
  if (!target.startsWith('/')) {
    if (req.method === 'OPTIONS' && target === '*') send(res, '', { status: 204, headers: { Allow: SERVER_METHODS } });
    else send(res, '', { status: 400, code: 'invalid_request', message: 'The request target must be a path beginning with "/" (such as /api/health).' });
    return true;
  }
  const path = target.split('?')[0];
  const answer = checkRequest(req.method ?? '', path, (name) => {
    const v = req.headers[name];
    return Array.isArray(v) ? v.join(', ') : v;
  });
  if (!answer) return false;
  send(res, path, answer);
  return true;
}
