import 'server-only';
import { z } from 'zod';
import { LanternError, badParameter, isLanternError } from '@/lib/errors';
import { zodToBadParameter } from '@/lib/interface/zod-errors';
import { log, requestLog } from '@/lib/log';
import { requestIdFor } from '@/lib/security/headers';
import { enforceRateLimit } from '@/lib/security/rate-limit';
import { requireApiAccess } from './access';
import { rememberAnswer } from './answer-cache';
import { CLIENT_CLOSED, errorResponse, withApiHeaders } from './responses';
import { WARM_UP_FLAG } from '@/lib/warm-up-flag.mjs';

export { errorResponse, withApiHeaders };

/**
 * Plumbing shared by every route handler of the published API: access check, parameter and body
 * validation that name what was wrong, and one JSON error shape `{message, code}`.
 * A handler is `api(async (req, params) => data)`; anything it throws becomes the right status.
 */

export const MAX_BODY_BYTES = 64 * 1024;

type Params = Record<string, string | string[]>;
type Handler<P extends Params> = (req: Request, params: P) => Promise<Response | unknown>;

/** Marks a handler `npm start`'s front may call itself, without Next (scripts/lib/api-front.mjs). */
const FRONT_HANDLER = Symbol.for('lantern.api.frontHandler');
/** Set by the front on the requests it hands a handler: their log line says so. */
const VIA_FRONT = Symbol.for('lantern.api.viaFront');

/**
 * `stream`: the answer is a stream kept open (Server-Sent Events), left to Next to send; every other
 * answer is whole, and `npm start`'s front may call the handler itself (scripts/lib/api-front.mjs).
 */
export function api<P extends Params = Params>(fn: Handler<P>, opts: { status?: number; open?: boolean; stream?: boolean } = {}) {
  const handler = async (req: Request, ctx: { params: Promise<P> }): Promise<Response> => {
    const started = performance.now();
    const requestId = requestIdFor(req.headers.get('x-request-id'));
    let res: Response;
    let failure: unknown;
    try {
      await enforceRateLimit(req.headers);
      if (!opts.open) requireApiAccess(req);
      const out = await fn(req, await ctx.params);
      res = out instanceof Response ? out : Response.json(out, { status: opts.status ?? 200 });
      rememberAnswer(req, res, opts.open === true);
    } catch (e) {
      failure = e;
      res = errorResponse(e, req, requestId);
    }
    // Each request is one line. An upstream down, slow or behind an open breaker is expected: warn, naming
    // the source, no stack. A client that hung up is expected too: info.
    const down = isLanternError(failure) && failure.status >= 500 ? failure : undefined;
    const aborted = failure !== undefined && res.status === CLIENT_CLOSED;
    // Every other line is info or debug (debug on means info is on): with info off the URL is not even parsed.
    if (!down && !aborted && !log().isLevelEnabled('info')) return withApiHeaders(req, res, requestId);
    const { pathname, searchParams } = new URL(req.url);
    const line = { method: req.method, path: pathname, status: res.status, ms: Math.round(performance.now() - started), ...((req as unknown as Record<symbol, unknown>)[VIA_FRONT] ? { front: true } : {}) };
    if (down) {
      requestLog(req, requestId).warn({ ...line, code: down.code, source: down.source }, `api request failed: ${down.message}`);
    } else if (aborted) {
      // `reason`, not `err`: pino's err serializer would add a (stack) field.
      requestLog(req, requestId).info({ ...line, reason: String((failure as Error)?.message ?? failure).slice(0, 200) }, 'request aborted by the client');
    } else if (searchParams.has(WARM_UP_FLAG)) {
      // `npm run dev`'s warm-up: its deliberate 400s are summed up in one line by scripts/dev.mjs.
      requestLog(req, requestId).debug(line, 'api request (warm-up)');
    } else if (log().isLevelEnabled('info')) {
      // Checked first: a child logger per request costs even when the line is dropped.
      requestLog(req, requestId).info(line, 'api request');
    }
    return withApiHeaders(req, res, requestId);
  };
  if (!opts.stream) Object.defineProperty(handler, FRONT_HANDLER, { value: true });
  return handler;
}

/** Path parameters come URL-decoded from Next; validate them like any other input. */
export function parseParam<S extends z.ZodType>(name: string, value: unknown, schema: S): z.output<S> {
  const r = typeof value === 'string' ? memoParse(schema, value, () => value) : schema.safeParse(value);
  if (!r.success) throw badParameter(name, `${name}: ${r.error.issues[0]?.message ?? 'invalid value'}`);
  return r.data;
}

// ------------------------------------------------------------------------------------------------
// Parsed parameters, kept by raw text per schema: a cached endpoint is asked the same path and query
// over and over, and zod's parse was about 7% of such a request. Only successes are kept (a failure is
// parsed again, so its error is the same object shape as ever); the schemas of path and query
// parameters are pure (no clock, no configuration). A hit hands out a copy, so a caller that changes
// what it got changes nothing for the next caller.

