import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadManifest } from '../../devnet/evm/index.mjs';
import { startHostedStub, type HostedStub } from '../support/hosted-stub';
import { startLantern, type LanternInstance } from '../support/lantern';
import { startStallStub, type StallStub } from '../support/stall-stub';

/**
 * A stalled upstream (accepts, never answers) as the local ledger node, as the EVM node and as the hosted
 * data API, behind a real `npm start`. The first request waits out UPSTREAM_TIMEOUT_MS and opens the
 * upstream's breaker; then requests answer 503 at once naming the source, the stalled server sees at
 * most one probe per probe interval, and once it answers again so does Lantern, within one interval.
 * What makes the answers fast is asserted (the stalled upstream saw no request while the breaker was
 * open, each answer is the breaker's); how fast they were is printed, and measured by `npm run bench`.
 */
const TIMEOUT_MS = 1000;
const PROBE_MS = 5000; // long enough that 20 requests and a page fit in one cool-down on a loaded machine
const STUB_KEY = 'breaker-test-hosted-key-0123456789';
const m = loadManifest();
const carol = m.accounts.carol.checksumAddress;

let ledgerStub: StallStub;
let evmStub: StallStub;
let dataStub: StallStub;
let hosted: HostedStub;
let node: LanternInstance;
let hostedMode: LanternInstance;
const measured: Record<string, { p50: number; max: number; recoveryMs: number; knocks: number; windowMs: number }> = {};

beforeAll(async () => {
  const ledgerOrigin = new URL(inject('ledgerUrl')).origin;
  hosted = await startHostedStub({ apiKey: STUB_KEY });
  // Each answers (forwarding to the real upstream) until its test stalls it, so one upstream's stall does
  // not open another's breaker through health's checks before its turn.
  [ledgerStub, evmStub, dataStub] = await Promise.all(
    [ledgerOrigin, inject('evmRpcUrl'), hosted.url].map((target) => startStallStub(target, { stalled: false })),
  );
  const common = { UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS), UPSTREAM_PROBE_INTERVAL_MS: String(PROBE_MS), UPSTREAM_CACHE: 'off' };
  [node, hostedMode] = await Promise.all([
    // The node instance's breakers open on the first failure, so these tests see one request's stall open
    // them; the hosted instance keeps the default (3 different requests), which its own tests exercise.
    startLantern({ ...common, UPSTREAM_BREAKER_FAILURES: '1', LEDGER_API_URL_LOCAL: `${ledgerStub.url}/v1`, EVM_RPC_URL: evmStub.url }),
    startLantern({
      ...common,
      DATA_API_KEY: STUB_KEY,
      DATA_API_URL: dataStub.url,
      AUTH_API_URL: hosted.url,
      LEDGER_API_URL_MAINNET: `${hosted.url}/mainnet`,
      DEVNET_LEDGER_PORT: String(inject('ledgerPort')),
    }),
  ]);
}, 300_000); // two production servers starting on a busy machine
afterAll(async () => {
  console.log('breaker: time to answer with the breaker open, and recovery', JSON.stringify(measured));
  await Promise.all([node?.stop(), hostedMode?.stop()]);
  await Promise.all([ledgerStub?.close(), evmStub?.close(), dataStub?.close(), hosted?.close()]);
});

async function timedGet(url: string) {
  const started = performance.now();
  const res = await fetch(url);
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text);
  } catch {
    // a page
  }
  return { status: res.status, retryAfter: res.headers.get('retry-after'), json, text, ms: performance.now() - started };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

interface Case {
  name: string;
  lantern: () => LanternInstance;
  stub: () => StallStub;
  path: string;
  /** A path that also needs the upstream, to see it work before the test (blocks are kept once fetched). */
  warm: string;
  /** Further different requests that must fail with `path` before the breaker opens (its threshold). */
  alsoOpening?: string[];
  /** How the source names itself in the sentence. */
  label: (host: string) => string;
  source: (host: string) => string;
  /** A page that shows the same sentence while the breaker is open. */
  page: { path: string; marker: string };
  ok: (json: Record<string, unknown>) => void;
}

