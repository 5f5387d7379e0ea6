import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnAnvil } from '../../devnet/evm/anvil.mjs';
import { startLantern, type LanternInstance } from '../support/lantern';
import { freePort } from '../support/ports';
import { rawGet } from '../support/raw-get';
import { rpcClient, sendMined } from '../support/rpc';
import { testClock } from '../support/test-clock';

/**
 * `npm start` sends a repeated cached GET of the published API from its front (lib/api/answer-cache.ts),
 * without asking Next. What a client relies on must not change for it: the same bytes as the route's
 * answer, the API's headers, gzip, the access check, the rate limit, and no answer older than the route's
 * own (a new block in node mode; the cache lifetime in hosted mode). A chain of its own: this file sends
 * transactions. Which requests were kept answers is read from the servers' request log (`"kept":true`).
 */
const KEY = 'answer-cache-key-0123456789';
const PAYER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const WALLET = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
const ORIGIN = 'https://wallet.example';

let anvil: { url: string; stop: () => Promise<void> };
let node: LanternInstance;
let hosted: LanternInstance;
let clock: ReturnType<typeof testClock> | undefined;
const advanceHosted = (ms: number) => clock!.advance(ms);
const anvilRpc = rpcClient(() => anvil.url);

// Each request or test is its own client behind the trusted proxy hop, so the hosted Lantern's rate limit counts it alone.
let clients = 0;
const client = () => `198.51.100.${++clients}`;
const history = (base: string, query = '') => `${base}/api/v2.2/wallets/${WALLET}/history?chain=devnet${query}`;

/** How many request lines of `l` so far say they were kept answers, for `path`. */
const keptLines = (l: LanternInstance, pathPart: string) =>
  l
    .output()
    .split('\n')
    .filter((line) => line.includes('"kept":true') && line.includes(pathPart)).length;

/** Waits (bounded) until `l` has logged at least `n` kept answers for `path`; resolves to how many it has. */
async function untilKept(l: LanternInstance, pathPart: string, n: number): Promise<number> {
  for (let i = 0; i < 50 && keptLines(l, pathPart) < n; i++) await new Promise((r) => setTimeout(r, 100));
  return keptLines(l, pathPart);
}

beforeAll(async () => {
  anvil = await spawnAnvil({ port: await freePort() });
  // A first transaction, so the wallet's history is not empty.
  await sendMined(anvilRpc, { from: PAYER, to: WALLET, value: 1n });
  node = await startLantern({
    EVM_RPC_URL: anvil.url,
    DEVNET_EVM_PORT: new URL(anvil.url).port,
    API_KEYS: KEY,
    LOG_LEVEL: 'info',
    TRUSTED_PROXY: '1',
    CORS_ORIGINS: ORIGIN,
  });
  clock = testClock();
  // Open (no API_KEYS), so its rate limit counts per client only.
  hosted = await startLantern({
    DATA_API_KEY: KEY,
    DATA_API_URL: node.url,
    DEFAULT_CHAIN: 'devnet',
    LANTERN_TEST_CLOCK_FILE: clock.file,
    LOG_LEVEL: 'info',
    RATE_LIMIT_PER_MINUTE: '5',
    TRUSTED_PROXY: '1',
  });
});
afterAll(async () => {
  await hosted?.stop();
  await node?.stop();
  await anvil?.stop();
  clock?.remove();
});

