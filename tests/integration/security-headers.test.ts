import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLantern, type LanternInstance } from '../support/lantern';

let lantern: LanternInstance;
const API = '/api/v2.2/wallets/0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045/history';

beforeAll(async () => {
  lantern = await startLantern({
    CORS_ORIGINS: 'https://friend.example',
    NFT_IPFS_GATEWAY: 'https://gateway.example/ipfs',
    NFT_MEDIA_ORIGINS: 'https://media.example',
    // No devnet behind this instance: only headers are under test.
    DEVNET_EVM_PORT: '1',
    DEVNET_LEDGER_PORT: '2',
  });
});
afterAll(() => lantern?.stop());

const directive = (csp: string, name: string) =>
  csp
    .split(';')
    .map((d) => d.trim())
    .find((d) => d.startsWith(`${name} `)) ?? '';

describe('security headers', () => {
  it('send a CSP with a fresh script nonce per request that matches the page’s scripts', async () => {
    const [a, b] = await Promise.all([fetch(lantern.url + '/'), fetch(lantern.url + '/')]);
    const cspA = a.headers.get('content-security-policy')!;
    const cspB = b.headers.get('content-security-policy')!;
    const nonceA = directive(cspA, 'script-src').match(/'nonce-([^']+)'/)?.[1];
    const nonceB = directive(cspB, 'script-src').match(/'nonce-([^']+)'/)?.[1];
    expect(nonceA).toMatch(/^[A-Za-z0-9+/]{22}==$/); // 16 random bytes, base64
    expect(nonceA).not.toBe(nonceB);
    const html = await a.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const s of scripts) expect(s).toContain(`nonce="${nonceA}"`);
    expect(directive(cspA, 'script-src')).not.toContain('unsafe-inline');
  });

  it('limit images to self, data: and the configured gateways, and forbid framing', async () => {
    const res = await fetch(lantern.url + '/');
    const csp = res.headers.get('content-security-policy')!;
    expect(directive(csp, 'img-src').split(' ').sort()).toEqual(
      ["'self'", 'blob:', 'data:', 'https://arweave.net', 'https://gateway.example', 'https://media.example', 'img-src'].sort(),
    );
    expect(directive(csp, 'frame-ancestors')).toBe("frame-ancestors 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d{7,}/); // production server
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('apply to API answers too', async () => {
    const res = await fetch(lantern.url + '/api/health');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('CORS on the published API', () => {
  it('is closed to origins not configured', async () => {
    const pre = await fetch(lantern.url + API, { method: 'OPTIONS', headers: { Origin: 'https://stranger.example', 'Access-Control-Request-Method': 'GET' } });
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    const get = await fetch(lantern.url + API, { headers: { Origin: 'https://stranger.example' } });
    expect(get.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('is open to a configured origin, including the API key header', async () => {
    const pre = await fetch(lantern.url + API, { method: 'OPTIONS', headers: { Origin: 'https://friend.example', 'Access-Control-Request-Method': 'GET' } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('https://friend.example');
    expect(pre.headers.get('access-control-allow-headers')).toContain('X-API-Key');
    const get = await fetch(lantern.url + API, { headers: { Origin: 'https://friend.example' } });
    expect(get.headers.get('access-control-allow-origin')).toBe('https://friend.example');
  });
});
