import 'server-only';
import type { z } from 'zod';
import { config } from '@/lib/config';
import { LanternError, type ErrorCode } from '@/lib/errors';
import { describeZodError } from '@/lib/interface/zod-errors';
import { asBreakerOpen, exchange } from '@/lib/sources/breaker';
import { hostedBreaker, type HostedService } from '@/lib/sources/breakers';
import { nonPublicReason } from '@/lib/security/outbound';

/**
 * The one way Lantern talks to the hosted data API. The key is attached here and nowhere else; every
 * answer is validated against the interface schema; every failure becomes a LanternError whose
 * message is safe to show (upstream text is scrubbed of the key).
 */


export interface HostedRequest<S extends z.ZodType> {
  service: HostedService;
  /** Path below the service's base URL, starting with `/`. Path segments must already be encoded. */
  path: string;
  query?: Record<string, string | number | boolean | readonly string[] | undefined>;
  method?: 'GET' | 'POST';
  body?: unknown;
  schema: S;
  /** Retry budget for idempotent requests; POSTs never retry. */
  retries?: number;
}

// A longer Retry-After is passed on to our caller at once: an upstream saying "not for 5 s" (a Lantern
// upstream whose own node is down) would otherwise hold a page for 10 s before it can say so.
const MAX_RETRY_AFTER_S = 1;
/** The least time worth giving a retry (a quarter of the budget when that is shorter). */
const MIN_ATTEMPT_MS = 500;

function baseUrl(service: HostedService): string {
  const c = config();
  switch (service) {
    case 'data':
      return c.dataApiUrl;
    case 'auth':
      return c.authApiUrl;
    case 'ledger-mainnet':
      return c.ledgerUrls.mainnet;
    case 'ledger-testnet':
      return c.ledgerUrls.testnet;
  }
}

// An upstream on this machine or its private network (a Lantern fronting another): compressing and
// decompressing the answer costs both ends more time than the bytes save, so it is asked not to.
const nearbyHosts = new Map<string, boolean>();
export function isNearby(url: string): boolean {
  const host = new URL(url).hostname;
  let near = nearbyHosts.get(host);
  if (near === undefined) {
    const notPublic = nonPublicReason(host); // of an IP literal; a name is taken as far away
    near = host === 'localhost' || host.endsWith('.localhost') || (notPublic !== null && notPublic !== 'not an IP address');
    nearbyHosts.set(host, near);
  }
  return near;
}

export function buildUrl(base: string, path: string, query: HostedRequest<z.ZodType>['query'] = {}): string {
  const u = new URL(base + path);
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) v.forEach((item, i) => u.searchParams.append(`${k}[${i}]`, item));
    else u.searchParams.set(k, String(v));
  }
  return u.toString();
}

export async function hostedRequest<S extends z.ZodType>(req: HostedRequest<S>): Promise<z.output<S>> {
  const c = config();
  const key = c.dataApiKey;
  if (!key) throw new LanternError(500, 'internal_error', 'The hosted data API was called without DATA_API_KEY being set.');
  const method = req.method ?? 'GET';
  const url = buildUrl(baseUrl(req.service), req.path, req.query);
  const headers: Record<string, string> = { 'X-API-Key': key, Accept: 'application/json' };
  if (method === 'POST') headers['Content-Type'] = 'application/json';
  if (isNearby(url)) headers['Accept-Encoding'] = 'identity';
  const retries = method === 'GET' ? (req.retries ?? 2) : 0;
  // One breaker per service: once it is known to be down, requests answer 503 at once instead of waiting.
  const breaker = hostedBreaker(req.service, url);
  const source = breaker.source;
  // The request, not the call, is what the breaker counts: its retries, and anyone asking the same again,
  // fail once between them (the key never leaves this process; it holds no secret: that is a header).
  const requestKey = `${method} ${url}`;
  // One time budget for the request, retries and their waits included.
  const deadline = performance.now() + c.upstreamTimeoutMs;
  const left = () => deadline - performance.now();
  // A retry goes only if it can still wait its turn and have this long to be answered.
  const worthRetrying = (waitMs: number) => left() - waitMs >= Math.min(MIN_ATTEMPT_MS, c.upstreamTimeoutMs / 4);

  let attempt = 0;
  for (;;) {
    let res: Response;
    try {
      // The whole exchange, body included, within what is left of the budget, and counted by the breaker.
      res = await exchange(
        breaker,
        url,
        {
          method,
          headers,
          body: req.body === undefined ? undefined : JSON.stringify(req.body),
          signal: AbortSignal.timeout(Math.max(1, Math.round(left()))),
          cache: 'no-store',
        },
        requestKey,
      );
    } catch (e) {
      const open = asBreakerOpen(e);
      if (open) throw open;
      if (isTimeout(e)) {
        // Not retried: a hung upstream rarely recovers within the user's patience, and retrying triples the wait.
        throw new LanternError(504, 'upstream_timeout', `The data provider did not answer within ${c.upstreamTimeoutMs / 1000} s.`, { source });
      }
      const wait = backoff(attempt);
      if (attempt < retries && worthRetrying(wait)) {
        await sleep(wait);
        attempt++;
        continue;
      }
      throw new LanternError(502, 'upstream_unavailable', 'The data provider could not be reached.', { source });
    }

    if (res.ok) return parseBody(res, req.schema, key, source);

    const retryAfter = parseRetryAfter(res.headers.get('retry-after'));
    const retryable = res.status === 429 || res.status >= 500;
    const wait = retryAfter !== undefined ? retryAfter * 1000 : backoff(attempt);
    if (retryable && attempt < retries && (retryAfter === undefined || retryAfter <= MAX_RETRY_AFTER_S) && worthRetrying(wait)) {
      await res.body?.cancel();
      await sleep(wait);
      attempt++;
      continue;
    }
    throw await mapFailure(res, key, retryAfter, source);
  }
}