describe('kept answers (npm start’s front)', { timeout: 120_000 }, () => {
  it('send the route’s bytes and the API’s headers again, with a request id of their own, gzipped when asked', async () => {
    const ip = client();
    const headers = { 'X-API-Key': KEY, 'X-Forwarded-For': ip, Origin: ORIGIN };
    const first = await rawGet(history(node.url, '&limit=3'), headers);
    expect(first.status).toBe(200);
    const kept = await rawGet(history(node.url, '&limit=3'), { ...headers, 'X-Request-Id': 'kept-answer-test-1' });
    expect(await untilKept(node, `/api/v2.2/wallets/${WALLET}/history`, 1)).toBeGreaterThanOrEqual(1);
    expect(kept.status).toBe(200);
    expect(kept.body.equals(first.body)).toBe(true);
    for (const h of ['content-type', 'content-security-policy', 'x-content-type-options', 'x-frame-options', 'referrer-policy', 'access-control-allow-origin', 'cache-control']) {
      expect([h, kept.headers[h]]).toEqual([h, first.headers[h]]);
    }
    expect(kept.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(kept.headers['x-request-id']).toBe('kept-answer-test-1');
    expect(String(kept.headers.vary)).toMatch(/Accept-Encoding/);
    // gzip: what arrives unzips to the same bytes.
    const zipped = await rawGet(history(node.url, '&limit=3'), { ...headers, 'Accept-Encoding': 'gzip' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(zipped.body).equals(first.body)).toBe(true);
    // And what was asked without gzip never arrives zipped.
    expect(kept.headers['content-encoding']).toBeUndefined();
  });

  it('are refused as the route refuses: no key, a wrong key', async () => {
    const url = history(node.url, '&limit=2');
    const ok = await rawGet(url, { 'X-API-Key': KEY, 'X-Forwarded-For': client() });
    expect(ok.status).toBe(200);
    for (const headers of [{}, { 'X-API-Key': 'not-a-key-of-this-server' }] as Record<string, string>[]) {
      const res = await rawGet(url, { ...headers, 'X-Forwarded-For': client() });
      expect(res.status).toBe(401);
      expect(JSON.parse(res.body.toString())).toMatchObject({ code: 'unauthorized' });
    }
  });

  it('count toward the rate limit: the sixth request of a minute is a 429 with Retry-After', async () => {
    const headers = { 'X-Forwarded-For': client() };
    const url = history(hosted.url, '&limit=4');
    const keptBefore = keptLines(hosted, '/history');
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof rawGet>> | undefined;
    for (let i = 0; i < 6; i++) {
      last = await rawGet(url, headers);
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(Number(last!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(last!.body.toString())).toMatchObject({ code: 'rate_limited' });
    expect((await untilKept(hosted, '/history', keptBefore + 5)) - keptBefore).toBe(5);
  });

  it('hold the tokens and stats answers only while the head does: the new native balance and count at the next block', async () => {
    const ask = async (what: 'tokens' | 'stats') => {
      const res = await rawGet(`${node.url}/api/v2.2/wallets/${WALLET}/${what}?chain=devnet`, { 'X-API-Key': KEY, 'X-Forwarded-For': client() });
      expect(res.status).toBe(200);
      return JSON.parse(res.body.toString());
    };
    const nativeOf = (page: { result: { native_token: boolean; balance: string }[] }) => page.result.find((r) => r.native_token)?.balance;
    const balance = async () => BigInt(await anvilRpc.call<string>('eth_getBalance', [WALLET, 'latest'])).toString();
    const keptBefore = keptLines(node, '/tokens');
    expect(nativeOf(await ask('tokens'))).toBe(await balance());
    expect(nativeOf(await ask('tokens'))).toBe(await balance());
    const txs = (await ask('stats')).transactions.total;
    expect((await ask('stats')).transactions.total).toBe(txs);
    expect(await untilKept(node, '/tokens', keptBefore + 1)).toBeGreaterThan(keptBefore);
    await sendMined(anvilRpc, { from: PAYER, to: WALLET, value: 3n });
    const after = await balance();
    let seen: string | undefined;
    for (let i = 0; i < 100 && seen !== after; i++) {
      seen = nativeOf(await ask('tokens'));
      if (seen !== after) await new Promise((r) => setTimeout(r, 100));
    }
    expect(seen).toBe(after);
    let count = txs;
    for (let i = 0; i < 100 && count === txs; i++) {
      count = (await ask('stats')).transactions.total;
      if (count === txs) await new Promise((r) => setTimeout(r, 100));
    }
    expect(Number(count)).toBe(Number(txs) + 1);
  });

  it('are never older than the route’s answer: a new block in node mode, the cache lifetime in hosted mode', async () => {
    const nodeHashes = async () => {
      const res = await rawGet(history(node.url), { 'X-API-Key': KEY, 'X-Forwarded-For': client() });
      expect(res.status).toBe(200);
      return (JSON.parse(res.body.toString()) as { result: { hash: string }[] }).result.map((t) => t.hash);
    };
    const hostedHashes = async () => {
      const res = await rawGet(history(hosted.url), { 'X-Forwarded-For': client() });
      expect(res.status).toBe(200);
      return (JSON.parse(res.body.toString()) as { result: { hash: string }[] }).result.map((t) => t.hash);
    };
    advanceHosted(10_000); // past anything an earlier test left in the hosted cache
    const before = await nodeHashes();
    await nodeHashes();
    const hostedBefore = await hostedHashes();
    expect(hostedBefore).toEqual(before);
    expect(await hostedHashes()).toEqual(before);
    expect(await untilKept(hosted, `/api/v2.2/wallets/${WALLET}/history`, 1)).toBeGreaterThanOrEqual(1);

    const { hash } = await sendMined(anvilRpc, { from: PAYER, to: WALLET, value: 2n });
    // Node mode: the head is shared for a second, then the new block is a new answer. Kept answers of the
    // old head must stop with it: polled (bounded well past that second).
    let seen: string[] = [];
    for (let i = 0; i < 100; i++) {
      seen = await nodeHashes();
      if (seen.includes(hash)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(seen[0]).toBe(hash);
    expect(seen.slice(1)).toEqual(before);
    // Hosted mode keeps an open first page 5 s, as its route does: the old page within it...
    expect(await hostedHashes()).toEqual(before);
    // ...and the new one as soon as its clock has passed it.
    advanceHosted(5_001);
    expect((await hostedHashes())[0]).toBe(hash);
  });
});
