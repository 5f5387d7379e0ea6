import { lookup } from 'node:dns/promises';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundRefused, checkUrl, fetchPublicJson, isAllowListed, nonPublicReason } from '../../../lib/security/outbound';

// The SSRF guard of the NFT metadata fetcher: address classification, URL forms, and real loopback
// servers that count every connection they receive (a refused address must see none).

const NOT_PUBLIC = [
  '127.0.0.1', '127.0.0.2', '127.255.255.254', '10.0.0.1', '10.255.255.255', '172.16.0.1', '172.31.255.255', '192.168.1.1',
  '169.254.1.1', '169.254.169.254', '100.64.0.1', '100.127.255.255', '100.100.100.200', '224.0.0.1', '239.255.255.250',
  '240.0.0.1', '255.255.255.255', '0.0.0.0', '0.1.2.3', '198.18.0.1', '198.19.255.255', '192.0.2.1', '198.51.100.7',
  '203.0.113.5', '192.0.0.8',
  '::1', '::', 'fe80::1', 'febf::1', 'fc00::1', 'fd12:3456::1', 'fd00:ec2::254', '::ffff:127.0.0.1', '::ffff:7f00:1',
  '::ffff:8.8.8.8', '::127.0.0.1', '::10.0.0.1', '::ffff:0:10.0.0.1', '64:ff9b::10.0.0.1', '64:ff9b::127.0.0.1',
  '64:ff9b::169.254.169.254', 'ff02::1', 'ff0e::1', '2001:db8::1', '2002:7f00:1::1', '2001::1', '2001:2::1', '3fff::1',
  'fe80::1%eth0',
];
const PUBLIC = ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '11.0.0.1', '2606:4700:4700::1111', '2a00:1450:4001:82a::200e', '64:ff9b::8.8.8.8'];

describe('nonPublicReason', () => {
  it.each(NOT_PUBLIC)('refuses %s', (a) => {
    expect(nonPublicReason(a)).toEqual(expect.any(String));
  });
  it.each(PUBLIC)('accepts %s', (a) => {
    expect(nonPublicReason(a)).toBeNull();
  });
});

const none = { allowHosts: [] as string[] };
const refusal = (fn: () => unknown): string | null => {
  try {
    fn();
    return null;
  } catch (e) {
    return e instanceof OutboundRefused ? e.reason : `unexpected ${String(e)}`;
  }
};

