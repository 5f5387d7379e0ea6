import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLantern, type LanternInstance } from '../support/lantern';

// API_KEYS closes the published API to strangers; Lantern's own pages get a short-lived page token.
let lantern: LanternInstance;
const url = (p: string) => lantern.url + p;
const PATH = '/api/v2.2/wallets/0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045/history?chain=0x1';

beforeAll(async () => {
  lantern = await startLantern({ API_KEYS: 'first-key-123456, second-key-654321' });
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
  });

  it('lets either configured key through to the operation', async () => {
    for (const key of ['first-key-123456', 'second-key-654321']) {
      const r = await fetch(url(PATH), { headers: { 'X-API-Key': key } });
      expect(r.status).not.toBe(401);
    }
  });

  it('lets the page token signed into Lantern’s pages through, and refuses a forged one', async () => {
    const html = await (await fetch(url('/'))).text();
    const token = html.match(/name="lantern-page-token" content="([^"]+)"/)?.[1];
    expect(token).toBeTruthy();
    const ok = await fetch(url(PATH), { headers: { 'X-Lantern-Page-Token': token! } });
    expect(ok.status).not.toBe(401);
    const forged = token!.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    const bad = await fetch(url(PATH), { headers: { 'X-Lantern-Page-Token': forged } });
    expect(bad.status).toBe(401);
  });

  it('keeps /api/health open for load balancers', async () => {
    expect((await fetch(url('/api/health'))).status).toBe(200);
  });
});
