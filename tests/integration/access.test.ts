import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startLantern, type LanternInstance } from '../support/lantern';

// API_KEYS closes the published API to strangers; Lantern's own pages get a short-lived page token.
// Lantern runs on this run's devnets (never the default ports, where a developer's `npm run dev` may
// answer), so a request let through gets the operation's real answer, compared with the node's own.
let lantern: LanternInstance;
let expected: { balance: string };
const url = (p: string) => lantern.url + p;
const WALLET = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'; // the devnet's first funded account
const PATH = `/api/v2.2/${WALLET}/balance?chain=0x7a69`;

beforeAll(async () => {
  lantern = await startLantern({
    API_KEYS: 'first-key-123456, second-key-654321',
    DEVNET_EVM_PORT: String(inject('evmPort')),
    DEVNET_LEDGER_PORT: String(inject('ledgerPort')),
  });
  const rpc = await fetch(inject('evmRpcUrl'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [WALLET, 'latest'] }),
  });
  expected = { balance: BigInt((await rpc.json()).result).toString() };
});
afterAll(() => lantern?.stop());

describe('API_KEYS', () => {
  it('refuses a request without a key with 401 JSON', async () => {
    const r = await fetch(url(PATH));
    expect(r.status).toBe(401);
    expect(await r.json()).toMatchObject({ code: 'unauthorized', message: expect.stringContaining('X-API-Key') });
  });

  it('refuses a wrong key with 401', async () => {
    const r = await fetch(url(PATH), { headers: { 'X-API-Key': 'first-key-12345' } });
    expect(r.status).toBe(401);
    expect((await r.json()).code).toBe('unauthorized');
  });

  it('lets either configured key through to the operation', async () => {
    for (const key of ['first-key-123456', 'second-key-654321']) {
      const r = await fetch(url(PATH), { headers: { 'X-API-Key': key } });
      expect(r.status).toBe(200);
      expect(await r.json()).toEqual(expected);
    }
  });

  it('lets the page token signed into Lantern’s pages through, and refuses a forged one', async () => {
    const html = await (await fetch(url('/'))).text();
    const token = html.match(/name="lantern-page-token" content="([^"]+)"/)?.[1];
    // `{expiry seconds}.{HMAC-SHA256, base64url}`, expiring in the future.
    expect(token).toMatch(/^\d{10}\.[A-Za-z0-9_-]{43}$/);
    expect(Number(token!.split('.')[0])).toBeGreaterThan(Date.now() / 1000);
    const ok = await fetch(url(PATH), { headers: { 'X-Lantern-Page-Token': token! } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual(expected);
    const forged = token!.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    const bad = await fetch(url(PATH), { headers: { 'X-Lantern-Page-Token': forged } });
    expect(bad.status).toBe(401);
    expect((await bad.json()).code).toBe('unauthorized');
  });

  it('keeps /api/health open for load balancers', async () => {
    expect((await fetch(url('/api/health'))).status).toBe(200);
  });
});
