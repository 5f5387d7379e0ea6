import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostGate } from '../../../lib/security/host-gate';
import { OutboundRefused, checkUrl, checkedLookup, fetchPublicJson, isAllowListed, nonPublicReason, sniffRaster, type FetchJsonOptions } from '../../../lib/security/outbound';

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

async function reason(url: string, o: FetchJsonOptions = opts()): Promise<string> {
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

  // DNS answers, deterministically: the resolver is injected, so a name answers what each test says.
  const answering =
    (...answers: string[][]) =>
    (calls: string[]) =>
    async (hostname: string) => {
      calls.push(hostname);
      const list = answers[Math.min(calls.length - 1, answers.length - 1)];
      return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    };

  it.each([
    ['a private address', ['127.0.0.1']],
    ['an RFC 1918 address', ['10.1.2.3']],
    ['the cloud metadata service', ['169.254.169.254']],
    ['IPv6 loopback', ['::1']],
    ['mixed public and private answers', ['93.184.216.34', '127.0.0.1']],
    ['mixed, private first', ['127.0.0.1', '2606:4700:4700::1111']],
  ])('a name whose DNS answer holds %s is refused before any connection', async (_what, answer) => {
    const calls: string[] = [];
    const before = good.connections;
    const o = { ...opts(), allowHosts: [], resolve: answering(answer)(calls) };
    await expect(fetchPublicJson(`http://inside.example:${good.port}/good.json`, o)).rejects.toMatchObject({ reason: 'address_not_public' });
    expect(calls).toEqual(['inside.example']); // resolved once, for the one connection attempt
    expect(good.connections).toBe(before);
  });

  it('a name that resolved to a public address and then to a private one (rebinding) is refused at the second lookup', async () => {
    const calls: string[] = [];
    const lookup = checkedLookup(answering(['93.184.216.34'], ['127.0.0.1'])(calls));
    const ask = () =>
      new Promise<{ err: unknown; address: unknown }>((r) => lookup('rebind.example', { family: 0 }, (err, address) => r({ err, address })));
    expect(await ask()).toEqual({ err: null, address: '93.184.216.34' });
    const second = await ask();
    expect(second.err).toBeInstanceOf(OutboundRefused);
    expect((second.err as OutboundRefused).reason).toBe('address_not_public');
    expect((second.err as OutboundRefused).message).toBe('rebind.example resolves to 127.0.0.1, which is not public (loopback)');
    // The socket connects to what the lookup answered; every connection asks again, so the answer it
    // connects to is always the one just checked. Through fetchPublicJson, a rebound name is refused
    // without a connection:
    const before = good.connections;
    const o = { ...opts(), allowHosts: [], resolve: answering(['127.0.0.1'])([]) };
    expect(await reason(`http://rebind.example:${good.port}/good.json`, o)).toBe('address_not_public');
    expect(good.connections).toBe(before);
  });

  it('a name with no address is dns_failed; a resolver error is a network error; neither connects', async () => {
    const before = good.connections;
    expect(await reason(`http://empty.example:${good.port}/`, { ...opts(), allowHosts: [], resolve: async () => [] })).toBe('dns_failed');
    const failing = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    expect(await reason(`http://missing.example:${good.port}/`, { ...opts(), allowHosts: [], resolve: failing })).toBe('network_error');
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

// --- the per-host gate ------------------------------------------------------------------------------

describe('per-host limits (HostGate), on every hop', () => {
  it('schedules starts one interval apart per host and runs at most `concurrency` at once (clock injected)', async () => {
    const sleeps: number[] = [];
    const gate = new HostGate({ concurrency: 2, intervalMs: 200, now: () => 1_000, sleep: async (ms) => void sleeps.push(ms) });
    let active = 0;
    let most = 0;
    const task = async () => {
      active++;
      most = Math.max(most, active);
      await new Promise((r) => setImmediate(r));
      active--;
    };
    await Promise.all(Array.from({ length: 5 }, () => gate.run('a.example:443', task)));
    expect(most).toBe(2);
    // The first starts at once; each later one waits for its slot one interval after the previous.
    expect(sleeps).toEqual([200, 400, 600, 800]);
    // Another host has a schedule of its own.
    await gate.run('b.example:443', task);
    expect(sleeps).toEqual([200, 400, 600, 800]);
  });

  it('a redirect target is gated as its own host: four first hosts redirecting to one server meet its limit of 2', async () => {
    let active = 0;
    let most = 0;
    let served = 0;
    const target = await serve('127.0.0.1', (_q, res) => {
      active++;
      served++;
      most = Math.max(most, active);
      setTimeout(() => {
        active--;
        res.setHeader('Content-Type', 'application/json');
        res.end('{"name":"Target"}');
      }, 60);
    });
    const firsts = await Promise.all(
      Array.from({ length: 4 }, () =>
        serve('127.0.0.1', (_q, res) => {
          res.statusCode = 302;
          res.setHeader('Location', `http://127.0.0.1:${target.port}/t.json`);
          res.end();
        }),
      ),
    );
    try {
      const gate = new HostGate({ concurrency: 2, intervalMs: 0 });
      const o = { allowHosts: ['127.0.0.1'], maxBytes: 1024, timeoutMs: 5_000, maxRedirects: 3, gate };
      const results = await Promise.all(firsts.flatMap((f) => [1, 2].map(() => fetchPublicJson(`http://127.0.0.1:${f.port}/start`, o))));
      expect(results.map((r) => r.json)).toEqual(Array.from({ length: 8 }, () => ({ name: 'Target' })));
      expect(served).toBe(8);
      expect(most).toBe(2);
      expect(gate.size).toBe(0);
    } finally {
      await target.stop();
      for (const f of firsts) await f.stop();
    }
  });
});

describe('sniffRaster (the media proxy passes what the bytes are, not what the server says)', () => {
  const bytes = (...parts: (string | number[])[]) => Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));
  it.each([
    ['image/png', bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a, 0, 0])],
    ['image/jpeg', bytes([0xff, 0xd8, 0xff, 0xe0])],
    ['image/gif', bytes('GIF89a', [1, 0])],
    ['image/gif', bytes('GIF87a')],
    ['image/webp', bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 ')],
    ['image/avif', bytes([0, 0, 0, 0x1c], 'ftypavif')],
  ])('%s', (type, b) => {
    expect(sniffRaster(b)).toBe(type);
  });
  it.each([
    ['SVG', bytes('<svg xmlns="http://www.w3.org/2000/svg"/>')],
    ['SVG after an XML declaration', bytes('<?xml version="1.0"?><svg/>')],
    ['HTML', bytes('<!doctype html><script>alert(1)</script>')],
    ['a PNG signature cut short', bytes([0x89], 'PNG')],
    ['RIFF that is not WebP', bytes('RIFF', [0, 0, 0, 0], 'WAVE')],
    ['nothing', bytes()],
  ])('refuses %s', (_what, b) => {
    expect(sniffRaster(b)).toBeNull();
  });
  it('text never passes, whatever it says (property)', () => {
    fc.assert(
      fc.property(fc.string(), (t) => {
        expect(sniffRaster(new TextEncoder().encode(`<${t}`))).toBeNull();
      }),
    );
  });
});
