import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { fc } from '@fast-check/vitest';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadManifest } from '../../devnet/evm/index.mjs';
import { startLantern, type LanternInstance } from '../support/lantern';

/**
 * Hostile input against a real `npm start` (scripts/server.mjs in front of Next), node mode over the
 * devnets. fast-check generates requests over every published path, method and parameter (README,
 * "The published API"), every page (/, /search, /wallet/..., its NFTs, CSV download and preview image,
 * /ledger/..., /tx/...) and Next's own /_next/ files: hostile path parameters, query values, headers
 * (the pages' Next-Router-State-Tree among them) and bodies, mixed with valid ones. Whatever is sent,
 * the answer is never a 5xx; every 4xx is JSON `{message, code}`, except a page's 404, which is the
 * HTML "no page" page a person reads (its flight payload for Next's router), and a missing build file
 * under /_next/static/, Next's plain "Not Found" for a browser's script or style tag; the instance stays
 * healthy. Raw-socket cases cover what fetch cannot send.
 */
let lantern: LanternInstance;

beforeAll(async () => {
  lantern = await startLantern({ DEVNET_EVM_PORT: String(inject('evmPort')), DEVNET_LEDGER_PORT: String(inject('ledgerPort')) });
}, 120_000);
afterAll(async () => {
  agent.destroy();
  await lantern?.stop();
});

const SEED = 20261125;
const GOOD = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';

// --- pieces --------------------------------------------------------------------------------------

/** Strings people and attackers send: any code point (lone surrogates too), and known troublemakers. */
const hostile = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '..',
    '.',
    '%00',
    '%ZZ',
    '%',
    '%2e%2e',
    '%2F',
    '\u0000',
    '\u202e',
    '\u2028',
    "'; DROP TABLE saved_wallets; --",
    '{{7*7}}',
    '<script>alert(1)</script>',
    '$@1',
    '__proto__',
    'constructor',
    'NaN',
    '-1',
    '1e309',
    '0x',
    '9'.repeat(40),
    'a'.repeat(3000),
    '😀',
    'true',
    'TRUE',
    '1',
  ),
);

