import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchangeOverHttp } from '@/lib/sources/http-exchange';

/**
 * Lantern's upstream exchanges go over node:http (lib/sources/http-exchange.ts) where they went through
 * fetch: a caller must get what fetch gave it. Each case is asked of a real server on a loopback socket,
 * through the exchange and through fetch, and both answers compared.
 */
let server: Server;
let base: string;
const sockets = new Set<Socket>();
const served = new WeakSet<Socket>();
let requests: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];

function route(req: IncomingMessage, res: ServerResponse, body: string) {
  const url = new URL(req.url ?? '/', 'http://x');
  const payload = url.searchParams.get('say') ?? 'hello';
  switch (url.pathname) {
    case '/echo':
      return res.writeHead(200, { 'Content-Type': 'application/json', 'X-Seen': 'yes' }).end(JSON.stringify({ method: req.method, body }));
    case '/gzip':
      return res.writeHead(200, { 'Content-Encoding': 'gzip' }).end(gzipSync(payload));
    case '/deflate':
      return res.writeHead(200, { 'Content-Encoding': 'deflate' }).end(deflateSync(payload));
    case '/br':
      return res.writeHead(200, { 'Content-Encoding': 'br' }).end(brotliCompressSync(payload));
    case '/status':
      return res.writeHead(Number(url.searchParams.get('code')), 'Custom Reason').end(payload);
    case '/redirect':
      return res.writeHead(307, { Location: '/echo' }).end();
    case '/one-per-connection':
      // A connection's second request finds it closed (as one closed by the server while idle, a moment
      // before the client reused it): no answer on it.
      if (served.has(req.socket)) return void req.socket.destroy();
      served.add(req.socket);
      return res.writeHead(200, { 'Content-Length': String(payload.length) }).end(payload);
    case '/stall':
      return; // never answers
    default:
      return res.writeHead(404).end();
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      route(req, res, body);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => server.close(r));
});

/** What a caller reads of an answer: status, its reason, the headers it looks at, the body as text. */
async function viaExchange(url: string, init?: RequestInit) {
  const r = await exchangeOverHttp(url, init);
  if (!r) return undefined;
  const headers = new Headers(r.headers);
  return { status: r.status, statusText: r.statusText, type: headers.get('content-type'), seen: headers.get('x-seen'), body: r.body.toString('utf8') };
}
async function viaFetch(url: string, init?: RequestInit) {
  const r = await fetch(url, init);
  return { status: r.status, statusText: r.statusText, type: r.headers.get('content-type'), seen: r.headers.get('x-seen'), body: await r.text() };
}

describe('upstream exchanges over node:http', () => {
  it('answer as fetch does: methods, bodies, headers, statuses and their reasons', async () => {
    const cases: [string, RequestInit | undefined][] = [
      ['/echo', undefined],
      ['/echo', { method: 'POST', body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}', headers: { 'Content-Type': 'application/json' } }],
      ['/echo', { method: 'POST', body: new TextEncoder().encode('bytes ✓'), headers: new Headers({ 'X-API-Key': 'k' }) }],
      ['/status?code=500&say=down', undefined],
      ['/status?code=429&say=slow', { headers: [['Accept', 'application/json']] }],
      ['/status?code=404', undefined],
    ];
    for (const [path, init] of cases) expect([path, await viaExchange(base + path, init)]).toEqual([path, await viaFetch(base + path, init)]);
  });

  it('undo the compression an upstream chose, whatever the bytes (gzip, deflate, br)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/gzip', '/deflate', '/br'), fc.string({ unit: 'grapheme', maxLength: 200 }), async (path, text) => {
        const url = `${base}${path}?say=${encodeURIComponent(text)}`;
        expect((await viaExchange(url))?.body).toBe(text);
      }),
      { numRuns: 60 },
    );
  });

  it('ask for compression unless the caller says otherwise, and name themselves', async () => {
    requests = [];
    await exchangeOverHttp(`${base}/echo`);
    await exchangeOverHttp(`${base}/echo`, { headers: { 'Accept-Encoding': 'identity' } });
    expect(requests.map((r) => r.headers['accept-encoding'])).toEqual(['gzip, deflate, br', 'identity']);
    expect(requests[0]!.headers['user-agent']).toBe('lantern');
  });

  it('leave a redirect to fetch (which follows it as before)', async () => {
    expect(await exchangeOverHttp(`${base}/redirect`)).toBeUndefined();
  });

  it('fail as fetch fails: a refused connection, a timeout, an abort', async () => {
    const closed = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const { port } = s.address() as AddressInfo;
        s.close(() => resolve(port));
      });
    });
    const refused = await exchangeOverHttp(`http://127.0.0.1:${closed}/`).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TypeError);
    expect((refused as TypeError).message).toBe('fetch failed');
    expect(((refused as TypeError).cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');

    const timedOut = await exchangeOverHttp(`${base}/stall`, { signal: AbortSignal.timeout(50) }).catch((e: unknown) => e);
    expect((timedOut as Error).name).toBe('TimeoutError');

    const controller = new AbortController();
    const asked = exchangeOverHttp(`${base}/stall`, { signal: controller.signal }).catch((e: unknown) => e);
    controller.abort();
    expect((await asked as Error).name).toBe('AbortError');
    expect(await exchangeOverHttp(`${base}/echo`, { signal: AbortSignal.abort() }).catch((e: unknown) => (e as Error).name)).toBe('AbortError');
  });

  it('ask once: a connection dropped without an answer fails the exchange, for the caller’s retries to count', async () => {
    requests = [];
    await exchangeOverHttp(`${base}/one-per-connection?say=first`); // the connection is kept
    const dropped = await exchangeOverHttp(`${base}/one-per-connection?say=again`).catch((e: unknown) => e);
    expect((dropped as Error).message).toBe('fetch failed');
    expect(requests.filter((r) => r.url.includes('again'))).toHaveLength(1);
    // The next exchange is made on a new connection.
    expect((await exchangeOverHttp(`${base}/one-per-connection?say=third`))?.body.toString()).toBe('third');
  });
});
