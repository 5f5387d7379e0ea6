import fc from 'fast-check';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnAnvil } from '../../devnet/evm/anvil.mjs';
import { startLedgerDevnet, type LedgerDevnet } from '../../devnet/ledger/index.mjs';
import { startLantern, type LanternInstance } from '../support/lantern';
import { freePort } from '../support/ports';
import { rawGet, type RawAnswer } from '../support/raw-get';
import { rpcClient, sendMined } from '../support/rpc';

/**
 * `npm start` answers the published API's GETs from its front, calling the route's handler without Next
 * (scripts/lib/api-front.mjs). A client must not be able to tell: two servers over one chain, one with the
 * front and one without (API_FRONT=off), asked the same requests, must answer the same status, body and
 * headers, for answers, refusals and hostile paths alike. The caches are off on both, so every answer is
 * made by the route (not sent again as a kept answer). Which requests the front answered is read from the
 * request log (`"front":true`).
 */
const KEY = 'api-front-key-0123456789';
const PAYER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const WALLET = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
const ORIGIN = 'https://wallet.example';

let anvil: { url: string; stop: () => Promise<void> };
// A generated ledger path can be a real version: both servers ask this node for it.
let ledger: LedgerDevnet;
let front: LanternInstance;
let next: LanternInstance;
let hash: string;
const anvilRpc = rpcClient(() => anvil.url);

/** Headers that differ between any two answers (the time, the connection, a generated request id). */
const PER_ANSWER = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'x-request-id']);
const comparable = (g: RawAnswer) => ({
  status: g.status,
  headers: Object.fromEntries(Object.entries(g.headers).filter(([k]) => !PER_ANSWER.has(k))),
  body: g.headers['content-encoding'] === 'gzip' ? gunzipSync(g.body).toString('utf8') : g.body.toString('utf8'),
});

/** `path` asked of both servers with the same headers; their answers as a client compares them. */
async function both(path: string, headers: Record<string, string> = {}, method = 'GET') {
  const h = { 'X-API-Key': KEY, ...headers };
  const [a, b] = await Promise.all([rawGet(front.url + path, h, method), rawGet(next.url + path, h, method)]);
  return { front: comparable(a), next: comparable(b), raw: a };
}

/** Request lines of the front's server that say the front answered, for `pathPart`. */
const frontLines = (pathPart: string) =>
  front
    .output()
    .split('\n')
    .filter((l) => l.includes('"front":true') && l.includes(pathPart));

beforeAll(async () => {
  [anvil, ledger] = await Promise.all([spawnAnvil({ port: await freePort() }), startLedgerDevnet({ port: await freePort() })]);
  ({ hash } = await sendMined(anvilRpc, { from: PAYER, to: WALLET, value: 10n ** 15n }));
  const env = {
    EVM_RPC_URL: anvil.url,
    LEDGER_API_URL_LOCAL: ledger.url,
    DEVNET_EVM_PORT: new URL(anvil.url).port,
    API_KEYS: KEY,
    LOG_LEVEL: 'info',
    CORS_ORIGINS: ORIGIN,
    UPSTREAM_CACHE: 'off',
    RATE_LIMIT_PER_MINUTE: '0',
  };
  [front, next] = await Promise.all([startLantern(env), startLantern({ ...env, API_FRONT: 'off' })]);
});
afterAll(async () => {
  await front?.stop();
  await next?.stop();
  await anvil?.stop();
  await ledger?.stop();
});