/** Percent-encodes for a URL, except when the generator wants the raw ASCII kept (malformed %-escapes, dots). */
const enc = (s: string, raw: boolean) => {
  const one = (c: string) => {
    try {
      return encodeURIComponent(c);
    } catch {
      return '%ED%A0%80'; // a lone surrogate, as UTF-8 would (mis)encode it
    }
  };
  return raw ? s.replace(/[^\x21-\x7e]|[#?/]/gu, one) : s.replace(/[\s\S]/gu, one);
};

const address = fc.oneof(fc.constant(GOOD), fc.constant(GOOD.toLowerCase()), fc.stringMatching(/^0x[0-9a-fA-F]{40}$/), hostile);
const hash = fc.oneof(fc.stringMatching(/^0x[0-9a-f]{64}$/), hostile);
const network = fc.oneof(fc.constant('local'), fc.constantFrom('LOCAL', 'devnet', 'main net', ''), hostile);
const version = fc.oneof(fc.integer({ min: 765, max: 30000 }).map(String), fc.constantFrom('0', '18446744073709551615', '18446744073709551616', '-1', '1.5', '0x10'), hostile);
const bool = fc.oneof(fc.constantFrom('true', 'false', 'TRUE', 'False', '', '1', '0', 'yes'), hostile);
const int = fc.oneof(fc.integer({ min: -5, max: 200 }).map(String), hostile);
const date = fc.oneof(fc.constantFrom('2026-01-01', '2026-01-01T00:00:00Z', '1700000000', 'yesterday', '2026-13-45'), hostile);
const chain = fc.oneof(fc.constantFrom('devnet', '0x7a69', 'devnet2', '0x7a6a', 'eth', '0x1', 'dogecoin', '0x0', '0xffffffffffffffffffff'), hostile);

/** Query strings: known parameters with valid or hostile values, unknown keys, repeated keys, `key[]`. */
function queryOf(params: Record<string, fc.Arbitrary<string>>) {
  const entry = fc.oneof(
    ...Object.entries(params).map(([k, v]) => fc.tuple(fc.constantFrom(k, `${k}[]`, `${k}[0]`), v)),
    fc.tuple(hostile, hostile),
  );
  return fc.tuple(fc.array(entry, { maxLength: 5 }), fc.boolean()).map(([entries, raw]) => (entries.length ? '?' + entries.map(([k, v]) => `${enc(k, false)}=${enc(v, raw)}`).join('&') : ''));
}

const historyQuery = queryOf({
  chain,
  from_block: int,
  to_block: int,
  from_date: date,
  to_date: date,
  include_internal_transactions: bool,
  nft_metadata: bool,
  cursor: hostile,
  order: fc.oneof(fc.constantFrom('ASC', 'DESC', 'asc', 'sideways'), hostile),
  limit: int,
  token_addresses: fc.oneof(address, fc.tuple(address, address).map(([a, b]) => `${a},${b}`)),
});
const nftQuery = queryOf({
  chain,
  format: fc.oneof(fc.constantFrom('decimal', 'hex', 'octal'), hostile),
  limit: int,
  exclude_spam: bool,
  token_addresses: address,
  cursor: hostile,
  normalizeMetadata: bool,
  media_items: bool,
});
const txQuery = queryOf({ chain, include: fc.oneof(fc.constant('internal_transactions'), hostile) });
// Active chains: `chains` repeated, as `chains[]`, or comma-separated.
const chainsQuery = queryOf({ chains: fc.oneof(chain, fc.array(chain, { maxLength: 40 }).map((l) => l.join(','))) });
const tokensQuery = queryOf({ chain, to_block: int, token_addresses: address, exclude_spam: bool, exclude_native: bool, cursor: hostile, limit: int });
const erc20Query = queryOf({ chain, to_block: int, token_addresses: address, exclude_spam: bool });
const blockQuery = queryOf({ with_transactions: bool });
const tokenId = fc.oneof(fc.constantFrom('0', '1', '2', '115792089237316195423570985008687907853269984665640564039457584007913129639936'), hostile);
const resyncQuery = queryOf({ chain, flag: fc.oneof(fc.constantFrom('uri', 'metadata'), hostile), mode: fc.oneof(fc.constantFrom('sync', 'async'), hostile) });
/** The pages' own URL state (lib/view/search-params.ts): the API's names where there is one. */
const pageQuery = queryOf({
  chain,
  order: fc.oneof(fc.constantFrom('asc', 'desc'), hostile),
  from_date: date,
  to_date: date,
  from_block: int,
  to_block: int,
  internal: bool,
  spam: bool,
  cursor: hostile,
  time: fc.oneof(fc.constantFrom('age', 'utc'), hostile),
  contract: address,
  token: address,
  format: fc.oneof(fc.constantFrom('decimal', 'hex'), hostile),
  with_transactions: bool,
  q: hostile,
});

/** A path parameter: percent-encoded, or raw so malformed escapes and dot segments reach the server. */
const param = (a: fc.Arbitrary<string>) => fc.tuple(a, fc.boolean()).map(([s, raw]) => enc(s, raw));

const getPath = fc.oneof(
  fc.tuple(param(address), historyQuery).map(([a, q]) => `/api/v2.2/wallets/${a}/history${q}`),
  fc.tuple(param(address), nftQuery).map(([a, q]) => `/api/v2.2/${a}/nft${q}`),
  fc.tuple(param(address), queryOf({ chain })).map(([a, q]) => `/api/v2.2/${a}/balance${q}`),
  fc.tuple(param(address), chainsQuery).map(([a, q]) => `/api/v2.2/wallets/${a}/chains${q}`),
  fc.tuple(param(address), tokensQuery).map(([a, q]) => `/api/v2.2/wallets/${a}/tokens${q}`),
  fc.tuple(param(address), erc20Query).map(([a, q]) => `/api/v2.2/${a}/erc20${q}`),
  fc.tuple(param(address), queryOf({ chain, cursor: hostile, limit: int })).map(([a, q]) => `/api/v2.2/wallets/${a}/approvals${q}`),
  fc.tuple(param(address), queryOf({ chain })).map(([a, q]) => `/api/v2.2/wallets/${a}/stats${q}`),
  fc.tuple(param(hash), txQuery, fc.boolean()).map(([h, q, verbose]) => `/api/v2.2/transaction/${h}${verbose ? '/verbose' : ''}${q}`),
  fc.tuple(param(network), param(version), blockQuery).map(([n, v, q]) => `/api/ledger/${n}/blocks/by_version/${v}${q}`),
  fc.tuple(param(address), param(tokenId), resyncQuery).map(([a, t, q]) => `/api/v2.2/nft/${a}/${t}/metadata/resync${q}`),
  queryOf({ u: fc.oneof(fc.constantFrom('https://example.com/a.png', 'http://127.0.0.1/x.png', 'ipfs://x'), hostile), s: hostile }).map((q) => `/api/nft-media${q}`),
  queryOf({}).map((q) => `/api/health${q}`),
  fc.tuple(fc.array(param(hostile), { minLength: 1, maxLength: 4 })).map(([segs]) => `/api/${segs.join('/')}`),
  fc.constantFrom('/api/%2e%2e/health', '/api/./health', '/api/v2.2/../health', '/api//health', '/api/v2.2/wallets', '/api/ledger', '/api/v3/x'),
);

const postPath = fc.constantFrom('/api/auth/challenge/request/evm', '/api/auth/challenge/verify/evm');

/** Pages, the CSV download, preview images, unknown page paths, and Next's own files. */
const pagePath = fc.oneof(
  fc.tuple(pageQuery).map(([q]) => `/${q}`),
  pageQuery.map((q) => `/search${q}`),
  fc.tuple(param(address), pageQuery).map(([a, q]) => `/wallet/${a}${q}`),
  fc.tuple(param(address), pageQuery).map(([a, q]) => `/wallet/${a}/nfts${q}`),
  fc.tuple(param(address), pageQuery).map(([a, q]) => `/wallet/${a}/history.csv${q}`),
  param(address).map((a) => `/wallet/${a}/opengraph-image`),
  fc.tuple(param(network), param(version), pageQuery).map(([n, v, q]) => `/ledger/${n}/versions/${v}${q}`),
  fc.tuple(param(network), param(version)).map(([n, v]) => `/ledger/${n}/versions/${v}/opengraph-image`),
  fc.tuple(param(hash), pageQuery).map(([h, q]) => `/tx/${h}${q}`),
  fc.array(param(hostile), { minLength: 1, maxLength: 3 }).map((segs) => `/${segs.join('/')}`),
  fc.array(param(hostile), { minLength: 1, maxLength: 3 }).map((segs) => `/_next/${segs.join('/')}`),
  param(hostile).map((x) => `/_next/static/chunks/${x}.js`),
  fc.tuple(hostile, fc.constantFrom('16', '640', '0', 'x')).map(([u, w]) => `/_next/image?url=${enc(u, false)}&w=${w}&q=75`),
  fc.constantFrom('/favicon.ico', '/robots.txt', '/manifest.webmanifest', '/wallet', '/ledger', '/tx', '/ledger/local', '/wallet/%2e%2e/x', '/./wallet', '//wallet'),
);

/** Challenge-request bodies: valid-looking ones with a hostile field, and random JSON. */
const siweField = fc.oneof(hostile, fc.constantFrom('lantern.test', 'https://lantern.test/', 'line\nURI: https://evil.test', 'a\u2028b', 'x\u202ey', 'localhost:99999'));
const challengeBody = fc.record(
  {
    domain: siweField,
    chainId: fc.oneof(fc.constant(31337), fc.integer(), hostile),
    address,
    statement: siweField,
    uri: siweField,
    expirationTime: fc.oneof(fc.constantFrom('2030-01-01T00:00:00Z', '2000-01-01T00:00:00Z'), hostile),
    notBefore: fc.oneof(fc.constantFrom('2030-01-01T00:00:00Z'), hostile),
    resources: fc.array(siweField, { maxLength: 3 }),
    timeout: fc.oneof(fc.integer({ min: 0, max: 200 }), hostile),
  },
  { requiredKeys: [] },
);
const verifyBody = fc.record({ message: fc.oneof(hostile, fc.constant(`lantern.test wants you to sign in with your Ethereum account:\n${GOOD}\n\nURI: https://lantern.test/`)), signature: fc.oneof(fc.stringMatching(/^0x[0-9a-f]{130}$/), hostile) }, { requiredKeys: [] });
const body = fc.oneof(
  challengeBody.map((b) => JSON.stringify(b)),
  verifyBody.map((b) => JSON.stringify(b)),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc.constantFrom('{"message": "', '[[[[[[[[[[', 'null', '', '{"__proto__": {"admin": true}}', '\u0000'),
  fc.nat({ max: 2 }).map((i) => '{"message":"' + 'x'.repeat([65 * 1024, 300 * 1024, 1024 * 1024][i]) + '"}'),
  fc.integer({ min: 1, max: 5000 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
);

const contentType = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'application/vnd.api+json', 'text/plain', 'multipart/form-data', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', '', 'application/json; charset=utf-16');
/** Headers any client may send (fetch allows only ByteString values: Latin-1). */
const latin1 = fc.string({ unit: fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff })).map((c) => String.fromCharCode(c)), maxLength: 300 });
const headers = fc.record(
  {
    'Content-Type': contentType,
    Origin: fc.constantFrom('null', 'https://evil.example', 'http://127.0.0.1', 'http://127.0.0.1:1', 'file://', 'https://xn--80ak6aa92e.com'),
    'X-Forwarded-For': fc.oneof(fc.constantFrom('1.2.3.4', 'unknown, ::1', ''), latin1),
    'X-Forwarded-Host': latin1,
    'X-Request-Id': latin1,
    'X-API-Key': latin1,
    Accept: fc.constantFrom('application/json', 'text/x-component', '*/*', 'text/html'),
    'Accept-Encoding': fc.constantFrom('gzip', 'br', 'identity', 'x'),
    'Content-Encoding': fc.constantFrom('gzip', 'deflate', 'identity'),
    Cookie: fc.oneof(fc.constantFrom('lantern_session=forged', 'lantern_session=' + 'a'.repeat(4000)), latin1),
    Range: fc.constantFrom('bytes=0-10', 'bytes=-1', 'lines=1-2'),
    'If-None-Match': latin1,
    'Next-Action': latin1,
    RSC: fc.constantFrom('1', '0'),
    'Next-Router-State-Tree': latin1,
  },
  { requiredKeys: [] },
);

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND', 'MKCOL', 'SEARCH', 'PURGE', 'QUERY', 'FOO'];

interface Case {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const request: fc.Arbitrary<Case> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ method: fc.constantFrom('GET', 'HEAD'), path: getPath, headers }) },
  { weight: 3, arbitrary: fc.record({ method: fc.constant('POST'), path: postPath, headers, body }) },
  { weight: 2, arbitrary: fc.record({ method: fc.constantFrom(...METHODS), path: fc.oneof(getPath, postPath), headers, body: fc.option(body, { nil: undefined }) }) },
  { weight: 2, arbitrary: fc.record({ method: fc.constantFrom('GET', 'HEAD'), path: pagePath, headers }) },
  { weight: 1, arbitrary: fc.record({ method: fc.constantFrom(...METHODS), path: pagePath, headers, body: fc.option(body, { nil: undefined }) }) },
);

