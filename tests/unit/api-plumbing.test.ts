import { beforeEach, describe, expect, it, vi } from 'vitest';
import { issuePageToken, requireApiAccess, verifyPageToken } from '@/lib/api/access';
import { acceptsGzip } from '@/lib/http/compression.mjs';
import { queryObject } from '@/lib/api/handler';
import { resetConfigForTests } from '@/lib/config';
import { isNearby, scrub } from '@/lib/sources/hosted/client';
import { classifySearch } from '@/lib/search/classify';

beforeEach(() => {
  vi.stubEnv('API_KEYS', undefined);
  vi.stubEnv('DATA_DIR', '/tmp/lantern-unit-tokens');
});

describe('query strings', () => {
  it('reads repeated and indexed keys as arrays', () => {
    expect(queryObject('http://x/?token_addresses=a&token_addresses=b&chain=eth')).toEqual({ token_addresses: ['a', 'b'], chain: 'eth' });
    expect(queryObject('http://x/?token_addresses[0]=a&token_addresses[1]=b')).toEqual({ token_addresses: ['a', 'b'] });
    expect(queryObject('http://x/?token_addresses[]=a')).toEqual({ token_addresses: ['a'] });
  });
});

describe('kept answers: gzip only where the client accepts it', () => {
  it('reads Accept-Encoding as HTTP means it (names, *, q=0 refuses)', () => {
    for (const h of ['gzip', 'gzip, deflate, br', 'br;q=1.0, GZIP;q=0.5', '*', 'identity, *;q=0.1', 'deflate, gzip;q=0.001']) expect([h, acceptsGzip(h)]).toEqual([h, true]);
    for (const h of [null, '', 'br', 'identity', 'gzip;q=0', 'gzip;q=0.0, *', 'x-gzip', '*;q=0', 'br, *;q=0']) expect([h, acceptsGzip(h)]).toEqual([h, false]);
  });
});

describe('page tokens', () => {
  it('verify while fresh and fail once expired or altered', () => {
    const now = Date.UTC(2026, 0, 1);
    const t = issuePageToken(now);
    expect(verifyPageToken(t, now + 1000)).toBe(true);
    expect(verifyPageToken(t, now + 2 * 3600_000)).toBe(false);
    const [exp, mac] = t.split('.');
    expect(verifyPageToken(`${Number(exp) + 3600}.${mac}`, now)).toBe(false);
    expect(verifyPageToken('garbage', now)).toBe(false);
  });

  it('are only needed when API_KEYS is set', () => {
    const req = (h: Record<string, string> = {}) => new Request('http://x/api', { headers: h });
    expect(() => requireApiAccess(req())).not.toThrow();
    vi.stubEnv('API_KEYS', 'k-one-123456');
    resetConfigForTests();
    expect(() => requireApiAccess(req())).toThrow(/X-API-Key/);
    expect(() => requireApiAccess(req({ 'X-API-Key': 'k-one-123456' }))).not.toThrow();
    expect(() => requireApiAccess(req({ 'X-Lantern-Page-Token': issuePageToken() }))).not.toThrow();
  });
});

describe('upstream text', () => {
  it('is scrubbed of the key and shortened', () => {
    expect(scrub('Invalid key sk-123 (sk-123)', 'sk-123')).toBe('Invalid key [redacted] ([redacted])');
    expect(scrub('x'.repeat(2000), 'k')).toHaveLength(500);
  });
});

describe('an upstream nearby (asked for uncompressed answers)', () => {
  it('is one on this machine or a private network, never a public or named host', () => {
    for (const u of ['http://127.0.0.1:3000/api', 'http://localhost:3000', 'http://[::1]:8080/x', 'http://10.1.2.3/x', 'http://192.168.0.9', 'http://app.localhost/']) {
      expect(isNearby(u), u).toBe(true);
    }
    for (const u of ['https://deep-index.moralis.io/api/v2.2', 'https://8.8.8.8/x', 'http://[2001:4860:4860::8888]/', 'https://internal.example.com']) {
      expect(isNearby(u), u).toBe(false);
    }
  });
});

describe('search', () => {
  it('recognises addresses in any case, versions and ENS names', () => {
    expect(classifySearch(' 0xd8da6bf26964af9d7eed9e03e53415d37aa96045 ')).toEqual({
      kind: 'address',
      address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
    });
    expect(classifySearch('0xD8DA6BF26964AF9D7EED9E03E53415D37AA96045').kind).toBe('address');
    expect(classifySearch('0086447894')).toEqual({ kind: 'version', version: '86447894' });
    expect(classifySearch('18446744073709551616').kind).toBe('unknown'); // u64 overflow
    expect(classifySearch('Vitalik.eth')).toEqual({ kind: 'ens', name: 'vitalik.eth' });
    expect(classifySearch('0x1234').kind).toBe('unknown');
  });
});

describe('JSON text answered as bytes (lib/api/json-response.ts)', () => {
  it('sends exactly the UTF-8 of the text, on a first send and on a remembered one', async () => {
    const { jsonTextResponse } = await import('@/lib/api/json-response');
    const fc = (await import('fast-check')).default;
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 200 }), async (name) => {
        const text = JSON.stringify({ name, symbol: `${name}€🦊` });
        for (let i = 0; i < 2; i++) {
          const res = jsonTextResponse(text);
          expect(res.headers.get('content-type')).toBe('application/json');
          expect(await res.text()).toBe(text);
        }
      }),
    );
  });

  it('keeps the status and headers it is given, and a body read twice is whole both times', async () => {
    const { jsonTextResponse } = await import('@/lib/api/json-response');
    const text = JSON.stringify({ result: 'x'.repeat(100_000) });
    const a = jsonTextResponse(text, { status: 201, headers: { 'Cache-Control': 'no-store' } });
    const b = jsonTextResponse(text);
    expect(a.status).toBe(201);
    expect(a.headers.get('cache-control')).toBe('no-store');
    expect(await a.text()).toBe(text);
    expect(await b.text()).toBe(text);
  });
});

describe('CSV downloads (lib/api/csv-response.ts)', () => {
  it('names the file from its parts safely, whatever a URL put in them, and never lets it be cached or sniffed', async () => {
    const { csvResponse } = await import('@/lib/api/csv-response');
    const fc = (await import('fast-check')).default;
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 40 }), { maxLength: 4 }), (parts) => {
        const res = csvResponse('a,b\r\n', parts);
        const m = /^attachment; filename="([^"]*)"$/.exec(res.headers.get('content-disposition') ?? '');
        expect(m?.[1]).toMatch(/^lantern(-[\w.-]*)*\.csv$/);
        expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
        expect(res.headers.get('cache-control')).toBe('no-store');
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      }),
    );
    const named = csvResponse('', ['0xAbC', 'BNB Smart Chain']).headers.get('content-disposition');
    expect(named).toBe('attachment; filename="lantern-0xAbC-BNB-Smart-Chain.csv"');
  });
});