describe('checkUrl', () => {
  it.each([
    'http://127.0.0.1/',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://0x7f.1/',
    'http://0177.0.0.1/',
    'http://017700000001/',
    'http://127.1/',
    'http://127.0.1/',
    'http://0/',
    'http://0.0.0.0:80/',
    'http://[::]/',
    'http://[::1]:8080/x.json',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:a9fe:a9fe]/',
    'http://[0:0:0:0:0:ffff:10.0.0.1]/',
    'http://[fd00:ec2::254]/latest/meta-data/',
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.1/',
    'http://167772161/',
    'http://[fe80::1]/',
    'http://[64:ff9b::a00:1]/',
    'https://localhost/',
    'https://localhost./',
    'http://foo.localhost/',
  ])('refuses %s before any connection (address_not_public)', (u) => {
    expect(refusal(() => checkUrl(u, none))).toBe('address_not_public');
  });

  it.each([
    ['file:///etc/passwd', 'scheme_not_allowed'],
    ['ftp://example.com/x.json', 'scheme_not_allowed'],
    ['gopher://example.com/', 'scheme_not_allowed'],
    ['javascript:alert(1)', 'scheme_not_allowed'],
    ['http://user:pw@example.com/', 'credentials_in_url'],
    ['not a url', 'invalid_url'],
  ])('refuses %s (%s)', (u, reason) => {
    expect(refusal(() => checkUrl(u, none))).toBe(reason);
  });

  it('accepts public names and addresses', () => {
    expect(checkUrl('https://example.com/a.json', none).hostname).toBe('example.com');
    expect(checkUrl('http://8.8.8.8/a.json', none).hostname).toBe('8.8.8.8');
    expect(checkUrl('http://[2606:4700:4700::1111]/', none).hostname).toBe('[2606:4700:4700::1111]');
    // Names that merely start like numbers are names (DNS decides, and its answer is checked).
    expect(checkUrl('https://0xproject.example/a.json', none).hostname).toBe('0xproject.example');
    expect(checkUrl('https://1inch.example/a.json', none).hostname).toBe('1inch.example');
  });

  it('the allow list names hosts (any port) or host:port exactly', () => {
    const p = { allowHosts: ['127.0.0.1:9999', 'ipfs.internal', '[::1]:81'] };
    expect(isAllowListed(new URL('http://127.0.0.1:9999/x'), p)).toBe(true);
    expect(isAllowListed(new URL('http://2130706433:9999/x'), p)).toBe(true); // the same address, parsed
    expect(isAllowListed(new URL('http://127.0.0.1:9998/x'), p)).toBe(false);
    expect(isAllowListed(new URL('http://127.0.0.2:9999/x'), p)).toBe(false);
    expect(isAllowListed(new URL('http://ipfs.internal:5001/x'), p)).toBe(true);
    expect(isAllowListed(new URL('http://[::1]:81/x'), p)).toBe(true);
    expect(isAllowListed(new URL('http://[::1]:82/x'), p)).toBe(false);
    expect(refusal(() => checkUrl('http://127.0.0.2:9999/', p))).toBe('address_not_public');
  });

  it('every spelling of an IPv4 address gets the verdict of the address itself (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), (n) => {
        const bytes = [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
        const dotted = bytes.join('.');
        const expected = nonPublicReason(dotted) === null ? null : 'address_not_public';
        for (const form of [String(n), `0x${n.toString(16)}`, bytes.map((b) => `0${b.toString(8)}`).join('.'), `${bytes[0]}.${(n & 0xffffff) >>> 0}`]) {
          expect(refusal(() => checkUrl(`http://${form}/`, none))).toBe(expected);
        }
        expect(refusal(() => checkUrl(`http://[::ffff:${dotted}]/`, none))).toBe('address_not_public');
      }),
      { numRuns: 500 },
    );
  });

  it('private IPv4 ranges are refused in every form (property)', () => {
    const privateAddr = fc.oneof(
      fc.integer({ min: 0x0a000000, max: 0x0affffff }),
      fc.integer({ min: 0xac100000, max: 0xac1fffff }),
      fc.integer({ min: 0xc0a80000, max: 0xc0a8ffff }),
      fc.integer({ min: 0x7f000000, max: 0x7fffffff }),
      fc.integer({ min: 0xa9fe0000, max: 0xa9feffff }),
      fc.integer({ min: 0x64400000, max: 0x647fffff }),
    );
    fc.assert(
      fc.property(privateAddr, (n) => {
        expect(refusal(() => checkUrl(`http://${n}/`, none))).toBe('address_not_public');
        expect(refusal(() => checkUrl(`http://0x${n.toString(16)}/`, none))).toBe('address_not_public');
      }),
    );
  });
});

// --- real loopback servers --------------------------------------------------------------------------

interface Counted {
  server: http.Server;
  port: number;
  connections: number;
  stop: () => Promise<void>;
}