/** A path served by Next's pages rather than the published API (or the guard, for /_next/image). */
const isPage = (path: string) => !/^\/api(\/|\?|$)/.test(path) && !/^\/_next\/image(\?|$)/.test(path);
/** The "no such page" pages (app/not-found.tsx, and the wallet's and the transaction's own), in HTML or in its flight payload. */
const NOT_FOUND_PAGE = /No page here|That is not a wallet address|Transaction not found/;

// --- the run -------------------------------------------------------------------------------------

const agent = new Agent({ keepAlive: true, maxSockets: 8 });

let retried = 0;

/**
 * node:http, not fetch: fetch would resolve `%2e%2e` and normalise paths before sending them. A request
 * on a kept-alive socket the server closed meanwhile is retried once on a new one, as Node's docs
 * advise (`req.reusedSocket`): that race is the client's, not an answer.
 */
async function send(method: string, path: string, headers: Record<string, string>, body?: string) {
  try {
    return await sendOnce(method, path, headers, body, agent);
  } catch (e) {
    if (!(e as { reusedSocket?: boolean }).reusedSocket) throw e;
    retried++;
    return sendOnce(method, path, headers, body, false);
  }
}

function sendOnce(method: string, path: string, headers: Record<string, string>, body: string | undefined, via: Agent | false) {
  const u = new URL(lantern.url);
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }>((resolve, reject) => {
    // node:http frames a body only for methods it expects one with: a DELETE, OPTIONS or FOO body would go
    // out unframed and reach the server as a second, garbage request on the kept-alive socket.
    const framed = body === undefined ? headers : { ...headers, 'Content-Length': String(Buffer.byteLength(body)) };
    const req = httpRequest({ host: u.hostname, port: u.port, method, path, headers: framed, agent: via }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => {
        let raw = Buffer.concat(chunks);
        const coding = res.headers['content-encoding'];
        if (raw.length && coding === 'gzip') raw = gunzipSync(raw);
        else if (raw.length && coding === 'br') raw = brotliDecompressSync(raw);
        else if (raw.length && coding === 'deflate') raw = inflateSync(raw);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: raw.toString('utf8') });
      });
      res.on('error', reject);
    });
    req.on('error', (e) => reject(Object.assign(e, { reusedSocket: req.reusedSocket && ['ECONNRESET', 'EPIPE'].includes(String((e as { code?: string }).code)) })));
    req.setTimeout(60_000, () => req.destroy(new Error('no answer within 60 s')));
    req.end(body);
  });
}