describe('the API answered by npm start’s front', { timeout: 180_000 }, () => {
  it('answers every GET operation as Next does: status, body and headers, gzip and CORS included', async () => {
    const paths = [
      `/api/v2.2/wallets/${WALLET}/history?chain=devnet`,
      `/api/v2.2/wallets/${WALLET}/history?chain=devnet&limit=1&order=ASC`,
      `/api/v2.2/wallets/${WALLET}/tokens?chain=devnet`,
      `/api/v2.2/wallets/${WALLET}/approvals?chain=devnet`,
      `/api/v2.2/wallets/${WALLET}/stats?chain=devnet`,
      `/api/v2.2/wallets/${WALLET}/chains?chains[0]=devnet`,
      `/api/v2.2/${WALLET}/nft?chain=devnet`,
      `/api/v2.2/${WALLET}/erc20?chain=devnet`,
      `/api/v2.2/${WALLET}/balance?chain=devnet`,
      `/api/v2.2/transaction/${hash}?chain=devnet`,
      `/api/v2.2/transaction/${hash}/verbose?chain=devnet`,
    ];
    // Tests start servers without the warm-up: a route's first request loads its module through Next.
    for (const path of paths) await both(path);
    for (const path of paths) {
      for (const headers of [{}, { 'Accept-Encoding': 'gzip', Origin: ORIGIN, 'X-Request-Id': 'front-test' }] as Record<string, string>[]) {
        const r = await both(path, headers);
        expect(r.front.status, path).toBe(200);
        expect(r.front, path).toEqual(r.next);
      }
    }
    // The front answered each of them: one line per path asked with the test's request id (request lines
    // reach the output a little after their answers).
    const asked = new Map<string, number>();
    for (const path of paths) asked.set(path.slice(0, path.indexOf('?')), (asked.get(path.slice(0, path.indexOf('?'))) ?? 0) + 1);
    const lines = (p: string) => frontLines(`"path":"${p}"`).filter((l) => l.includes('"requestId":"front-test"')).length;
    for (const [p, n] of asked) {
      for (let i = 0; i < 50 && lines(p) < n; i++) await new Promise((r) => setTimeout(r, 100));
      expect([p, lines(p)], frontLines(p).join('\n')).toEqual([p, n]);
    }
    // Next's server logs none of its own as front answers.
    expect(next.output()).not.toContain('"front":true');
  });

  it('refuses as Next does: a bad address, a bad parameter, an unknown chain, no key, a wrong key', async () => {
    const cases: [string, Record<string, string>][] = [
      ['/api/v2.2/wallets/0x1234/history?chain=devnet', {}],
      [`/api/v2.2/wallets/${WALLET}/history?chain=devnet&limit=0`, {}],
      [`/api/v2.2/wallets/${WALLET}/history?chain=no-such-chain`, {}],
      [`/api/v2.2/${WALLET}/nft?chain=devnet&format=yaml`, {}],
      ['/api/v2.2/transaction/0x12?chain=devnet', {}],
      ['/api/ledger/local/blocks/by_version/not-a-number', {}],
      [`/api/v2.2/wallets/${WALLET}/history?chain=devnet`, { 'X-API-Key': '' }],
      [`/api/v2.2/wallets/${WALLET}/history?chain=devnet`, { 'X-API-Key': 'not-a-key-of-this-server' }],
    ];
    for (const [path, headers] of cases) {
      const r = await both(path, headers);
      expect(r.front.status, path).toBeGreaterThanOrEqual(400);
      expect(r.front.status, path).toBeLessThan(500);
      expect(r.front, path).toEqual(r.next);
    }
  });

  it('leaves to Next what Next would route elsewhere or normalise: a trailing slash, HEAD, a static segment before a dynamic one', async () => {
    for (const [path, method] of [
      [`/api/v2.2/wallets/${WALLET}/history/?chain=devnet`, 'GET'],
      [`/api/v2.2/wallets/${WALLET}/history?chain=devnet`, 'HEAD'],
      [`/api/v2.2/wallets/${WALLET}/history?chain=devnet`, 'OPTIONS'],
      ['/api/v2.2/transaction/balance?chain=devnet', 'GET'], // transaction/[hash], not [address]/balance
      ['/api/v2.2/no/such/route/here', 'GET'],
    ] as const) {
      const r = await both(path, { Origin: ORIGIN }, method);
      expect(r.front, `${method} ${path}`).toEqual(r.next);
    }
  });

  it('answers any path below the API as Next does (generated paths: encoded, dotted, unicode, empty segments)', async () => {
    const segment = fc.oneof(
      fc.constantFrom(WALLET, WALLET.toLowerCase(), 'wallets', 'history', 'nft', 'tokens', 'transaction', 'verbose', 'balance', '.', '..', '', '%', '%zz', '%2F', '%2e%2e', '0x%30', hash),
      fc.string({ unit: 'grapheme', maxLength: 6 }).map(encodeURIComponent),
      fc.stringMatching(/^[A-Za-z0-9._~%-]{1,8}$/),
    );
    const paths = fc.tuple(fc.constantFrom('/api/v2.2/', '/api/v2.2/wallets/', '/api/ledger/local/blocks/by_version/'), fc.array(segment, { minLength: 1, maxLength: 3 }), fc.constantFrom('', '?chain=devnet', '?chain=devnet&limit=2'));
    await fc.assert(
      fc.asyncProperty(paths, async ([base, parts, query]) => {
        const path = base + parts.join('/') + query;
        const r = await both(path);
        expect(r.front.status, path).toBeLessThan(500);
        expect(r.front, path).toEqual(r.next);
      }),
      // A version the ledger node holds (a CI run drew it: with no node to ask, both servers said 503).
      { numRuns: 120, examples: [[['/api/ledger/local/blocks/by_version/', ['0'], '']], [['/api/ledger/local/blocks/by_version/', ['12'], '']]] },
    );
  });
});