async function serve(host: string, handler: http.RequestListener, port = 0): Promise<Counted> {
  const server = http.createServer(handler);
  const c: Counted = { server, port: 0, connections: 0, stop: () => new Promise((r) => server.close(() => r())) };
  server.on('connection', (s) => {
    c.connections++;
    s.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(port, host, () => r()));
  c.port = (server.address() as AddressInfo).port;
  return c;
}

let good: Counted;
let inner: Counted; // on 127.0.0.2, never allow-listed
const opts = () => ({ allowHosts: [`127.0.0.1:${good.port}`], maxBytes: 1024, timeoutMs: 500, maxRedirects: 3 });

beforeAll(async () => {
  inner = await serve('127.0.0.2', (_q, s) => s.end('{"secret":true}'));
  good = await serve('127.0.0.1', (req, res) => {
    const u = new URL(req.url!, 'http://x');
    const json = (body: string, type = 'application/json') => {
      res.setHeader('Content-Type', type);
      res.end(body);
    };
    switch (u.pathname) {
      case '/good.json':
        return json('{"name":"Good"}');
      case '/big.json':
        return json(JSON.stringify({ pad: 'x'.repeat(5000) }));
      case '/big-chunked.json':
        res.setHeader('Content-Type', 'application/json');
        res.write('{"pad":"');
        for (let i = 0; i < 20; i++) res.write('y'.repeat(100));
        return res.end('"}');
      case '/slow.json':
        return void setTimeout(() => json('{"late":true}'), 2000);
      case '/trickle.json': {
        res.setHeader('Content-Type', 'application/json');
        res.write('{');
        const t = setInterval(() => res.write(' '), 100);
        return void setTimeout(() => (clearInterval(t), res.end('}')), 3000);
      }
      case '/html':
        return json('<html></html>', 'text/html');
      case '/array.json':
        return json('[1,2]');
      case '/not-json.json':
        return json('{name: nope}');
      case '/loop':
        res.statusCode = 302;
        res.setHeader('Location', '/loop');
        return res.end();
      case '/hop':
        res.statusCode = 301;
        res.setHeader('Location', `/good.json`);
        return res.end();
      case '/to-inner':
        res.statusCode = 302;
        res.setHeader('Location', `http://127.0.0.2:${inner.port}/x.json`);
        return res.end();
      case '/to-metadata':
        res.statusCode = 307;
        res.setHeader('Location', 'http://169.254.169.254/latest/meta-data/');
        return res.end();
      case '/to-decimal':
        res.statusCode = 302;
        res.setHeader('Location', `http://2130706434:${inner.port}/`);
        return res.end();
      case '/to-file':
        res.statusCode = 302;
        res.setHeader('Location', 'file:///etc/passwd');
        return res.end();
      default:
        res.statusCode = 404;
        return res.end();
    }
  });
});
afterAll(async () => {
  await good?.stop();
  await inner?.stop();
});

async function reason(url: string, o = opts()): Promise<string> {
  try {
    await fetchPublicJson(url, o);
    return 'fetched';
  } catch (e) {
    return e instanceof OutboundRefused ? e.reason : `unexpected ${String(e)}`;
  }
}

describe('fetchPublicJson against loopback servers', () => {
  it('with the default (empty) allow list, loopback in any form is refused without a connection', async () => {
    const before = good.connections;
    for (const host of ['127.0.0.1', '2130706433', '0x7f000001', '127.1', '[::ffff:127.0.0.1]', 'localhost']) {
      expect(await reason(`http://${host}:${good.port}/good.json`, { ...opts(), allowHosts: [] }), host).toBe('address_not_public');
    }
    expect(good.connections).toBe(before);
  });

  // Names in /etc/hosts pointing at loopback (other than `localhost`) exercise the DNS-answer check.
  const hostsName = (() => {
    try {
      return readFileSync('/etc/hosts', 'utf8')
        .split('\n')
        .map((l) => l.trim().split(/\s+/))
        .find((f) => f[0]?.startsWith('127.') && f[1] && f[1] !== 'localhost' && /^[a-z][a-z0-9-]*$/i.test(f[1]))?.[1];
    } catch {
      return undefined;
    }
  })();
  it.skipIf(!hostsName)('a name whose DNS answer is loopback is refused before connecting', async () => {
    const { address } = await lookup(hostsName!);
    expect(nonPublicReason(address)).toEqual(expect.any(String));
    const before = good.connections;
    expect(await reason(`http://${hostsName}:${good.port}/good.json`, { ...opts(), allowHosts: [] })).toBe('address_not_public');
    expect(good.connections).toBe(before);
  });

  it('fetches good JSON from an allow-listed host, and follows a redirect', async () => {
    expect((await fetchPublicJson(`http://127.0.0.1:${good.port}/good.json`, opts())).json).toEqual({ name: 'Good' });
    const r = await fetchPublicJson(`http://127.0.0.1:${good.port}/hop`, opts());
    expect(r.json).toEqual({ name: 'Good' });
    expect(r.finalUrl).toBe(`http://127.0.0.1:${good.port}/good.json`);
  });

  it.each([
    ['/big.json', 'too_large'],
    ['/big-chunked.json', 'too_large'],
    ['/slow.json', 'timeout'],
    ['/trickle.json', 'timeout'],
    ['/html', 'not_json'],
    ['/array.json', 'not_json'],
    ['/not-json.json', 'not_json'],
    ['/loop', 'too_many_redirects'],
    ['/missing', 'http_status'],
    ['/to-metadata', 'address_not_public'],
    ['/to-file', 'scheme_not_allowed'],
  ])('%s is refused: %s', async (path, why) => {
    expect(await reason(`http://127.0.0.1:${good.port}${path}`)).toBe(why);
  });

  it('a redirect to a non-allow-listed private address is refused and never reached', async () => {
    expect(await reason(`http://127.0.0.1:${good.port}/to-inner`)).toBe('address_not_public');
    expect(await reason(`http://127.0.0.1:${good.port}/to-decimal`)).toBe('address_not_public');
    expect(inner.connections).toBe(0);
  });
});