async function parseBody<S extends z.ZodType>(res: Response, schema: S, key: string, source: string): Promise<z.output<S>> {
  let json: unknown;
  try {
    json = await res.json();
  } catch {
    throw new LanternError(502, 'upstream_bad_response', 'The data provider sent a response that is not valid JSON.', { source });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new LanternError(502, 'upstream_bad_response', scrub(`The data provider sent an unexpected response: ${describeZodError(parsed.error)}`, key), {
      source,
    });
  }
  return parsed.data;
}

/**
 * A sign-in refusal a Lantern upstream sends as 401 with its code (the vendor's auth API sends 400): passed
 * on as the same refusal, not mistaken for this server's key being rejected.
 */
const SIGN_IN_REFUSALS: readonly ErrorCode[] = ['signature_mismatch', 'contract_wallet_refused'];

async function mapFailure(res: Response, key: string, retryAfter: number | undefined, source: string): Promise<LanternError> {
  const upstream = await readMessage(res);
  const upstreamMessage = scrub(upstream.message, key);
  switch (true) {
    case res.status === 400 || res.status === 422:
      return new LanternError(400, 'upstream_bad_request', upstreamMessage || 'The data provider refused the request as invalid.');
    case res.status === 401 && SIGN_IN_REFUSALS.includes(upstream.code as ErrorCode) && !!upstreamMessage:
      return new LanternError(401, upstream.code as ErrorCode, upstreamMessage);
    case res.status === 401 || res.status === 403:
      return new LanternError(502, 'upstream_key_rejected', "The data provider rejected this server's API key.", { source });
    case res.status === 404:
      return new LanternError(404, 'not_found', upstreamMessage || 'The data provider has no such resource.');
    case res.status === 410:
      return new LanternError(410, 'block_pruned', upstreamMessage || 'The data provider has pruned this data.');
    case res.status === 429:
      return new LanternError(503, 'upstream_rate_limited', 'The data provider is rate limiting this server; try again shortly.', {
        retryAfter: retryAfter ?? 1,
        source,
      });
    default:
      // Said as what it is: the provider answered, with an error, for this request (it may serve others).
      return new LanternError(502, 'upstream_unavailable', `The data provider answered HTTP ${res.status} for this request.`, { source });
  }
}

async function readMessage(res: Response): Promise<{ message: string; code?: string }> {
  try {
    const text = (await res.text()).slice(0, 2000);
    try {
      const body = JSON.parse(text) as { message?: unknown; code?: unknown };
      const m = body?.message;
      const code = typeof body?.code === 'string' ? body.code : undefined;
      if (typeof m === 'string') return { message: m, code };
      if (Array.isArray(m)) return { message: m.filter((x) => typeof x === 'string').join(', '), code };
      return { message: '', code };
    } catch {
      return { message: '' };
    }
  } catch {
    return { message: '' };
  }
}

/** Upstream text is untrusted: never let it echo the key back, and keep it short. */
export function scrub(text: string, key: string): string {
  let out = text.slice(0, 500);
  if (key) out = out.split(key).join('[redacted]');
  return out;
}

function parseRetryAfter(h: string | null): number | undefined {
  if (!h) return undefined;
  const s = Number(h);
  if (Number.isFinite(s) && s >= 0) return Math.ceil(s);
  const d = Date.parse(h);
  return Number.isNaN(d) ? undefined : Math.max(0, Math.ceil((d - Date.now()) / 1000));
}

/** Full jitter: 0..(250 ms * 2^attempt), so retrying instances do not stampede together. */
function backoff(attempt: number): number {
  return Math.random() * 250 * 2 ** attempt;
}

function isTimeout(e: unknown): boolean {
  return e instanceof DOMException ? e.name === 'TimeoutError' : (e as { name?: string })?.name === 'TimeoutError';
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
