import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIG_BLOCK } from '../../devnet/ledger/chain.mjs';
import { startLedgerDevnet, type LedgerDevnet } from '../../devnet/ledger/index.mjs';
import { blockResponseSchema } from '@/lib/interface/ledger';
import { startLantern, type LanternInstance } from '../support/lantern';
import { freePort } from '../support/ports';

// The ledger block operation end to end: Lantern (next start) -> ledger-node source -> our own devnet,
// whose request counter shows when Lantern answered from its cache.
let devnet: LedgerDevnet;
let lantern: LanternInstance;
const IMMUTABLE = 'public, max-age=31536000, immutable';

beforeAll(async () => {
  devnet = await startLedgerDevnet({ port: await freePort() });
  // Probe interval 0: the fault test below opens the node's breaker; each next request is then its probe,
  // so the faults keep reaching the node (tests/integration/breaker.test.ts covers the breaker itself).
  lantern = await startLantern({ LEDGER_API_URL_LOCAL: devnet.url, UPSTREAM_TIMEOUT_MS: '4000', UPSTREAM_PROBE_INTERVAL_MS: '0' });
});
afterAll(async () => {
  await lantern?.stop();
  await devnet?.stop();
});

async function get(path: string) {
  const res = await fetch(lantern.url + path);
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: JSON.parse(text) as Record<string, unknown> & { transactions?: unknown[] } };
}
const api = (version: string, query = '') => get(`/api/ledger/local/blocks/by_version/${version}${query}`);
/** A version inside block `h`, offset `k` from its first version. */
const versionIn = (h: number, k = 0) => String(devnet.chain.firstVersionOf(h) + k);

describe('GET /api/ledger/{network}/blocks/by_version/{version}', () => {
  it('answers the interface shape with immutable caching', async () => {
    const r = await api(versionIn(1200, 1), '?with_transactions=true');
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe(IMMUTABLE);
    const block = blockResponseSchema.parse(r.json);
    expect(block.block_height).toBe('1200');
    expect(block.transactions!.length).toBe(Number(block.last_version) - Number(block.first_version) + 1);

    const bare = await api(versionIn(1300));
    expect(bare.status).toBe(200);
    expect(bare.json.transactions).toBeUndefined(); // the interface's default: without transactions
    expect(bare.json.block_height).toBe('1300');
  });

  it('answers repeats, any version of a cached block, and the lighter view from its cache: no upstream call', async () => {
    const h = 2000;
    const first = await api(versionIn(h), '?with_transactions=true');
    expect(first.status).toBe(200);
    const before = devnet.requestCount();
    const last = devnet.chain.lastVersionOf(h);
    for (const [v, q] of [
      [versionIn(h), '?with_transactions=true'],
      [String(last), '?with_transactions=true'],
      [versionIn(h, 1), ''],
      [versionIn(h), '?with_transactions=false'],
      [`000${versionIn(h)}`, '?with_transactions'],
    ] as const) {
      const r = await api(v, q);
      expect(r.status, `${v}${q}`).toBe(200);
      expect(r.json.block_height).toBe(String(h));
      expect(r.headers.get('cache-control')).toBe(IMMUTABLE);
    }
    expect(devnet.requestCount()).toBe(before);
    // The next block is not cached yet: exactly one call.
    expect((await api(String(last + 1))).status).toBe(200);
    expect(devnet.requestCount()).toBe(before + 1);
  });

  it('a block cached without transactions is fetched again once when they are asked for', async () => {
    const h = 2100;
    await api(versionIn(h));
    const before = devnet.requestCount();
    const r = await api(versionIn(h), '?with_transactions=true');
    expect(r.json.transactions).toHaveLength(devnet.chain.lastVersionOf(h) - devnet.chain.firstVersionOf(h) + 1);
    await api(versionIn(h), '?with_transactions=true');
    expect(devnet.requestCount()).toBe(before + 1);
  });

  it('serves the 2,000-transaction block', async () => {
    const r = await api(versionIn(BIG_BLOCK, 1500), '?with_transactions=true');
    expect(r.status).toBe(200);
    expect(blockResponseSchema.parse(r.json).transactions).toHaveLength(2002); // the devnet's 2,000 user transactions, its metadata and checkpoint
    expect(devnet.chain.lastVersionOf(BIG_BLOCK) - devnet.chain.firstVersionOf(BIG_BLOCK) + 1).toBe(2002);
  });

  it.each([
    ['abc', 'version'],
    ['-1', 'version'],
    ['1.5', 'version'],
    ['18446744073709551616', 'version'],
  ])('400 for version %j, naming the parameter, without calling upstream', async (version, parameter) => {
    const before = devnet.requestCount();
    const r = await api(encodeURIComponent(version));
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'invalid_parameter', parameter });
    expect(String(r.json.message)).toMatch(/unsigned 64-bit integer/);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(devnet.requestCount()).toBe(before);
  });

  it('400 for an unknown network (listing the networks) and a bad with_transactions', async () => {
    const n = await get('/api/ledger/devnet/blocks/by_version/1000');
    expect(n.status).toBe(400);
    expect(n.json).toMatchObject({ parameter: 'network', message: 'network: must be one of mainnet, testnet, local' });
    const w = await api('1000', '?with_transactions=yes');
    expect(w.status).toBe(400);
    expect(w.json.parameter).toBe('with_transactions');
  });

  it('404 beyond the head, never cached', async () => {
    const beyond = String(devnet.chain.headVersion + 1);
    const before = devnet.requestCount();
    for (let i = 0; i < 2; i++) {
      const r = await api(beyond);
      expect(r.status).toBe(404);
      expect(r.json.code).toBe('version_not_found');
      expect(String(r.json.message)).toMatch(/beyond the head/);
      expect(r.headers.get('cache-control')).toBe('no-store');
    }
    expect(devnet.requestCount()).toBe(before + 2);
    expect((await api('18446744073709551615')).status).toBe(404);
  });

  it('410 for a pruned version', async () => {
    const r = await api('5');
    expect(r.status).toBe(410);
    expect(r.json.code).toBe('block_pruned');
    expect(String(r.json.message)).toMatch(/pruned/);
  });

  it('maps node faults: 500 -> 502, dropped connection -> 502, hang -> 504; then recovers', async () => {
    try {
      devnet.setFault('error500');
      let r = await api(versionIn(2500));
      expect([r.status, r.json.code]).toEqual([502, 'upstream_unavailable']);
      devnet.setFault('reset');
      r = await api(versionIn(2501));
      expect([r.status, r.json.code]).toEqual([502, 'upstream_unavailable']);
      devnet.setFault('hang');
      r = await api(versionIn(2502));
      expect([r.status, r.json.code]).toEqual([504, 'upstream_timeout']);
    } finally {
      devnet.setFault(null);
    }
    const ok = await api(versionIn(2500));
    expect(ok.status).toBe(200);
  });
});