const MEMO_ENTRIES = 512;
/** Longer raw texts are parsed every time (a bounded memo must not be filled with giant keys). */
const MEMO_KEY_CHARS = 2048;
const memos = new WeakMap<z.ZodType, Map<string, unknown>>();
const UNCOPYABLE = Symbol('uncopyable');

/** `schema.safeParse(input())`, kept by `key` (the raw text `input` is read from). */
export function memoParse<S extends z.ZodType>(schema: S, key: string, input: () => unknown): z.ZodSafeParseResult<z.output<S>> {
  if (key.length > MEMO_KEY_CHARS) return schema.safeParse(input());
  let memo = memos.get(schema);
  if (!memo) memos.set(schema, (memo = new Map()));
  if (memo.has(key)) return { success: true, data: copyParsed(memo.get(key)) as z.output<S> };
  const r = schema.safeParse(input());
  if (!r.success) return r;
  const kept = copyParsed(r.data);
  if (kept === UNCOPYABLE) return r;
  if (memo.size >= MEMO_ENTRIES) memo.delete(memo.keys().next().value as string); // the oldest goes
  memo.set(key, kept);
  return r;
}

/** A deep copy of what a parameter schema outputs (plain objects, arrays, dates, primitives); UNCOPYABLE for anything else. */
function copyParsed(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return typeof v === 'function' || typeof v === 'symbol' ? UNCOPYABLE : v;
  if (v instanceof Date) return new Date(v.getTime());
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    for (const x of v) {
      const c = copyParsed(x);
      if (c === UNCOPYABLE) return UNCOPYABLE;
      out.push(c);
    }
    return out;
  }
  if (Object.getPrototypeOf(v) !== Object.prototype) return UNCOPYABLE;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) {
    if (k === '__proto__') return UNCOPYABLE;
    const c = copyParsed((v as Record<string, unknown>)[k]);
    if (c === UNCOPYABLE) return UNCOPYABLE;
    out[k] = c;
  }
  return out;
}

/**
 * Query string to a plain object: repeated keys and `key[0]=..` both become arrays, so
 * `token_addresses=a&token_addresses=b` and `token_addresses[0]=a` mean the same thing.
 */
export function queryObject(url: string | URL): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [rawKey, value] of new URL(url).searchParams) {
    const m = rawKey.match(/^(.+)\[\d*\]$/);
    const key = m ? m[1] : rawKey;
    const prev = out[key];
    if (m || prev !== undefined) out[key] = [...(prev === undefined ? [] : Array.isArray(prev) ? prev : [prev]), value];
    else out[key] = value;
  }
  return out;
}

export function parseQuery<S extends z.ZodType>(req: Request, schema: S): z.output<S> {
  const q = req.url.indexOf('?');
  const r = memoParse(schema, q < 0 ? '' : req.url.slice(q), () => queryObject(req.url));
  if (!r.success) throw zodToBadParameter(r.error);
  return r.data;
}

export async function readJsonBody<S extends z.ZodType>(req: Request, schema: S): Promise<z.output<S>> {
  const type = req.headers.get('content-type') ?? '';
  if (!/^application\/(.+\+)?json\b/i.test(type.trim())) {
    throw new LanternError(415, 'unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.');
  }
  const declared = Number(req.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) throw tooLarge();
  const text = await readLimited(req, MAX_BODY_BYTES);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new LanternError(400, 'invalid_request', 'The body is not valid JSON.');
  }
  const r = schema.safeParse(json);
  if (!r.success) throw zodToBadParameter(r.error);
  return r.data;
}

function tooLarge() {
  return new LanternError(413, 'payload_too_large', `The body is larger than ${MAX_BODY_BYTES / 1024} KB.`);
}

async function readLimited(req: Request, limit: number): Promise<string> {
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/**
 * Handlers for the methods a route does not serve, so a wrong method gets a JSON 405 naming the
 * right one instead of Next's empty 405. Spread into a route module: `export const { PUT, ... } = ...`.
 */
export function otherMethods(...allowed: ('GET' | 'POST')[]) {
  // HEAD is served wherever GET is (Next answers it from the GET handler).
  const allow = [...allowed, ...(allowed.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
  const refuse = async (req: Request) => {
    const res = errorResponse(new LanternError(405, 'method_not_allowed', `${req.method} is not allowed here; use ${allowed.join(' or ')}.`), req);
    res.headers.set('Allow', allow);
    return withApiHeaders(req, res);
  };
  // CORS preflight: allowed origins get the CORS headers; others get none, so the browser refuses.
  const preflight = async (req: Request) => withApiHeaders(req, new Response(null, { status: 204, headers: { Allow: allow } }));
  return {
    OPTIONS: preflight,
    PUT: refuse,
    PATCH: refuse,
    DELETE: refuse,
    ...(allowed.includes('GET') ? {} : { GET: refuse }),
    ...(allowed.includes('POST') ? {} : { POST: refuse }),
  } as { OPTIONS: typeof refuse; PUT: typeof refuse; PATCH: typeof refuse; DELETE: typeof refuse; GET: typeof refuse; POST: typeof refuse };
}
