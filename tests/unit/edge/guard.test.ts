import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import type { Server } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_HEADER_BYTES, allowedMethods, createGuardedServer, guardAction, isActionRequest } from '@/lib/edge';
import { PARSER_HEADER_BYTES } from '@/lib/edge/server';

/**
 * The edge guard (lib/edge/) on a real node:http server over real sockets, with `npm start`'s wiring
 * (createGuardedServer) and a stand-in for Next that answers 200 with what reached it. Raw sockets send
 * what fetch cannot: heads in several TCP segments, no Host, Expect, unknown methods.
 */

const ORIGIN = 'http://lantern.test';
const ACTION = 'aa'.repeat(21); // a well-formed id (42 hex digits) this "build" has

let server: Server;
let port: number;

beforeAll(async () => {
  server = createGuardedServer((req, res) => {
    if (isActionRequest(req)) {
      void guardAction(req, res, [ORIGIN], (replayed) => reached(replayed.url ?? '', res), new Set([ACTION]));
      return;
    }
    reached(req.url ?? '', res); // the body, if any, is left unread, as Next leaves a GET's
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

function reached(url: string, res: import('node:http').ServerResponse) {
  const body = JSON.stringify({ reached: url });
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  json: Record<string, unknown> | undefined;
}

/** A connection that writes pieces as separate TCP segments and reads whole responses (Content-Length). */
class Conn {
  private buf = '';
  private waiters: (() => void)[] = [];
  private ended = false;
  private constructor(private readonly s: Socket) {
    s.setEncoding('latin1');
    s.on('data', (d: string) => {
      this.buf += d;
      this.wake();
    });
    s.on('end', () => {
      this.ended = true;
      this.wake();
    });
    s.on('error', () => undefined);
  }

  static open(): Promise<Conn> {
    return new Promise((resolve) => {
      const s = connect(port, '127.0.0.1', () => resolve(new Conn(s)));
      s.setNoDelay(true);
    });
  }

  private wake() {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Each piece is written after the server has had time to read the one before. */
  async send(...pieces: string[]) {
    for (const p of pieces) {
      this.s.write(p, 'latin1');
      await new Promise((r) => setTimeout(r, 15));
    }
  }

  async answer(): Promise<Answer> {
    for (;;) {
      const headEnd = this.buf.indexOf('\r\n\r\n');
      if (headEnd !== -1) {
        const [statusLine, ...lines] = this.buf.slice(0, headEnd).split('\r\n');
        const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
        const length = Number(headers['content-length'] ?? 0);
        if (this.buf.length >= headEnd + 4 + length) {
          const text = Buffer.from(this.buf.slice(headEnd + 4, headEnd + 4 + length), 'latin1').toString('utf8');
          this.buf = this.buf.slice(headEnd + 4 + length);
          let json: Record<string, unknown> | undefined;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          return { status: Number(statusLine.split(' ')[1]), headers, json };
        }
      }
      if (this.ended) throw new Error(`connection closed after ${JSON.stringify(this.buf.slice(0, 200))}`);
      await new Promise<void>((r) => this.waiters.push(r));
    }
  }

  close() {
    this.s.destroy();
  }
}

async function once(...pieces: string[]): Promise<Answer> {
  const c = await Conn.open();
  try {
    await c.send(...pieces);
    return await c.answer();
  } finally {
    c.close();
  }
}

/** `text` cut into pieces of `size` characters. */
const cut = (text: string, size: number) => Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));

const LIMIT_KB = MAX_HEADER_BYTES / 1024;
const HEADERS_TOO_LARGE = {
  code: 'request_headers_too_large',
  message: `The request headers are too large: the request line and headers together may be at most ${LIMIT_KB} KB.`,
};
const URL_TOO_LONG = { code: 'uri_too_long', message: `The request URL is too long: the request line and headers together may be at most ${LIMIT_KB} KB.` };
const bigHeader = `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`;
const longUrl = `GET /api/health?q=${'a'.repeat(20 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`;

describe('oversized heads: 431 for headers, 414 for the URL, however the head is cut into segments', () => {
  it('20 KB of headers in 4 KB segments is 431, not "URL too long"', async () => {
    const r = await once(...cut(bigHeader, 4096));
    expect([r.status, r.headers['content-type'], r.json]).toEqual([431, 'application/json', HEADERS_TOO_LARGE]);
  });

  it('a 20 KB URL in 4 KB segments is 414', async () => {
    const r = await once(...cut(longUrl, 4096));
    expect([r.status, r.json]).toEqual([414, URL_TOO_LONG]);
  });

  it('a request line ending in CR at a segment end and LF at the next', async () => {
    const line = 'GET /api/health HTTP/1.1\r';
    const rest = `\nHost: x\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`;
    const r = await once(line, ...cut(rest, 4096));
    expect([r.status, r.json]).toEqual([431, HEADERS_TOO_LARGE]);
  });

  it('on a kept-alive connection, each head is judged on its own (after a GET, and after a POST whose body has line ends)', async () => {
    const c = await Conn.open();
    await c.send('GET /api/health HTTP/1.1\r\n', 'Host: x\r\n\r\n'); // its line end came in a segment of its own
    expect((await c.answer()).status).toBe(200);
    await c.send(...cut(longUrl, 4096));
    expect([(await c.answer()).json]).toEqual([URL_TOO_LONG]);
    c.close();

    const d = await Conn.open();
    const body = 'line one\r\nline two\r\n';
    await d.send(`POST /api/x HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n`, body);
    expect((await d.answer()).status).toBe(200);
    await d.send(...cut(longUrl, 4096));
    expect((await d.answer()).json).toEqual(URL_TOO_LONG);
    d.close();

    const e = await Conn.open();
    await e.send('GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n');
    expect((await e.answer()).status).toBe(200);
    await e.send(...cut(bigHeader, 4096));
    expect((await e.answer()).json).toEqual(HEADERS_TOO_LARGE);
    e.close();
  });

  it('the answer to a HEAD has no body, in one segment or several', async () => {
    for (const pieces of [[bigHeader.replace('GET', 'HEAD')], cut(bigHeader.replace('GET', 'HEAD'), 4096)]) {
      const text = await new Promise<string>((resolve) => {
        const sock = connect(port, '127.0.0.1', async () => {
          for (const p of pieces) {
            sock.write(p);
            await new Promise((r) => setTimeout(r, 15));
          }
        });
        let out = '';
        sock.setEncoding('latin1');
        sock.on('data', (d: string) => (out += d));
        sock.on('close', () => resolve(out));
        sock.on('error', () => undefined);
      });
      expect(text.startsWith('HTTP/1.1 431 Request Header Fields Too Large\r\n')).toBe(true);
      expect(text.slice(text.indexOf('\r\n\r\n'))).toBe('\r\n\r\n');
    }
  });

  it('any cut of a head whose request line alone is over the limit is 414; of one whose line is short, 431', async () => {
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.array(fc.integer({ min: 1, max: 30 * 1024 }), { minLength: 1, maxLength: 4 }), async (urlTooLong, cuts) => {
        const head = urlTooLong ? longUrl : bigHeader;
        const at = [...new Set(cuts.map((x) => x % head.length))].filter((x) => x > 0).sort((a, b) => a - b);
        const pieces = [0, ...at].map((from, i) => head.slice(from, at[i] ?? head.length));
        const r = await once(...pieces);
        expect(r.json).toEqual(urlTooLong ? URL_TOO_LONG : HEADERS_TOO_LARGE);
      }),
      { numRuns: 25, seed: 20261125 },
    );
  });
});

describe('oversized heads without watching every segment', () => {
  it('leaves the sockets to node:http (no data listener of its own, so node parses in C++)', async () => {
    const seen: number[] = [];
    const s = createGuardedServer((req, res) => {
      seen.push(req.socket.listenerCount('data'));
      res.end();
    });
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const res = await fetch(`http://127.0.0.1:${(s.address() as AddressInfo).port}/api/health`);
    await res.arrayBuffer();
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
    // node:http's own listener only (it never fires while its parser reads the socket in C++).
    expect(seen).toEqual([1]);
  });

  it('judges a head by what node:http counts: at the limit the URL is 414, just under it passes, headers over it are 431', async () => {
    // node:http counts the URL and each header's name and value: `/api/health?q=` + padding, `Host` + `x`.
    const url = (n: number) => `/api/health?q=${'a'.repeat(n - '/api/health?q='.length)}`;
    expect((await once(`GET ${url(MAX_HEADER_BYTES - 6)} HTTP/1.1\r\nHost: x\r\n\r\n`)).status).toBe(200);
    expect((await once(`GET ${url(MAX_HEADER_BYTES - 5)} HTTP/1.1\r\nHost: x\r\n\r\n`)).json).toEqual(HEADERS_TOO_LARGE);
    expect((await once(`GET ${url(MAX_HEADER_BYTES)} HTTP/1.1\r\nHost: x\r\n\r\n`)).json).toEqual(URL_TOO_LONG);
  });

  it('a head over node:http\'s own 64 KB is 431, naming the headers only when the segment it failed in shows them', async () => {
    // Short header lines: the segment it fails in holds line ends before the failure.
    const manyHeaders = `GET /api/health HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 70 }, (_, i) => `X-H${i}: ${'a'.repeat(1000)}\r\n`).join('')}\r\n`;
    expect((await once(manyHeaders)).json).toEqual(HEADERS_TOO_LARGE);
    // One long header, or a long URL: the segment it fails in is part of it, and says not which.
    const either = { code: 'request_headers_too_large', message: `The request is too large: the request line and headers together may be at most ${LIMIT_KB} KB.` };
    const hugeHeader = `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(PARSER_HEADER_BYTES)}\r\n\r\n`;
    const hugeUrl = `GET /api/health?q=${'a'.repeat(PARSER_HEADER_BYTES)} HTTP/1.1\r\nHost: x\r\n\r\n`;
    for (const pieces of [[hugeHeader], cut(hugeHeader, 4096), [hugeUrl], cut(hugeUrl, 4096)]) {
      const r = await once(...pieces);
      expect([r.status, r.json]).toEqual([431, either]);
    }
  });
});

describe('what node:http would answer with a bare status line', () => {
  it('HTTP/1.1 without Host: JSON 400 naming the header; HTTP/1.0 needs none', async () => {
    const r = await once('GET /api/health HTTP/1.1\r\n\r\n');
    expect([r.status, r.headers['content-type'], r.json]).toEqual([
      400,
      'application/json',
      { code: 'invalid_request', message: 'The request has no Host header; HTTP/1.1 requires one (Host: the name and port Lantern was reached at).' },
    ]);
    expect((await once('GET /api/health HTTP/1.0\r\n\r\n')).json).toEqual({ reached: '/api/health' });
  });

  it('Expect other than 100-continue: JSON 417 naming the header; 100-continue goes through', async () => {
    const r = await once('POST /api/x HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nContent-Length: 2\r\n\r\n{}');
    expect([r.status, r.headers['content-type'], r.json]).toEqual([
      417,
      'application/json',
      { code: 'expectation_failed', message: 'The Expect header asks for "200-ok", which Lantern does not support; send the request without it (only "100-continue" is understood).' },
    ]);
    const c = await Conn.open();
    await c.send('POST /api/x HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n');
    expect((await c.answer()).status).toBe(100);
    await c.send('{}');
    expect((await c.answer()).json).toEqual({ reached: '/api/x' });
    c.close();
  });

  it.each([
    ['FOO', '/api/health', 'GET, HEAD, OPTIONS', 'FOO is not allowed here; use GET.'],
    ['FOO', '/api/auth/challenge/request/evm', 'POST, OPTIONS', 'FOO is not allowed here; use POST.'],
    ['FOO', '/wallet/0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045', 'GET, HEAD, POST', 'FOO is not allowed here; use GET or POST.'],
    ['TRACE', '/api/health', 'GET, HEAD, OPTIONS', 'TRACE is not allowed here; use GET.'],
    ['TRACE', '/', 'GET, HEAD, POST', 'TRACE is not allowed here; use GET or POST.'],
    ['PROPFIND', '/wallet/0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045/history.csv', 'GET, HEAD', 'PROPFIND is not allowed here; use GET.'],
    ['MKCOL', '/_next/static/chunks/x.js', 'GET, HEAD', 'MKCOL is not allowed here; use GET.'],
    ['PUT', '/wallet/0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045', 'GET, HEAD, POST', 'PUT is not allowed here; use GET or POST.'],
    ['DELETE', '/', 'GET, HEAD, POST', 'DELETE is not allowed here; use GET or POST.'],
    ['POST', '/_next/static/chunks/x.js', 'GET, HEAD', 'POST is not allowed here; use GET.'],
    ['POST', '/wallet/0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045/history.csv', 'GET, HEAD', 'POST is not allowed here; use GET.'],
  ])('%s %s: 405, Allow %s', async (method, path, allow, message) => {
    const r = await once(`${method} ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect([r.status, r.headers.allow, r.json]).toEqual([405, allow, { code: 'method_not_allowed', message }]);
  });
});

describe('paths no operation serves, and the ledger paths', () => {
  it.each(['TRACE', 'FOO'])('%s on an API path only the catch-all matches: 404, as the catch-all answers every method', async (method) => {
    const r = await once(`${method} /api/no-such-operation HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect([r.status, r.headers.allow, r.json]).toEqual([404, undefined, { code: 'not_found', message: 'No API operation at /api/no-such-operation.' }]);
  });

  it("a 405 on a ledger path carries the ledger node's error fields (lib/api/ledger-errors.ts)", async () => {
    const r = await once('TRACE /api/ledger/local/blocks/by_version/1 HTTP/1.1\r\nHost: x\r\n\r\n');
    expect([r.status, r.headers.allow, r.json]).toEqual([
      405,
      'GET, HEAD, OPTIONS',
      { code: 'method_not_allowed', message: 'TRACE is not allowed here; use GET.', error_code: 'web_framework_error', vm_error_code: null },
    ]);
  });
});

describe('OPTIONS', () => {
  it('on a page: 204 with its Allow; on the API: passed to its route handlers (their CORS preflight)', async () => {
    const page = await once('OPTIONS /wallet/x HTTP/1.1\r\nHost: x\r\n\r\n');
    expect([page.status, page.headers.allow]).toEqual([204, 'GET, HEAD, POST']);
    expect((await once('OPTIONS /api/health HTTP/1.1\r\nHost: x\r\n\r\n')).json).toEqual({ reached: '/api/health' });
  });
});

describe("pages' router-state header", () => {
  const valid = encodeURIComponent(JSON.stringify(['', { children: ['__PAGE__', {}] }]));
  it.each([
    ['a page, a router state Next sends', '/', valid, 200],
    ['a page, not a router state', '/', '%7B', 400],
    ['a page, JSON of the wrong shape', '/wallet/x', encodeURIComponent('{"a":1}'), 400],
    ['the API, which reads no router state', '/api/health', '%7B', 200],
  ])('%s: %i', async (_name, path, value, status) => {
    const r = await once(`GET ${path} HTTP/1.1\r\nHost: x\r\nNext-Router-State-Tree: ${value}\r\n\r\n`);
    expect(r.status).toBe(status);
    expect(r.json).toEqual(
      status === 200 ? { reached: path } : { code: 'invalid_request', message: 'The Next-Router-State-Tree header is not a router state Lantern’s pages send.' },
    );
  });

  it('malformed percent-encoding in a page path is a JSON 400 too', async () => {
    const r = await once('GET /wallet/%ZZ HTTP/1.1\r\nHost: x\r\n\r\n');
    expect([r.status, r.json]).toEqual([400, { code: 'invalid_request', message: 'The path contains malformed percent-encoding.' }]);
  });
});

describe('server actions', () => {
  const post = (id: string) => `POST / HTTP/1.1\r\nHost: x\r\nOrigin: ${ORIGIN}\r\nNext-Action: ${id}\r\nContent-Type: text/plain;charset=UTF-8\r\nContent-Length: 2\r\n\r\n[]`;

  it('an id the build has goes through; an unknown one is a JSON 404 with the header Next’s client reads; a malformed one a 400', async () => {
    expect((await once(post(ACTION))).json).toEqual({ reached: '/' });
    const unknown = await once(post('bb'.repeat(21)));
    expect([unknown.status, unknown.headers['x-nextjs-action-not-found'], unknown.json]).toEqual([
      404,
      '1',
      { code: 'not_found', message: `This version of Lantern has no server action "${'bb'.repeat(21)}": the page was probably loaded before Lantern was updated; reload it.` },
    ]);
    const malformed = await once(post('x'));
    expect([malformed.status, malformed.json]).toEqual([400, { code: 'invalid_request', message: '"x" is not a server action id.' }]);
  });
});

describe('allowedMethods', () => {
  it.each([
    ['/api/health', 'GET, HEAD, OPTIONS'],
    ['/api/v2.2/nft/0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045/1/metadata/resync', 'GET, HEAD, OPTIONS'],
    ['/api/auth/challenge/verify/evm/', 'POST, OPTIONS'],
    ['/', 'GET, HEAD, POST'],
    ['/ledger/local/versions/1', 'GET, HEAD, POST'],
    ['/ledger/local/versions/1/opengraph-image', 'GET, HEAD'],
    ['/wallet/0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045/opengraph-image-1a2b3c', 'GET, HEAD'],
    ['/wallet/0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045/history.csv', 'GET, HEAD'],
    ['/wallet/0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045/tokens.csv', 'GET, HEAD'],
    ['/api/live/heads', 'GET, HEAD, OPTIONS'],
    ['/api/no-such-operation', undefined],
    ['/_next/static/chunks/main.js', 'GET, HEAD'],
    ['/favicon.ico', 'GET, HEAD'],
  ])('%s: %s', (path, allow) => expect(allowedMethods(path)).toBe(allow));
});