describe('ledger page', () => {
  it('renders a block with its transactions and the simulated-ledger notice', async () => {
    const v = versionIn(1500, 1);
    const res = await fetch(`${lantern.url}/ledger/local/versions/${v}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('Simulated ledger');
    expect(html).toMatch(/Block <span[^>]*>1500</);
    expect(html).toContain(`data-version="${v}"`);
  });

  it('redirects a version with leading zeros to its canonical URL', async () => {
    const res = await fetch(`${lantern.url}/ledger/local/versions/0001000`, { redirect: 'manual' });
    expect(res.status).toBe(307); // redirect() from a page: temporary, as Next.js sends it
    expect(res.headers.get('location')).toMatch(/\/ledger\/local\/versions\/1000$/);
  });

  it.each([
    ['abc', 'invalid_version'],
    ['5', 'pruned'],
    ['99999999999', 'not_found'],
  ])('version %s shows the %s state', async (v, kind) => {
    const html = await (await fetch(`${lantern.url}/ledger/local/versions/${v}`)).text();
    expect(html).toContain(`data-testid="ledger-error-${kind}"`);
  });
});

describe('hosted mode', () => {
  let hosted: LanternInstance;
  beforeAll(async () => {
    // The devnet stands in for the hosted ledger API (it ignores the X-API-Key it is sent).
    hosted = await startLantern({
      DATA_API_KEY: 'ledger-test-key-0123456789',
      LEDGER_API_URL_MAINNET: devnet.url,
      LEDGER_API_URL_LOCAL: devnet.url,
      UPSTREAM_TIMEOUT_MS: '1500',
    });
  });
  afterAll(() => hosted?.stop());

  it('reads mainnet through the hosted client and keeps the error codes', async () => {
    const ok = await fetch(`${hosted.url}/api/ledger/mainnet/blocks/by_version/${versionIn(3300)}?with_transactions=true`);
    expect(ok.status).toBe(200);
    expect(blockResponseSchema.parse(await ok.json()).block_height).toBe('3300');
    const nf = await fetch(`${hosted.url}/api/ledger/mainnet/blocks/by_version/${devnet.chain.headVersion + 10}`);
    expect([nf.status, (await nf.json()).code]).toEqual([404, 'version_not_found']);
    const pr = await fetch(`${hosted.url}/api/ledger/mainnet/blocks/by_version/5`);
    expect([pr.status, (await pr.json()).code]).toEqual([410, 'block_pruned']);
    const local = await fetch(`${hosted.url}/api/ledger/local/blocks/by_version/${versionIn(3301)}`);
    expect(local.status).toBe(200);
  });
});
