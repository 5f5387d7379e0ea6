import { afterAll, describe, expect, inject, it } from 'vitest';
import { startLantern, type LanternInstance } from '../support/lantern';

// Unknown API path: cheap, needs no source, and still goes through the limiter like every API call.
const API = '/api/v2.2/wallets/0x123/history';
const started: LanternInstance[] = [];
afterAll(() => Promise.all(started.map((l) => l.stop())));

async function instance(env: Record<string, string>) {
  // On this run's devnets: healthy at once (start-up waits for health), and never a developer's `npm run dev`.
  const l = await startLantern({ RATE_LIMIT_PER_MINUTE: '5', DEVNET_EVM_PORT: String(inject('evmPort')), DEVNET_LEDGER_PORT: String(inject('ledgerPort')), ...env });
  started.push(l);
  return l;
}

const statuses = async (url: string, n: number, headers: Record<string, string> = {}) => {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await fetch(url, { headers })).status);
  return out;
};

// Each test starts its own server: on a loaded 2-core machine that alone can take most of a minute.
describe('rate limits', { timeout: 120_000 }, () => {
  it('answer 429 with Retry-After past the limit, and a forged X-Forwarded-For does not reset it', async () => {
    const l = await instance({});
    expect(await statuses(l.url + API, 5)).toEqual([400, 400, 400, 400, 400]);
    const res = await fetch(l.url + API, { headers: { 'X-Forwarded-For': '203.0.113.9' } });
    expect(res.status).toBe(429);
    // Seconds left of the minute that opened at the first of these requests.
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(await res.json()).toMatchObject({ code: 'rate_limited', message: expect.stringContaining('5 a minute') });
  });

  it('count every API route in one budget per client, whichever route bundle answers', async () => {
    const l = await instance({});
    const nft = '/api/v2.2/0x123/nft';
    const ledger = '/api/ledger/nosuchnetwork/blocks/by_version/1';
    expect([...(await statuses(l.url + API, 2)), ...(await statuses(l.url + nft, 2)), ...(await statuses(l.url + ledger, 1))]).toEqual([400, 400, 400, 400, 400]);
    expect((await fetch(l.url + nft)).status).toBe(429);
    expect((await fetch(l.url + ledger)).status).toBe(429);
  });

  it('count each client separately behind a trusted proxy', async () => {
    const l = await instance({ TRUSTED_PROXY: '1' });
    expect(await statuses(l.url + API, 6, { 'X-Forwarded-For': '198.51.100.1' })).toEqual([400, 400, 400, 400, 400, 429]);
    expect(await statuses(l.url + API, 1, { 'X-Forwarded-For': '198.51.100.2' })).toEqual([400]);
  });

  it('count per API key too', async () => {
    const l = await instance({ TRUSTED_PROXY: '1', API_KEYS: 'rate-key-0123456789' });
    const key = { 'X-API-Key': 'rate-key-0123456789' };
    for (let i = 0; i < 5; i++) await fetch(l.url + API, { headers: { ...key, 'X-Forwarded-For': `198.51.100.${10 + i}` } });
    const res = await fetch(l.url + API, { headers: { ...key, 'X-Forwarded-For': '198.51.100.99' } });
    expect(res.status).toBe(429);
    expect((await res.json()).code).toBe('rate_limited');
  });

  it('do not spend a visitor’s budget on server-rendered pages', async () => {
    const l = await instance({});
    for (let i = 0; i < 8; i++) expect((await fetch(l.url + '/')).status).toBe(200);
    expect((await fetch(l.url + API)).status).toBe(400);
  });

  it('turn off with 0', async () => {
    const l = await instance({ RATE_LIMIT_PER_MINUTE: '0' });
    expect(await statuses(l.url + API, 12)).toEqual(Array(12).fill(400));
  });
});