describe('fuzzing the published API through npm start', () => {
  it('answers 4,000 generated requests with no 5xx, JSON on every 4xx but a page’s HTML 404, and stays healthy', async () => {
    const cases = fc.sample(request, { numRuns: 4000, seed: SEED });
    const failures: string[] = [];
    let unsendable = 0;
    let pages = 0;
    let pageNotFound = 0;
    const statuses = new Map<number, number>();
    for (let i = 0; i < cases.length; i += 8) {
      await Promise.all(
        cases.slice(i, i + 8).map(async (c) => {
          const sendsBody = c.body !== undefined && !['GET', 'HEAD'].includes(c.method);
          let res: { status: number; headers: Record<string, string | string[] | undefined>; text: string };
          try {
            res = await send(c.method, c.path, c.headers, sendsBody ? c.body : undefined);
          } catch (e) {
            // node:http refuses some header values before sending; anything else is a failure.
            if (['ERR_INVALID_CHAR', 'ERR_INVALID_HTTP_TOKEN', 'ERR_UNESCAPED_CHARACTERS'].includes(String((e as { code?: string }).code))) unsendable++;
            else failures.push(`${c.method} ${c.path.slice(0, 100)} ${JSON.stringify(c.headers)} -> ${String(e)}`);
            return;
          }
          const text = res.text;
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          const where = `${c.method} ${c.path.slice(0, 100)} ${JSON.stringify(c.headers).slice(0, 100)} -> ${res.status} ${text.slice(0, 100)}`;
          const type = String(res.headers['content-type'] ?? '');
          if (isPage(c.path)) pages++;
          if (res.status >= 500) failures.push(where);
          else if (res.status === 404 && /^\/_next\/static\//.test(c.path)) {
            // A build file that does not exist: Next's plain answer, for the script or style tag of a browser.
            if (type !== 'text/plain; charset=utf-8' || (c.method !== 'HEAD' && text !== 'Not Found')) failures.push(where);
          } else if (res.status === 404 && isPage(c.path)) {
            // A page path Lantern has no page for: the page that says so, as a person should see it (HTML;
            // for Next's client router, RSC: 1, the same page as its flight payload).
            pageNotFound++;
            const expected = c.headers.RSC === '1' ? /^text\/x-component\b/ : /^text\/html\b/;
            if (!expected.test(type) || (c.method !== 'HEAD' && !NOT_FOUND_PAGE.test(text))) failures.push(where);
          } else if (res.status >= 400 && c.method !== 'HEAD') {
            let json: { message?: unknown; code?: unknown } | undefined;
            try {
              json = JSON.parse(text);
            } catch {
              // not JSON
            }
            const isJson = /^application\/json\b/.test(type);
            if (!isJson || typeof json?.message !== 'string' || !json.message || typeof json.code !== 'string') failures.push(where);
          }
        }),
      );
      if (i % 400 === 0) expect((await fetch(`${lantern.url}/api/health`)).status).toBe(200);
    }
    const fivexx = [...statuses].filter(([s]) => s >= 500).reduce((n, [, k]) => n + k, 0);
    const sent = [...statuses.values()].reduce((a, b) => a + b, 0);
    console.log(
      `fuzz: ${sent} requests answered (${pages} to pages and /_next/, ${pageNotFound} of them the HTML 404 page; ${retried} retried after a kept-alive socket closed, ${unsendable} refused by node:http before sending), statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}, 5xx: ${fivexx}`,
    );
    expect(failures.slice(0, 10)).toEqual([]);
    expect(fivexx).toBe(0);
    expect(sent).toBeGreaterThanOrEqual(3000);
    expect(pages).toBeGreaterThanOrEqual(500);
    // Valid requests were among them: the run is not only refusals.
    expect([...statuses.keys()].some((s) => s >= 200 && s < 300)).toBe(true);
    expect((await fetch(`${lantern.url}/api/health`)).status).toBe(200);
    expect(lantern.output()).not.toMatch(/unhandledRejection|Unhandled|uncaught/i);
  }, 600_000);
});