const cases: Case[] = [
  {
    name: 'the local ledger node',
    lantern: () => node,
    stub: () => ledgerStub,
    path: '/api/ledger/local/blocks/by_version/1000',
    warm: '/api/ledger/local/blocks/by_version/1500',
    label: (h) => `The local ledger node (${h})`,
    source: (h) => `ledger-node:local:${h}`,
    page: { path: '/ledger/local/versions/1000', marker: 'data-testid="ledger-error-unavailable"' },
    ok: (j) => expect(Number(j.first_version)).toBeLessThanOrEqual(1000),
  },
  {
    name: 'the EVM node',
    lantern: () => node,
    stub: () => evmStub,
    path: `/api/v2.2/${carol}/balance?chain=devnet`,
    warm: `/api/v2.2/${carol}/balance?chain=devnet`,
    label: (h) => `The Local devnet node (${h})`,
    source: (h) => `evm-node:devnet:${h}`,
    page: { path: `/wallet/${carol}`, marker: 'role="alert"' },
    ok: (j) => expect(j.balance).toMatch(/^\d+$/),
  },
  {
    name: 'the hosted data API',
    lantern: () => hostedMode,
    stub: () => dataStub,
    path: `/api/v2.2/wallets/${carol}/history?chain=eth&limit=5`,
    warm: `/api/v2.2/wallets/${carol}/history?chain=eth&limit=5`,
    // UPSTREAM_BREAKER_FAILURES is 3 here: two other wallets' histories time out alongside.
    alsoOpening: [1, 2].map((i) => `/api/v2.2/wallets/0x${String(i).repeat(40)}/history?chain=eth&limit=5`),
    label: (h) => `The data provider (${h})`,
    source: (h) => `hosted:data:${h}`,
    page: { path: `/wallet/${carol}?chain=eth`, marker: 'role="alert"' },
    ok: (j) => expect((j.result as unknown[]).length).toBe(5),
  },
];

