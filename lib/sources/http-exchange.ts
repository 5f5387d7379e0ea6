import 'server-only';
import http from 'node:http';
import https from 'node:https';
import { brotliDecompress, gunzip, inflate } from 'node:zlib';

/**
 * One HTTP exchange with an upstream (a JSON-RPC node, the hosted data API, a ledger node), made with
 * node:http over kept-alive connections, its whole answer read into memory. The runtime's fetch does
 * the same through WHATWG streams: on this project's 2-core machine it took 2.4 ms for a 300 KB node
 * answer where node:http took 0.7 ms, and 0.33 ms against 0.10 ms for a small one, and every page Lantern
 * builds from a node makes several such exchanges in a row.
 *
 * What callers see is what fetch gave them: the answer's status, headers and bytes (decoded when the
 * upstream compressed them), a failure to connect as fetch's `TypeError('fetch failed')` with the cause,
 * and an aborted `signal` as its reason (a TimeoutError for AbortSignal.timeout). What this does not do is
 * left to fetch, which then makes the whole exchange: a redirect (fetch follows it as it always did),
 * and a body that is not text or bytes.
 */

export interface Exchanged {
  status: number;
  statusText: string;
  headers: [string, string][];
  body: Buffer<ArrayBuffer>;
}

/**
 * Idle connections are closed after this, before the servers Lantern meets close theirs (Next's 5 s, Lantern's
 * own 65 s): a request sent on a connection the server has just closed would fail.
 */
const IDLE_MS = 4_000;
const agents = {
  'http:': new http.Agent({ keepAlive: true, timeout: IDLE_MS }),
  'https:': new https.Agent({ keepAlive: true, timeout: IDLE_MS }),
};

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The exchange, or undefined when it is one this module leaves to fetch (see above). */
export async function exchangeOverHttp(url: string | URL, init: RequestInit = {}): Promise<Exchanged | undefined> {
  const u = typeof url === 'string' ? new URL(url) : url;
  const agent = agents[u.protocol as keyof typeof agents];
  const body = bodyBytes(init.body);
  if (!agent || body === undefined) return undefined;
  const headers = headerRecord(init.headers);
  if (!('accept-encoding' in headers)) headers['accept-encoding'] = 'gzip, deflate, br';
  if (!('user-agent' in headers)) headers['user-agent'] = 'lantern';
  if (body) headers['content-length'] = String(body.length);
  const method = (init.method ?? 'GET').toUpperCase();
  const signal = init.signal ?? undefined;
  signal?.throwIfAborted();
  // Not asked again here when it fails, as fetch did not: the callers' own retries and breakers count it
  // (an upstream that drops a request must not be asked it more often than before).
  const res = await once(u, agent, method, headers, body, signal);
  return REDIRECTS.has(res.status) ? undefined : res;
}

const fetchFailed = (cause: unknown) => new TypeError('fetch failed', { cause });

function once(u: URL, agent: http.Agent, method: string, headers: Record<string, string>, body: Buffer | null, signal: AbortSignal | undefined): Promise<Exchanged> {
  return new Promise((resolve, reject) => {
    const req = (u.protocol === 'https:' ? https : http).request(u, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', (e) => finish(fetchFailed(e)));
      res.on('end', () => {
        const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
        decode(res.headers['content-encoding'], raw).then(
          (bytes) =>
            finish(undefined, {
              status: res.statusCode ?? 0,
              statusText: res.statusMessage ?? '',
              headers: pairs(res.rawHeaders),
              body: bytes as Buffer<ArrayBuffer>,
            }),
          (e: unknown) => finish(fetchFailed(e)),
        );
      });
    });
    const onAbort = () => {
      req.destroy();
      finish(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (e) => finish(fetchFailed(e)));
    let done = false;
    function finish(error: unknown, value?: Exchanged) {
      if (done) return;
      done = true;
      signal?.removeEventListener('abort', onAbort);
      if (error !== undefined) reject(error);
      else resolve(value!);
    }
    req.end(body ?? undefined);
  });
}

/** The body as bytes; null for none; undefined for a kind this module leaves to fetch. */
function bodyBytes(body: RequestInit['body']): Buffer | null | undefined {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  return undefined;
}

function headerRecord(h: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!h) return out;
  const add = (k: string, v: string) => {
    const key = k.toLowerCase();
    out[key] = key in out ? `${out[key]}, ${v}` : v;
  };
  if (h instanceof Headers) h.forEach((v, k) => add(k, v));
  else if (Array.isArray(h)) for (const [k, v] of h) add(k!, v!);
  else for (const [k, v] of Object.entries(h)) if (v !== undefined) add(k, String(v));
  return out;
}

function pairs(raw: string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i]!, raw[i + 1]!]);
  return out;
}

function decode(encoding: string | undefined, raw: Buffer): Promise<Buffer> {
  const e = encoding?.trim().toLowerCase();
  const run = (f: (b: Buffer, cb: (err: Error | null, out: Buffer) => void) => void) =>
    new Promise<Buffer>((resolve, reject) => f(raw, (err, out) => (err ? reject(err) : resolve(out))));
  if (!e || e === 'identity' || raw.length === 0) return Promise.resolve(raw);
  if (e === 'gzip' || e === 'x-gzip') return run(gunzip);
  if (e === 'deflate') return run(inflate);
  if (e === 'br') return run(brotliDecompress);
  return Promise.resolve(raw); // an encoding fetch would not decode either
}