// --- raw sockets ---------------------------------------------------------------------------------

/**
 * Writes `request` as is (several pieces: each its own TCP segment, written after the server has read the
 * one before) and reads until the server closes: status, headers and JSON body.
 */
function raw(request: string | string[]): Promise<{ status: number; headers: Record<string, string>; body: Record<string, unknown> | undefined; text: string }> {
  const { port } = new URL(lantern.url);
  const pieces = Array.isArray(request) ? request : [request];
  return new Promise((resolve, reject) => {
    const s = connect(Number(port), '127.0.0.1', async () => {
      s.setNoDelay(true);
      for (const [i, piece] of pieces.entries()) {
        if (i > 0) await new Promise((r) => setTimeout(r, 20));
        s.write(piece, 'latin1');
      }
    });
    let out = '';
    s.setEncoding('latin1');
    s.on('data', (d) => (out += d));
    s.on('error', reject);
    s.on('end', () => {
      const [head, ...rest] = Buffer.from(out, 'latin1').toString('utf8').split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const hdrs = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      let text = rest.join('\r\n\r\n');
      if (hdrs['transfer-encoding'] === 'chunked') text = dechunk(text);
      let body: Record<string, unknown> | undefined;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers: hdrs, body, text });
    });
    s.setTimeout(20_000, () => {
      s.destroy();
      reject(new Error(`no answer to ${pieces[0].slice(0, 60)}`));
    });
  });
}

