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
 */
const TIMEOUT_MS = 1000;
const PROBE_MS = 3000;
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
    startLantern({ ...common, LEDGER_API_URL_LOCAL: `${ledgerStub.url}/v1`, EVM_RPC_URL: evmStub.url }),
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
  /** How the source names itself in the sentence. */
  label: (host: string) => string;
  source: (host: string) => string;
  /** A page that shows the same sentence while the breaker is open. */
  page?: { path: string; marker: string };
  ok: (json: Record<string, unknown>) => void;
}

const cases: Case[] = [
  {
    name: 'the local ledger node',
    lantern: () => node,
    stub: () => ledgerStub,
    path: '/api/ledger/local/blocks/by_version/1000',
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
    label: (h) => `The EVM node (${h})`,
    source: (h) => `evm-node:${h}`,
    page: { path: `/wallet/${carol}`, marker: 'role="alert"' },
    ok: (j) => expect(j.balance).toMatch(/^\d+$/),
  },
  {
    name: 'the hosted data API',
    lantern: () => hostedMode,
    stub: () => dataStub,
    path: `/api/v2.2/wallets/${carol}/history?chain=eth&limit=5`,
    label: (h) => `The data provider (${h})`,
    source: (h) => `hosted:data:${h}`,
    ok: (j) => expect((j.result as unknown[]).length).toBe(5),
  },
];

describe.each(cases)('a stalled upstream: $name', (c) => {
  it('waits once, then answers 503 at once naming it, knocks at most once per probe interval, and recovers within one', async () => {
    const lantern = c.lantern();
    const stub = c.stub();
    const url = lantern.url + c.path;
    const sentence = new RegExp(`^${escape(c.label(stub.host))} is not answering; Lantern will try it again in [1-3] s\\.$`);

    // The first request waits out the timeout, never longer, and opens the breaker.
    stub.stall();
    const first = await timedGet(url);
    expect(first.status).toBe(504);
    expect(first.json.code).toBe('upstream_timeout');
    expect(first.ms).toBeLessThan(TIMEOUT_MS + 1500);
    const openedAt = Date.now();
    const knocksBefore = stub.arrivals.length;

    // 20 requests answer at once: 503, Retry-After, a sentence naming the source.
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
    // The target is under 100 ms: the median is held to it; every one answered before the upstream's
    // timeout could have passed (the figures are reported; a loaded test machine stretches the slowest).
    expect(p50).toBeLessThan(100);
    expect(max).toBeLessThan(TIMEOUT_MS);

    // The page says the same in words, with a retry.
    if (c.page) {
      const page = await timedGet(lantern.url + c.page.path);
      expect(page.status).toBe(200);
      expect(page.text).toContain(c.page.marker);
      expect(page.text).toMatch(new RegExp(`${escape(c.label(stub.host))} is not answering; Lantern will try it again in [1-3] s\\.`));
      expect(page.text).toContain('Retry');
    }

    // Health says so, at once, without waiting on the stalled upstream.
    const h = await timedGet(`${lantern.url}/api/health`);
    expect(h.status).toBe(200);
    expect(h.ms).toBeLessThan(TIMEOUT_MS + 1500);
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
    for (const a of answers) {
      expect([503, 504]).toContain(a.status);
      expect(a.ms).toBeLessThan(TIMEOUT_MS + 1500); // a probe waits at most the timeout
    }
    expect(answers.filter((a) => a.status === 504).length).toBeLessThanOrEqual(knocks);
    expect(Math.max(...healthMs)).toBeLessThan(TIMEOUT_MS + 1500);

    // The upstream answers again: so does Lantern, within one probe interval.
    stub.answer();
    const back = Date.now();
    let ok: Awaited<ReturnType<typeof timedGet>> | undefined;
    while (Date.now() - back < PROBE_MS + TIMEOUT_MS + 3000) {
      const r = await timedGet(url);
      if (r.status === 200) {
        ok = r;
        break;
      }
      expect([503, 504]).toContain(r.status);
      await sleep(100);
    }
    const recoveryMs = Date.now() - back;
    expect(ok?.status).toBe(200);
    c.ok(ok!.json);
    expect(recoveryMs).toBeLessThan(PROBE_MS + 1000);
    measured[c.name] = { p50: Math.round(p50), max: Math.round(max), recoveryMs, knocks, windowMs };
  });
});

describe('one hosted service down on a host that serves others', () => {
  it('opens only that service: mainnet ledger 503s answer without waiting out Retry-After, and sign-in on the same host still works', async () => {
    // What a Lantern upstream sends when its own mainnet node is down: 503, Retry-After 5.
    hosted.fault(/^\/mainnet\//, { kind: 'status', status: 503, retryAfter: '5', body: { code: 'upstream_unavailable', message: 'down' } });
    const host = new URL(hosted.url).host;
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await timedGet(`${hostedMode.url}/api/ledger/mainnet/blocks/by_version/1`));
    for (const a of answers) {
      expect(a.status).toBeGreaterThanOrEqual(502);
      expect(a.status).toBeLessThanOrEqual(503);
      expect(a.ms).toBeLessThan(2500); // not 2 x 5 s of Retry-After
    }
    // After three failures in a row the breaker answers for the mainnet ledger API alone, naming it.
    expect(answers.at(-1)!.json.message).toMatch(new RegExp(`^The mainnet ledger API \\(${escape(host)}\\) is not answering`));
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

describe('the log of these expected failures', () => {
  it('has no error-level line and no stack; every request warn line names its request id and source', () => {
    for (const [instance, sources, alsoFailed] of [
      [node, [`ledger-node:local:${ledgerStub.host}`, `evm-node:${evmStub.host}`], []],
      [hostedMode, [`hosted:data:${dataStub.host}`], [`hosted:ledger-mainnet:${new URL(hosted.url).host}`]],
    ] as const) {
      const out = instance.output();
      expect(out).not.toMatch(/\n\s+at .+:\d+:\d+/); // a stack frame
      const lines = out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { level: number; msg: string; requestId?: string; source?: string; path?: string; err?: unknown });
      expect(lines.filter((l) => l.level >= 50)).toEqual([]);
      expect(lines.filter((l) => JSON.stringify(l).includes('"stack"'))).toEqual([]);
      const requestWarnings = lines.filter((l) => l.level === 40 && l.path !== undefined);
      for (const s of sources) expect(requestWarnings.filter((l) => l.source === s).length).toBeGreaterThanOrEqual(20);
      for (const l of requestWarnings) {
        expect(l.requestId).toMatch(/\S/);
        expect([...sources, ...alsoFailed]).toContain(l.source);
        expect(l.msg).toMatch(/^api request failed: /);
      }
      // Other warn lines are start-up's (a source or the database not ready yet), no request's.
      for (const l of lines.filter((x) => x.level === 40 && x.path === undefined)) expect(l.msg, JSON.stringify(l)).toMatch(/ at start-up$/);
    }
  });
});