// The log check reads what the fault suites left in the log, so it runs after them: the suites keep their
// file order, and the tests inside each are shuffled.
describe('stalled upstreams, then the log they left', { shuffle: false }, () => {
  describe.shuffle.each(cases)('a stalled upstream: $name', (c) => {
    it('waits once, then answers 503 at once naming it, knocks at most once per probe interval, and recovers within one', async () => {
      const lantern = c.lantern();
      const stub = c.stub();
      const url = lantern.url + c.path;
      const sentence = new RegExp(`^${escape(c.label(stub.host))} is not answering; Lantern will try it again in [1-5] s\\.$`);

      // From a working upstream (start-up's health check may have found it slow on a loaded machine: a
      // timeout opens the breaker, as any call's would).
      await recover(stub, lantern.url + c.warm);
      // The first requests (as many different ones as the threshold) wait out the timeout, never longer,
      // and open the breaker.
      stub.stall();
      const opening = await Promise.all([url, ...(c.alsoOpening ?? []).map((p) => lantern.url + p)].map((u) => timedGet(u)));
      // Lantern's own timeout answered them: the stalled upstream never answers.
      for (const first of opening) {
        expect(first.status).toBe(504);
        expect(first.json.code).toBe('upstream_timeout');
      }
      const openedAt = Date.now();
      const knocksBefore = stub.arrivals.length;

      // 20 requests answer at once: each is the breaker's own answer (503, Retry-After, a sentence naming
      // the source), given without asking the upstream: the stalled server saw none of them.
      const times: number[] = [];
      for (let i = 0; i < 20; i++) {
        const r = await timedGet(url);
        expect([r.status, r.json.code]).toEqual([503, 'upstream_unavailable']);
        expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1);
        expect(Number(r.retryAfter)).toBeLessThanOrEqual(PROBE_MS / 1000);
        expect(r.json.message).toMatch(sentence);
        times.push(r.ms);
      }
      expect(Date.now() - openedAt).toBeLessThan(PROBE_MS); // all inside one cool-down, or the test proves nothing
      expect(stub.arrivals.length).toBe(knocksBefore);
      const p50 = pct(times, 0.5);
      const max = Math.max(...times);
      console.log(`breaker open, ${c.name}: 20 answers in ${times.map((t) => Math.round(t)).join(', ')} ms (median ${Math.round(p50)}, slowest ${Math.round(max)})`);

      // The page says the same in words, with a retry.
      const page = await timedGet(lantern.url + c.page.path);
      expect(page.status).toBe(200);
      expect(page.text).toContain(c.page.marker);
      expect(page.text).toMatch(new RegExp(`${escape(c.label(stub.host))} is not answering; Lantern will try it again in [1-5] s\\.`));
      expect(page.text).toContain('Retry');

      // Health says so, asking the stalled upstream at most once (its check is the probe if the cool-down
      // has ended meanwhile).
      const h = await timedGet(`${lantern.url}/api/health`);
      expect(h.status).toBe(200);
      expect(stub.arrivals.length - knocksBefore).toBeLessThanOrEqual(1);
      const b = (h.json.breakers as { source: string; upstream: string; state: string; since: string }[]).find((x) => x.source === c.source(stub.host));
      expect(b).toMatchObject({ upstream: stub.host });
      expect(['open', 'half-open']).toContain(b!.state);
      expect(Date.parse(b!.since)).toBeGreaterThan(openedAt - 5000);

      // Four clients and health keep asking for two probe intervals: the upstream sees at most one request
      // per interval; everyone else is answered at once instead of piling up on it.
      const windowStart = Date.now();
      const knocksAtWindow = stub.arrivals.length;
      const answers: { status: number; ms: number }[] = [];
      const healthMs: number[] = [];
      const until = windowStart + 2 * PROBE_MS;
      const client = async () => {
        while (Date.now() < until) {
          const r = await timedGet(url);
          answers.push({ status: r.status, ms: r.ms });
          await sleep(25);
        }
      };
      const healthClient = async () => {
        while (Date.now() < until) {
          healthMs.push((await timedGet(`${lantern.url}/api/health`)).ms);
          await sleep(700);
        }
      };
      await Promise.all([client(), client(), client(), client(), healthClient()]);
      const windowMs = Date.now() - windowStart;
      const knocks = stub.arrivals.length - knocksAtWindow;
      expect(knocks).toBeLessThanOrEqual(Math.floor(windowMs / PROBE_MS) + 1);
      expect(answers.length).toBeGreaterThan(20);
      // Every answer is the breaker's 503, or a probe's own 504 (the probe waited out the timeout).
      for (const a of answers) expect([503, 504]).toContain(a.status);
      expect(answers.filter((a) => a.status === 504).length).toBeLessThanOrEqual(knocks);
      expect(healthMs.length).toBeGreaterThan(0);

      // The upstream answers again: so does Lantern, at the first probe after the cool-down (so within one
      // probe interval): before the request answered 200, at most one reached the upstream, that probe (a
      // request whose other calls were refused while its probe was in flight is answered 503, the next 200).
      stub.answer();
      const back = Date.now();
      const knocksAtAnswer = stub.arrivals.length;
      let ok: Awaited<ReturnType<typeof timedGet>> | undefined;
      let knocksBeforeOk = 0;
      while (Date.now() - back < PROBE_MS + TIMEOUT_MS + 3000) {
        const knocksNow = stub.arrivals.length;
        const r = await timedGet(url);
        if (r.status === 200) {
          ok = r;
          knocksBeforeOk = knocksNow - knocksAtAnswer;
          break;
        }
        expect([503, 504]).toContain(r.status);
        await sleep(100);
      }
      const recoveryMs = Date.now() - back;
      expect(ok?.status).toBe(200);
      c.ok(ok!.json);
      expect(knocksBeforeOk).toBeLessThanOrEqual(1);
      measured[c.name] = { p50: Math.round(p50), max: Math.round(max), recoveryMs, knocks, windowMs };
    });
  });

  describe('the ledger node sends its headers, then stalls', { shuffle: true }, () => {
    it('is a timeout (504 naming it) that opens the breaker: the next requests are answered without asking it', async () => {
      const url = `${node.url}/api/ledger/local/blocks/by_version/3000`; // a block no test here has fetched (blocks are kept once fetched)
      await recover(ledgerStub, `${node.url}/api/ledger/local/blocks/by_version/2000`); // (another unfetched block)
      ledgerStub.stallAfterHeaders();
      const knocks = ledgerStub.arrivals.length;
      const first = await timedGet(url);
      expect([first.status, first.json]).toEqual([504, { code: 'upstream_timeout', message: `The local ledger node did not answer within ${TIMEOUT_MS / 1000} s.`, error_code: 'internal_error', vm_error_code: null }]);
      expect(ledgerStub.arrivals.length).toBe(knocks + 1);
      for (let i = 0; i < 5; i++) {
        const r = await timedGet(url);
        expect([r.status, r.json.code]).toEqual([503, 'upstream_unavailable']);
        expect(r.json.message).toMatch(new RegExp(`^The local ledger node \\(${escape(ledgerStub.host)}\\) is not answering`));
      }
      expect(ledgerStub.arrivals.length).toBe(knocks + 1);
      // The log's line for the 504 names the source like any upstream failure's.
      const line = node
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { msg: string; status?: number; path?: string; source?: string })
        .find((l) => l.status === 504 && l.path === '/api/ledger/local/blocks/by_version/3000');
      expect(line?.source).toBe(`ledger-node:local:${ledgerStub.host}`);
      await recover(ledgerStub, url);
    });
  });

  describe("health's check of a stalled upstream", { shuffle: true }, () => {
    it('times out like any call and opens the breaker: the next request is answered at once, without asking', async () => {
      const url = `${node.url}/api/ledger/local/blocks/by_version/6000`;
      await recover(ledgerStub, `${node.url}/api/ledger/local/blocks/by_version/4500`); // (another unfetched block)
      await sleep(5200); // health keeps its checks 5 s: let the next one be a new check
      ledgerStub.stall();
      const knocks = ledgerStub.arrivals.length;
      const h = await timedGet(`${node.url}/api/health`);
      expect(h.json.sources).toMatchObject({ ledger_local: { ok: false, error: 'timed out' } });
      const b = (h.json.breakers as { source: string; state: string }[]).find((x) => x.source === `ledger-node:local:${ledgerStub.host}`);
      expect(b?.state).toBe('open');
      const r = await timedGet(url);
      expect([r.status, r.json.code]).toEqual([503, 'upstream_unavailable']);
      expect(ledgerStub.arrivals.length).toBe(knocks + 1); // health's check alone
      await recover(ledgerStub, url);
    });
  });

  /** Lets the stub answer and waits until Lantern does again (through its breaker's next probe). */
  async function recover(stub: StallStub, url: string) {
    stub.answer();
    for (let i = 0; i < 200; i++) {
      if ((await timedGet(url)).status === 200) return;
      await sleep(100);
    }
    throw new Error(`${url} did not recover`);
  }

  describe('one hosted service down on a host that serves others', { shuffle: true }, () => {
    it('opens only that service: mainnet ledger 503s answer without waiting out Retry-After, and sign-in on the same host still works', async () => {
      // (Different blocks: the breaker counts different requests failing, not one asked again.)
      // What a Lantern upstream sends when its own mainnet node is down: 503, Retry-After 5.
      hosted.fault(/^\/mainnet\//, { kind: 'status', status: 503, retryAfter: '5', body: { code: 'upstream_unavailable', message: 'down' } });
      const host = new URL(hosted.url).host;
      const asked = () => hosted.requests.filter((r) => r.path.startsWith('/mainnet/')).length;
      const before = asked();
      const answers = [];
      for (let i = 0; i < 6; i++) answers.push(await timedGet(`${hostedMode.url}/api/ledger/mainnet/blocks/by_version/${i + 1}`));
      // Each of the first three asked once and passed the 503 on (no retry waiting out Retry-After 5);
      // then the breaker answers without asking.
      expect(answers.map((a) => a.status)).toEqual([502, 502, 502, 503, 503, 503]);
      expect(asked() - before).toBe(3);
      // After three different requests failed in a row the breaker answers for the mainnet ledger API alone,
      // naming it and what it answered.
      expect(answers.at(-1)!.json.message).toMatch(
        new RegExp(`^The mainnet ledger API \\(${escape(host)}\\) answered HTTP 503 to 3 different requests in a row; Lantern will try it again in [1-5] s\\.$`),
      );
      const health = await timedGet(`${hostedMode.url}/api/health`);
      const states = Object.fromEntries((health.json.breakers as { source: string; state: string }[]).map((b) => [b.source, b.state]));
      expect(states[`hosted:ledger-mainnet:${host}`]).toMatch(/open/);
      expect(states[`hosted:auth:${host}`] ?? 'closed').toBe('closed');

      const challenge = await fetch(`${hostedMode.url}/api/auth/challenge/request/evm`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ domain: 'lantern.test', chainId: 1, address: carol, uri: 'https://lantern.test', timeout: 60 }),
      });
      expect(challenge.status).toBe(201);
      hosted.clearFaults();
    });
  });

  describe("one wallet's upstream 500s", { shuffle: true }, () => {
    it('never refuse another wallet; several different wallets failing in a row open the breaker, saying how', async () => {
      const wallet = (d: string) => `0x${d.repeat(40)}`;
      const history = (w: string) => `${hostedMode.url}/api/v2.2/wallets/${w}/history?chain=eth&limit=5`;
      await recover(dataStub, history(wallet('7')));
      const host = dataStub.host;
      const asked = (w: string) => hosted.requests.filter((r) => r.path.toLowerCase().includes(w)).length;
      // The provider answers 500 for wallet a's history and serves everyone else.
      const a = wallet('a');
      hosted.fault(new RegExp(a, 'i'), { kind: 'status', status: 500, body: { message: 'internal error' } });
      try {
        const answersForA = [];
        const answersForOthers = [];
        for (let i = 0; i < 8; i++) {
          answersForA.push(await timedGet(history(a)));
          answersForOthers.push(await timedGet(history(wallet(String(i + 1)))));
        }
        // Each of a's requests asked the provider (with its retries) and said what happened to it.
        for (const r of answersForA) expect([r.status, r.json]).toEqual([502, { code: 'upstream_unavailable', message: 'The data provider answered HTTP 500 for this request.' }]);
        expect(asked(a)).toBeGreaterThanOrEqual(8);
        // Every other wallet was served, and the breaker stayed closed.
        expect(answersForOthers.map((r) => r.status)).toEqual(Array(8).fill(200));
        // Asked many times in a row with nothing else between, a's failures still count once.
        for (let i = 0; i < 5; i++) await timedGet(history(a));
        expect((await timedGet(history(wallet('9')))).status).toBe(200);
        const states = Object.fromEntries(((await timedGet(`${hostedMode.url}/api/health`)).json.breakers as { source: string; state: string }[]).map((b) => [b.source, b.state]));
        expect(states[`hosted:data:${host}`]).toBe('closed');

        // Three different wallets failing with nothing served between them is the provider's own trouble.
        hosted.fault(/\/history$/, { kind: 'status', status: 500 });
        // (The third's own failure opens it: its retry then meets the open breaker, so it may answer 503.)
        const three = [];
        for (const d of ['b', 'c', 'd']) three.push((await timedGet(history(wallet(d)))).status);
        expect(three.slice(0, 2)).toEqual([502, 502]);
        expect([502, 503]).toContain(three[2]);
        const refused = await timedGet(history(wallet('e')));
        expect([refused.status, refused.json.code]).toEqual([503, 'upstream_unavailable']);
        expect(refused.json.message).toMatch(new RegExp(`^The data provider \\(${escape(host)}\\) answered HTTP 500 to 3 different requests in a row; Lantern will try it again in [1-5] s\\.$`));
        expect(asked(wallet('e'))).toBe(0);
      } finally {
        hosted.clearFaults();
      }
      await recover(dataStub, history(wallet('7')));
    });

    it("keeps each request's retries within its time budget (UPSTREAM_TIMEOUT_MS)", async () => {
      // A provider that answers 500 slowly: three tries would take 3 x 700 ms plus back-off; the budget is 1 s.
      const w = `0x${'f'.repeat(40)}`;
      hosted.fault(new RegExp(w, 'i'), { kind: 'status', status: 500, delayMs: 700 });
      try {
        const before = hosted.requests.length;
        const r = await timedGet(`${hostedMode.url}/api/v2.2/wallets/${w}/history?chain=eth&limit=5`);
        expect(r.status).toBeGreaterThanOrEqual(502);
        expect(r.status).toBeLessThanOrEqual(504);
        expect(hosted.requests.length - before).toBeLessThanOrEqual(2);
        expect(r.ms).toBeLessThan(TIMEOUT_MS + 1000);
      } finally {
        hosted.clearFaults();
      }
    });
  });

  describe('the log of these expected failures', () => {
    it('has no error-level line and no stack; every request warn line names its request id and source', () => {
      for (const [instance, sources, alsoFailed] of [
        [node, [`ledger-node:local:${ledgerStub.host}`, `evm-node:devnet:${evmStub.host}`], []],
        [hostedMode, [`hosted:data:${dataStub.host}`], [`hosted:ledger-mainnet:${new URL(hosted.url).host}`]],
      ] as const) {
        const out = instance.output();
        expect(out).not.toMatch(/\n\s+at .+:\d+:\d+/); // a stack frame
        const lines = out
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l) as { level: number; msg: string; requestId?: string; source?: string; code?: string; path?: string; err?: unknown });
        expect(lines.filter((l) => l.level >= 50)).toEqual([]);
        expect(lines.filter((l) => JSON.stringify(l).includes('"stack"'))).toEqual([]);
        const requestWarnings = lines.filter((l) => l.level === 40 && l.path !== undefined);
        for (const s of sources) expect(requestWarnings.filter((l) => l.source === s).length).toBeGreaterThanOrEqual(20);
        for (const l of requestWarnings) {
          expect(l.requestId).toMatch(/\S/);
          expect([...sources, ...alsoFailed]).toContain(l.source);
          expect(l.msg).toMatch(/^api request failed: /);
        }
        // Pages that showed an upstream down logged it the same way: one warn line each, with the request
        // id, the code and the source.
        const pageWarnings = lines.filter((l) => l.level === 40 && l.msg.startsWith('page: '));
        expect(new Set(pageWarnings.map((l) => l.source))).toEqual(new Set(sources));
        for (const l of pageWarnings) {
          expect(l.requestId).toMatch(/\S/);
          expect(sources).toContain(l.source);
          // The breaker's answer; or the timeout of a page's call that was itself the probe.
          expect(l.code).toMatch(/^upstream_(unavailable|timeout)$/);
        }
        // Other warn lines are start-up's (a source or the database not ready yet), no request's.
        for (const l of lines.filter((x) => x.level === 40 && x.path === undefined && !x.msg.startsWith('page: '))) expect(l.msg, JSON.stringify(l)).toMatch(/ at start-up$/);
      }
    });
  });
});