function dechunk(text: string): string {
  let out = '';
  for (let at = 0; ; ) {
    const lineEnd = text.indexOf('\r\n', at);
    const size = parseInt(text.slice(at, lineEnd), 16);
    if (!size) return out;
    out += text.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
}

const H = 'Host: 127.0.0.1\r\nConnection: close\r\n';

describe('raw requests fetch cannot send', () => {
  const API = 'GET, HEAD, OPTIONS';
  const PAGE = 'GET, HEAD, POST';
  const LIMIT = 'the request line and headers together may be at most 16 KB.';
  const bigHeaders = `GET /api/health HTTP/1.1\r\n${H}X-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`;
  const longUrl = `GET /api/health?q=${'a'.repeat(20 * 1024)} HTTP/1.1\r\n${H}\r\n`;
  const segments = (text: string) => Array.from({ length: Math.ceil(text.length / 4096) }, (_, i) => text.slice(i * 4096, (i + 1) * 4096));
  it.each([
    ['GET * (asterisk-form)', `GET * HTTP/1.1\r\n${H}\r\n`, 400, 'invalid_request', 'The request target must be a path beginning with "/" (such as /api/health).', null],
    ['GET in absolute-form', `GET http://127.0.0.1/api/health HTTP/1.1\r\n${H}\r\n`, 400, 'invalid_request', 'The request target must be a path beginning with "/" (such as /api/health).', null],
    ['HTTP/1.1 without Host', 'GET /api/health HTTP/1.1\r\nConnection: close\r\n\r\n', 400, 'invalid_request', 'The request has no Host header; HTTP/1.1 requires one (Host: the name and port Lantern was reached at).', null],
    ['Expect other than 100-continue', `POST /api/auth/challenge/request/evm HTTP/1.1\r\n${H}Expect: 200-ok\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`, 417, 'expectation_failed', 'The Expect header asks for "200-ok", which Lantern does not support; send the request without it (only "100-continue" is understood).', null],
    ['TRACE on the API', `TRACE /api/health HTTP/1.1\r\n${H}\r\n`, 405, 'method_not_allowed', 'TRACE is not allowed here; use GET.', API],
    ['TRACE on a page', `TRACE / HTTP/1.1\r\n${H}\r\n`, 405, 'method_not_allowed', 'TRACE is not allowed here; use GET or POST.', PAGE],
    ['TRACE on the CSV download', `TRACE /wallet/${GOOD}/history.csv HTTP/1.1\r\n${H}\r\n`, 405, 'method_not_allowed', 'TRACE is not allowed here; use GET.', 'GET, HEAD'],
    ['PROPFIND on sign-in', `PROPFIND /api/auth/challenge/request/evm HTTP/1.1\r\n${H}\r\n`, 405, 'method_not_allowed', 'PROPFIND is not allowed here; use POST.', 'POST, OPTIONS'],
    ['an unknown method token on /api/health', `FOO /api/health HTTP/1.1\r\n${H}\r\n`, 405, 'method_not_allowed', 'FOO is not allowed here; use GET.', API],
    ['an unknown method token on sign-in', `FOO /api/auth/challenge/verify/evm HTTP/1.1\r\n${H}\r\n`, 405, 'method_not_allowed', 'FOO is not allowed here; use POST.', 'POST, OPTIONS'],
    ['an unknown method token on a page', `FOO /wallet/${GOOD} HTTP/1.1\r\n${H}\r\n`, 405, 'method_not_allowed', 'FOO is not allowed here; use GET or POST.', PAGE],
    ['CONNECT (its target is no path: Allow names what Lantern serves)', `CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n`, 405, 'method_not_allowed', 'CONNECT is not allowed: Lantern is not a proxy.', 'GET, HEAD, POST, OPTIONS'],
    ['20 KB of headers', bigHeaders, 431, 'request_headers_too_large', `The request headers are too large: ${LIMIT}`, null],
    ['20 KB of headers in 4 KB segments', segments(bigHeaders), 431, 'request_headers_too_large', `The request headers are too large: ${LIMIT}`, null],
    ['a 40 KB URL', `GET /api/health?q=${'a'.repeat(40 * 1024)} HTTP/1.1\r\n${H}\r\n`, 414, 'uri_too_long', `The request URL is too long: ${LIMIT}`, null],
    // Over node:http's own 64 KB only the segment it failed in is seen, and a long URL's looks like a long header's.
    ['a 100 KB URL', `GET /api/health?q=${'a'.repeat(100 * 1024)} HTTP/1.1\r\n${H}\r\n`, 431, 'request_headers_too_large', `The request is too large: ${LIMIT}`, null],
    ['a 20 KB URL in 4 KB segments', segments(longUrl), 414, 'uri_too_long', `The request URL is too long: ${LIMIT}`, null],
    ['encoded dot segments under /api', `GET /api/%2e%2e/health HTTP/1.1\r\n${H}\r\n`, 404, 'not_found', 'No API operation at /api/%2e%2e/health: dot segments ("." and "..", encoded or not) are not resolved.', null],
    ['plain dot segments under /api', `GET /api/v2.2/../health HTTP/1.1\r\n${H}\r\n`, 404, 'not_found', 'No API operation at /api/v2.2/../health: dot segments ("." and "..", encoded or not) are not resolved.', null],
    ['malformed %-encoding on the API', `GET /api/v2.2/%ZZ/nft HTTP/1.1\r\n${H}\r\n`, 400, 'invalid_request', 'The path contains malformed percent-encoding.', null],
    ['malformed %-encoding on a page', `GET /wallet/%ZZ HTTP/1.1\r\n${H}\r\n`, 400, 'invalid_request', 'The path contains malformed percent-encoding.', null],
    ['a router state no page sends', `GET /wallet/${GOOD} HTTP/1.1\r\n${H}RSC: 1\r\nNext-Router-State-Tree: %7B\r\n\r\n`, 400, 'invalid_request', 'The Next-Router-State-Tree header is not a router state Lantern’s pages send.', null],
    ['binary garbage', `\u0000\u0001\u0002 hello\r\n\r\n`, 400, 'invalid_request', 'The request is not valid HTTP/1.1.', null],
    ['a POST with Connection: Upgrade', `POST /api/auth/challenge/request/evm HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nContent-Length: 2\r\n\r\n{}`, 400, 'invalid_request', 'Lantern does not upgrade connections; send the POST without Connection: Upgrade.', null],
  ])('%s: %i %s', async (_name, request, status, code, message, allow) => {
    const r = await raw(request);
    expect(r.status).toBe(status);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.body).toEqual({ message, code });
    expect(r.headers.allow).toBe(allow ?? undefined);
  });

  it('OPTIONS * names the methods; GET with Upgrade (curl --http2, WebSocket) is answered as a plain GET', async () => {
    const star = await raw(`OPTIONS * HTTP/1.1\r\n${H}\r\n`);
    expect(star.status).toBe(204);
    expect(star.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
    const up = await raw(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAoAAAAAIAAAAA\r\n\r\n`);
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ ok: true });
  });

  it('every API route answers a wrong method with JSON 405 and Allow, /api/health included', async () => {
    for (const [path, method, allow] of [
      ['/api/health', 'DELETE', 'GET, HEAD, OPTIONS'],
      ['/api/health', 'POST', 'GET, HEAD, OPTIONS'],
      [`/api/v2.2/wallets/${GOOD}/history`, 'PUT', 'GET, HEAD, OPTIONS'],
      [`/api/v2.2/wallets/${GOOD}/chains`, 'POST', 'GET, HEAD, OPTIONS'],
      [`/api/v2.2/${GOOD}/nft`, 'PATCH', 'GET, HEAD, OPTIONS'],
      [`/api/v2.2/${GOOD}/balance`, 'POST', 'GET, HEAD, OPTIONS'],
      [`/api/v2.2/transaction/0x${'a'.repeat(64)}`, 'DELETE', 'GET, HEAD, OPTIONS'],
      [`/api/v2.2/transaction/0x${'a'.repeat(64)}/verbose`, 'POST', 'GET, HEAD, OPTIONS'],
      ['/api/ledger/local/blocks/by_version/1000', 'PUT', 'GET, HEAD, OPTIONS'],
      ['/api/auth/challenge/request/evm', 'GET', 'POST, OPTIONS'],
      ['/api/auth/challenge/verify/evm', 'PROPFIND', 'POST, OPTIONS'],
    ]) {
      const res = await fetch(lantern.url + path, { method });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('allow'), `${method} ${path}`).toBe(allow);
      const json = await res.json();
      expect(json.code).toBe('method_not_allowed');
      expect(json.message).toBe(`${method} is not allowed here; use ${allow.startsWith('POST') ? 'POST' : 'GET'}.`);
    }
  });
});

describe('a client that hangs up mid-request', () => {
  it('is one info line in the log, naming the request', async () => {
    const id = `fuzz-hang-up-${Date.now()}`;
    const { port } = new URL(lantern.url);
    await new Promise<void>((resolve) => {
      const s = connect(Number(port), '127.0.0.1', () => {
        s.write(
          `POST /api/auth/challenge/request/evm HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Request-Id: ${id}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"domain":`,
        );
        setTimeout(() => {
          s.destroy();
          resolve();
        }, 300);
      });
    });
    const linesOf = () =>
      lantern
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{') && l.includes(id))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    for (let i = 0; i < 100 && linesOf().length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 500)); // a second line, were there one, is written with the first
    const lines = linesOf();
    expect(lines.map((l) => [l.level, l.msg, l.method, l.path, l.status])).toEqual([[30, 'request aborted by the client', 'POST', '/api/auth/challenge/request/evm', 499]]);
    expect(JSON.stringify(lines)).not.toContain('"stack"');
  });
});

describe('the CSV download', () => {
  it('reads spam as the API reads booleans: any case of true/false, anything else a JSON 400 naming it', async () => {
    const AIRDROP = '0x1fa8c7e71204848d8477f219f038b8328490cff7b5d0bd3e4f85ad35c64b73f5'; // a spam airdrop to alice
    const alice = loadManifest().accounts.alice.checksumAddress;
    const csv = async (q: string) => {
      const res = await fetch(`${lantern.url}/wallet/${alice}/history.csv?chain=devnet${q}`);
      return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
    };
    const upper = await csv('&spam=TRUE');
    expect([upper.status, upper.type]).toEqual([200, 'text/csv; charset=utf-8']);
    expect(upper.text).toContain(AIRDROP);
    expect((await csv('&spam=true')).text).toBe(upper.text);
    expect((await csv('&spam=False')).text).toBe((await csv('')).text);
    expect((await csv('')).text).not.toContain(AIRDROP);
    for (const [q, message] of [
      ['&spam=yes', 'spam: expected true or false'],
      ['&spam=1', 'spam: expected true or false'],
      ['&spam=true&spam=false', 'spam: given more than once; send it once, true or false'],
    ]) {
      const r = await csv(q);
      expect([r.status, r.type, JSON.parse(r.text)]).toEqual([400, 'application/json', { message, code: 'invalid_parameter', parameter: 'spam' }]);
    }
  });
});
