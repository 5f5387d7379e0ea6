import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createPublicClient } from 'viem';
import { isLanternError } from '@/lib/errors';
import { BreakerOpenError, CircuitBreaker, asBreakerOpen, errorOutcome, exchange, newBreakerData, responseOutcome, type BreakerState } from '@/lib/sources/breaker';
import { rpcTransport } from '@/lib/sources/breakers';

/** A breaker on a clock the test moves by hand. */
function setup(opts: { failureThreshold?: number; coolDownMs?: number; probeTimeoutMs?: number } = {}) {
  let t = 1_000_000;
  const changes: { from: BreakerState; to: BreakerState; reason: string }[] = [];
  const b = new CircuitBreaker('ledger-node:local', 'The local ledger node (127.0.0.1:8080)', '127.0.0.1:8080', {
    failureThreshold: opts.failureThreshold ?? 3,
    coolDownMs: opts.coolDownMs ?? 5000,
    probeTimeoutMs: opts.probeTimeoutMs ?? 1000,
    now: () => t,
    onChange: ({ from, to, reason }) => changes.push({ from, to, reason }),
  });
  return { b, changes, advance: (ms: number) => (t += ms), now: () => t };
}

const ok = () => Promise.resolve('answer');
const refused = () => Promise.reject(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } }));
const timedOut = () => Promise.reject(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
const classify = { error: errorOutcome };

async function openError(p: Promise<unknown>): Promise<BreakerOpenError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(BreakerOpenError);
  return e as BreakerOpenError;
}

describe('circuit breaker', () => {
  it('stays closed below the threshold, and a success resets the count', async () => {
    const { b } = setup();
    await expect(b.run(refused, classify)).rejects.toThrow('fetch failed');
    await expect(b.run(refused, classify)).rejects.toThrow('fetch failed');
    expect(b.state()).toBe('closed');
    expect(await b.run(ok, classify)).toBe('answer');
    await expect(b.run(refused, classify)).rejects.toThrow('fetch failed');
    await expect(b.run(refused, classify)).rejects.toThrow('fetch failed');
    expect(b.snapshot()).toMatchObject({ state: 'closed', failures: 2 });
  });

  it('opens after N failures in a row, then answers at once with 503, Retry-After and the source named', async () => {
    const { b, advance, changes } = setup();
    for (let i = 0; i < 3; i++) await expect(b.run(refused, classify)).rejects.toThrow('fetch failed');
    expect(b.state()).toBe('open');
    expect(changes).toEqual([{ from: 'closed', to: 'open', reason: '3 different requests failed in a row' }]);
    let calls = 0;
    const e = await openError(
      b.run(() => {
        calls++;
        return ok();
      }),
    );
    expect(calls).toBe(0);
    expect([e.status, e.code, e.retryAfter, e.source]).toEqual([503, 'upstream_unavailable', 5, 'ledger-node:local']);
    expect(e.message).toBe('The local ledger node (127.0.0.1:8080) is not answering; Lantern will try it again in 5 s.');
    advance(3200);
    const later = await openError(b.run(ok));
    expect([later.retryAfter, later.message]).toEqual([2, 'The local ledger node (127.0.0.1:8080) is not answering; Lantern will try it again in 2 s.']);
  });

  it('a timeout is a failure like any other: one opens it only at a threshold of 1', async () => {
    const { b } = setup();
    await expect(b.run(timedOut, classify)).rejects.toThrow('timeout');
    expect(b.snapshot()).toMatchObject({ state: 'closed', failures: 1 });
    await expect(b.run(timedOut, classify)).rejects.toThrow('timeout');
    await expect(b.run(timedOut, classify)).rejects.toThrow('timeout');
    expect(b.snapshot()).toMatchObject({ state: 'open', retryInS: 5 });
    expect((await openError(b.run(ok))).message).toBe('The local ledger node (127.0.0.1:8080) is not answering; Lantern will try it again in 5 s.');
    const one = setup({ failureThreshold: 1 }).b;
    await expect(one.run(timedOut, classify)).rejects.toThrow('timeout');
    expect(one.state()).toBe('open');
  });

  it('4xx answers are the upstream working; 5xx are failures', async () => {
    const { b } = setup();
    const status = (s: number) => () => Promise.resolve(new Response(null, { status: s }));
    for (const s of [404, 410, 400, 429, 404, 410]) await b.run(status(s), { result: responseOutcome });
    expect(b.state()).toBe('closed');
    for (const s of [500, 502, 503]) await b.run(status(s), { result: responseOutcome });
    expect(b.state()).toBe('open');
  });

  it('after the cool-down one probe goes; calls during it fail at once; its success closes the breaker', async () => {
    const { b, advance, changes } = setup({ failureThreshold: 1 });
    await expect(b.run(timedOut, classify)).rejects.toThrow();
    advance(5000);
    expect(b.state()).toBe('half-open');
    let release!: (v: string) => void;
    let upstreamCalls = 0;
    const probe = b.run(() => {
      upstreamCalls++;
      return new Promise<string>((r) => (release = r));
    });
    expect(b.snapshot()).toMatchObject({ state: 'half-open', probing: true });
    // Concurrent requests during the probe never reach the upstream.
    for (let i = 0; i < 20; i++) {
      const e = await openError(
        b.run(() => {
          upstreamCalls++;
          return ok();
        }),
      );
      expect(e.retryAfter).toBe(1);
    }
    expect(upstreamCalls).toBe(1);
    release('back');
    expect(await probe).toBe('back');
    expect(b.state()).toBe('closed');
    expect(await b.run(ok)).toBe('answer');
    expect(changes.map((c) => c.to)).toEqual(['open', 'half-open', 'closed']);
  });

  it('a failed probe reopens for a full cool-down', async () => {
    const { b, advance } = setup({ failureThreshold: 1 });
    await expect(b.run(timedOut, classify)).rejects.toThrow();
    advance(5001);
    await expect(b.run(timedOut, classify)).rejects.toThrow('timeout');
    expect(b.snapshot()).toMatchObject({ state: 'open', retryInS: 5 });
    advance(4999);
    await openError(b.run(ok));
    advance(1);
    expect(await b.run(ok)).toBe('answer');
    expect(b.state()).toBe('closed');
  });

  it('a probe that never settles is presumed lost after the probe timeout, so the breaker cannot stick', async () => {
    const { b, advance } = setup({ failureThreshold: 1, probeTimeoutMs: 1000 });
    await expect(b.run(timedOut, classify)).rejects.toThrow();
    advance(5000);
    void b.run(() => new Promise<never>(() => undefined));
    advance(1999);
    await openError(b.run(ok));
    advance(1);
    expect(await b.run(ok)).toBe('answer');
  });

  it('a slow success that set out before the breaker opened closes it; a slow failure does not extend it', async () => {
    const { b, advance } = setup({ failureThreshold: 1 });
    let settle!: (ok: boolean) => void;
    const slow = b.run(() => new Promise<string>((res, rej) => (settle = (y) => (y ? res('late') : rej(new Error('reset'))))), classify);
    await expect(b.run(timedOut, classify)).rejects.toThrow();
    advance(100);
    settle(true);
    expect(await slow).toBe('late');
    expect(b.state()).toBe('closed');

    const slow2 = b.run(() => new Promise<string>((_, rej) => (settle = () => rej(new Error('reset')))), classify);
    await expect(b.run(timedOut, classify)).rejects.toThrow();
    advance(4000);
    settle(false);
    await expect(slow2).rejects.toThrow('reset');
    expect(b.snapshot()).toMatchObject({ state: 'open', retryInS: 1 });
  });

  it('a cool-down of 0 lets the next call through as the probe', async () => {
    const { b } = setup({ failureThreshold: 1, coolDownMs: 0 });
    await expect(b.run(timedOut, classify)).rejects.toThrow();
    expect(b.state()).toBe('half-open');
    expect(await b.run(ok)).toBe('answer');
    expect(b.state()).toBe('closed');
  });

  it('reports since when it is in its state', async () => {
    const { b, advance, now } = setup({ failureThreshold: 1 });
    const opened = now();
    await expect(b.run(timedOut, classify)).rejects.toThrow();
    advance(1000);
    expect(b.snapshot()).toMatchObject({ state: 'open', since: new Date(opened).toISOString() });
    advance(6000);
    // Half-open since the cool-down ended, not since someone looked.
    expect(b.snapshot()).toMatchObject({ state: 'half-open', since: new Date(opened + 5000).toISOString(), probing: false });
  });

  it('whatever the sequence of outcomes and waits, at most one call reaches the upstream per cool-down while it is down', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 1, maxLength: 200 }), async (gaps) => {
        const { b, advance } = setup({ failureThreshold: 1, coolDownMs: 5000, probeTimeoutMs: 1000 });
        let reached = 0;
        let elapsed = 0;
        for (const gap of gaps) {
          advance(gap);
          elapsed += gap;
          await b
            .run(() => {
              reached++;
              return timedOut();
            }, classify)
            .catch(() => undefined);
        }
        // The first call opens it; then at most one probe per cool-down.
        expect(reached).toBeLessThanOrEqual(1 + Math.floor(elapsed / 5000));
      }),
    );
  });
});

describe('failures are counted per request, not per call', () => {
  const answered = (status: number) => () => Promise.resolve(new Response(null, { status }));
  const http = { result: responseOutcome, error: errorOutcome };
  type Failure = 'refused' | 'timeout' | 500 | 502 | 503;
  const failing = (f: Failure) => (f === 'refused' ? refused : f === 'timeout' ? timedOut : answered(f));

  it("one request failing, however often and however it fails, never refuses another's", async () => {
    const { b, advance } = setup();
    for (const f of ['refused', 'timeout', 500, 500, 503, 'timeout', 'refused'] as const) {
      await b.run(failing(f), http, 'GET /wallets/A/history').catch(() => undefined);
      advance(100);
    }
    expect(b.snapshot()).toMatchObject({ state: 'closed', failures: 1 });
    expect(await b.run(ok, classify, 'GET /wallets/B/history')).toBe('answer');
  });

  it('several different requests failing in a row open it, and the sentence says how the provider failed', async () => {
    const { b } = setup();
    for (const w of ['A', 'B', 'C']) await b.run(answered(500), http, `GET /wallets/${w}/history`);
    expect(b.state()).toBe('open');
    const e = await openError(b.run(ok, classify, 'GET /wallets/D/history'));
    expect(e.message).toBe('The local ledger node (127.0.0.1:8080) answered HTTP 500 to 3 different requests in a row; Lantern will try it again in 5 s.');
  });

  it('connection failures open it as not answering', async () => {
    const { b } = setup();
    for (const w of ['A', 'B', 'C']) await b.run(refused, http, w).catch(() => undefined);
    expect((await openError(b.run(ok))).message).toMatch(/is not answering;/);
  });

  it('a success between failures is the provider working: the count starts again', async () => {
    const { b } = setup();
    await b.run(answered(500), http, 'A');
    await b.run(answered(500), http, 'B');
    await b.run(ok, classify, 'D');
    await b.run(answered(500), http, 'C');
    expect(b.snapshot()).toMatchObject({ state: 'closed', failures: 1 });
  });

  it('failures older than the window are forgotten', async () => {
    let t = 0;
    const b = new CircuitBreaker('hosted:data:h', 'The data provider (h)', 'h', { failureThreshold: 3, windowMs: 10_000, coolDownMs: 5000, probeTimeoutMs: 1000, now: () => t });
    await b.run(answered(500), http, 'A');
    t += 6000;
    await b.run(answered(500), http, 'B');
    t += 6000; // A is now 12 s old
    await b.run(answered(500), http, 'C');
    expect(b.snapshot()).toMatchObject({ state: 'closed', failures: 2 });
    await b.run(answered(500), http, 'E');
    expect(b.state()).toBe('open');
  });

  it('whatever one request key does (any failures, any waits), every other request is let through', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 5 }),
        fc.array(fc.record({ gap: fc.integer({ min: 0, max: 40_000 }), fail: fc.constantFrom<Failure>('refused', 'timeout', 500, 502, 503), other: fc.boolean() }), {
          minLength: 1,
          maxLength: 100,
        }),
        async (threshold, steps) => {
          const { b, advance } = setup({ failureThreshold: threshold });
          for (const s of steps) {
            advance(s.gap);
            await b.run(failing(s.fail), http, 'GET /wallets/A/history').catch(() => undefined);
            expect(b.state()).toBe('closed');
            // Another wallet, asked now, is asked of the upstream and answered.
            if (s.other) expect(await b.run(ok, classify, `GET /wallets/B${s.gap}/history`)).toBe('answer');
          }
        },
      ),
    );
  });

  it('it opens exactly when `threshold` different keys have failed with no success between them', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.oneof(fc.constant<'ok'>('ok'), fc.constantFrom('A', 'B', 'C', 'D', 'E')), { minLength: 1, maxLength: 40 }),
        async (threshold, calls) => {
          const { b } = setup({ failureThreshold: threshold, coolDownMs: 1_000_000 });
          const failedSinceOk = new Set<string>();
          for (const c of calls) {
            if (b.state() === 'open') return; // open for the rest: nothing more to see
            if (c === 'ok') {
              await b.run(ok, classify, 'ok');
              failedSinceOk.clear();
            } else {
              await b.run(answered(500), http, c);
              failedSinceOk.add(c);
            }
            expect(b.state()).toBe(failedSinceOk.size >= threshold ? 'open' : 'closed');
          }
        },
      ),
    );
  });
});

describe('outcomes', () => {
  it('names timeouts (AbortSignal.timeout, an abort on timeout) apart from other failures', () => {
    expect(errorOutcome(new DOMException('x', 'TimeoutError'))).toBe('timeout');
    expect(errorOutcome(new DOMException('x', 'AbortError'))).toBe('timeout');
    expect(errorOutcome(new TypeError('fetch failed'))).toBe('failure');
  });
});

describe('across bundles', () => {
  it('two breakers over the same shared state act as one', async () => {
    const data = newBreakerData(0);
    let t = 0;
    const opts = { failureThreshold: 1, coolDownMs: 5000, probeTimeoutMs: 1000, now: () => t };
    const a = new CircuitBreaker('evm-node:h', 'The EVM node (h)', 'h', opts, data);
    const b = new CircuitBreaker('evm-node:h', 'The EVM node (h)', 'h', opts, data);
    await expect(a.run(timedOut, classify)).rejects.toThrow();
    expect(b.state()).toBe('open');
    t = 5000;
    const probe = a.run(() => new Promise(() => undefined));
    await openError(b.run(ok));
    void probe;
  });

  it('a breaker answer thrown by another copy of the module is recognised and re-made as this one', () => {
    const foreign = { name: 'LanternError', breakerOpen: true, status: 503, code: 'upstream_unavailable', message: 'The EVM node (h) is not answering; Lantern will try it again in 4 s.', retryAfter: 4, source: 'evm-node:h', toJSON: () => ({}) };
    const local = asBreakerOpen(foreign)!;
    expect(local).toBeInstanceOf(BreakerOpenError);
    expect([local.status, local.code, local.message, local.retryAfter, local.source]).toEqual([503, 'upstream_unavailable', foreign.message, 4, 'evm-node:h']);
    expect(isLanternError(foreign)).toBe(true);
    expect(asBreakerOpen(new Error('x'))).toBeUndefined();
    expect(isLanternError(new Error('x'))).toBe(false);
  });
});

describe('a whole exchange (headers and body) is one call', () => {
  // A real upstream on loopback: /stall sends its headers and the start of the body, then nothing.
  let upstream: Server;
  let base: string;
  const held: ServerResponse[] = [];
  beforeAll(async () => {
    upstream = createServer((req, res) => {
      if (req.url === '/stall') {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '1000' });
        res.write('{"first_version":');
        held.push(res);
      } else if (req.url === '/empty') res.writeHead(204).end();
      else res.writeHead(req.url === '/down' ? 503 : 200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const r of held) r.destroy();
    upstream.closeAllConnections();
    await new Promise((r) => upstream.close(r));
  });

  it('an upstream that sends its headers and then stalls is a timeout (at a threshold of 1, the breaker opens at once)', async () => {
    const { b } = setup({ failureThreshold: 1 });
    const e = await exchange(b, `${base}/stall`, { signal: AbortSignal.timeout(300) }).then(
      () => undefined,
      (x: unknown) => x,
    );
    expect((e as Error).name).toBe('TimeoutError');
    expect(b.state()).toBe('open');
    expect(held.length).toBe(1);
    // The next call answers at once: the stalled upstream sees nothing more.
    await openError(exchange(b, `${base}/stall`, { signal: AbortSignal.timeout(300) }));
    expect(held.length).toBe(1);
  });

  it('answers come back whole and readable; a 5xx counts as a failure, a 204 has no body', async () => {
    const { b } = setup({ failureThreshold: 1 });
    const res = await exchange(b, `${base}/ok`);
    expect([res.status, res.headers.get('content-type'), await res.json()]).toEqual([200, 'application/json', { ok: true }]);
    expect([(await exchange(b, `${base}/empty`)).status, b.state()]).toEqual([204, 'closed']);
    expect((await exchange(b, `${base}/down`)).status).toBe(503);
    expect(b.state()).toBe('open');
  });
});

describe("a node's answers through viem (rpcTransport)", () => {
  // A JSON-RPC node on loopback answering what the test sets: the body read in memory and decoded by
  // ReadResponse (breaker.ts), viem's own reading skipped, its 10 MB limit kept.
  let node: Server;
  let url: string;
  let answer: { status: number; body: Buffer } = { status: 200, body: Buffer.from('{}') };
  beforeAll(async () => {
    node = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(answer.body));
    });
    await new Promise<void>((r) => node.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(node.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    node.closeAllConnections();
    await new Promise((r) => node.close(r));
  });
  const client = () => createPublicClient({ transport: rpcTransport(url, setup().b) });
  const ask = () => client().request({ method: 'lantern_echo' as 'eth_chainId' }) as Promise<unknown>;

  it('any text the node sends, in any script and split anywhere in UTF-8, comes back as sent', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 200 }), async (s) => {
        answer = { status: 200, body: Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 0, result: s })) };
        expect(await ask()).toBe(s);
      }),
      { numRuns: 60 },
    );
  });

  it('an answer over 10 MB is refused by its size, naming it', async () => {
    const big = 'ab'.repeat(5.3 * 1024 * 1024);
    answer = { status: 200, body: Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 0, result: big })) };
    const e = await ask().then(
      () => undefined,
      (x: unknown) => x,
    );
    expect((e as Error).name).toBe('ResponseBodyTooLargeError');
    expect((e as Error).message).toMatch(/10485760/);
  });

  it("a JSON-RPC error sent with a 500 is the node's error, its words intact", async () => {
    answer = { status: 500, body: Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 0, error: { code: -32000, message: 'exécution annulée: ✗' } })) };
    await expect(ask()).rejects.toThrow('exécution annulée: ✗');
  });
});

describe('batches to a node (rpcTransport with batch)', () => {
  // A node on loopback that records each request's calls and answers each batch as `answerBatch` says.
  type Call = { jsonrpc: string; id: number; method: string; params?: unknown[] };
  let node: Server;
  let url: string;
  let requests: Call[][] = [];
  const echoAll = (calls: Call[]) => calls.map((c) => ({ jsonrpc: '2.0', id: c.id, result: c.params?.[0] ?? null }));
  let answerBatch: (calls: Call[]) => unknown = echoAll;
  // Tests run in a shuffled order: each starts from a node that echoes and has seen nothing.
  beforeEach(() => {
    requests = [];
    answerBatch = echoAll;
  });
  beforeAll(async () => {
    node = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Call | Call[];
        const calls = Array.isArray(body) ? body : [body];
        requests.push(calls);
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answerBatch(calls)));
      });
    });
    await new Promise<void>((r) => node.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(node.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    node.closeAllConnections();
    await new Promise((r) => node.close(r));
  });
  const client = (batchSize = 100) => createPublicClient({ transport: rpcTransport(url, setup({ failureThreshold: 1000 }).b, { batch: { batchSize } }) });
  const echo = (c: ReturnType<typeof client>, x: unknown, signal?: AbortSignal) =>
    c.request({ method: 'lantern_echo' as 'eth_chainId', params: [x] as never }, signal ? { signal } : undefined) as Promise<unknown>;
  const outcome = (p: Promise<unknown>) => p.then((v) => ({ ok: true as const, v }), (e: Error) => ({ ok: false as const, e }));

  it('calls made in one turn of the event loop travel in one request, the next turn’s in another', async () => {
    const c = client();
    const first = await Promise.all([echo(c, 'a'), echo(c, 'b'), echo(c, 'c')]);
    const second = await Promise.all([echo(c, 'd'), echo(c, 'e')]);
    expect([first, second]).toEqual([['a', 'b', 'c'], ['d', 'e']]);
    expect(requests.map((r) => r.map((x) => x.params?.[0]))).toEqual([['a', 'b', 'c'], ['d', 'e']]); // the second sent once the first was answered
  });

  it('no more than batchSize calls travel in one request', async () => {
    const c = client(4);
    const got = await Promise.all(Array.from({ length: 10 }, (_, i) => echo(c, i)));
    expect(got).toEqual(Array.from({ length: 10 }, (_, i) => i));
    expect(requests.map((r) => r.length).sort()).toEqual([2, 4, 4]); // in any order: each request has its own connection
  });

  it('calls given different abort signals (rpc.ts lanes) travel apart', async () => {
    const c = client();
    const lane = new AbortController().signal;
    await Promise.all([echo(c, 'page'), echo(c, 'lane', lane), echo(c, 'page2'), echo(c, 'lane2', lane)]);
    expect(requests.map((r) => r.map((x) => x.params?.[0])).sort()).toEqual([['lane', 'lane2'], ['page', 'page2']]);
  });

  it('each call gets its own answer, its own error, or a named failure, whatever order and gaps the node answers with', async () => {
    const c = client();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ fate: fc.constantFrom('result', 'error', 'missing'), order: fc.double({ min: 0, max: 1, noNaN: true }) }), { minLength: 1, maxLength: 30 }),
        async (plan) => {
          answerBatch = (calls) =>
            calls
              .map((call, i) => ({ call, ...plan[i]! }))
              .filter((x) => x.fate !== 'missing')
              .sort((a, b) => a.order - b.order)
              .map(({ call, fate }) => (fate === 'result' ? { jsonrpc: '2.0', id: call.id, result: call.params?.[0] } : { jsonrpc: '2.0', id: call.id, error: { code: -32000, message: `no ${String(call.params?.[0])}` } }));
          const got = await Promise.all(plan.map((_, i) => outcome(echo(c, `x${i}`))));
          got.forEach((g, i) => {
            const fate = plan[i]!.fate;
            if (fate === 'result') expect(g).toEqual({ ok: true, v: `x${i}` });
            else if (fate === 'error') expect(!g.ok && g.e.message).toContain(`no x${i}`);
            else expect(!g.ok && g.e.message).toContain('the node answered the batch without an answer to this call');
          });
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a node refusing the whole batch with one error fails every call with that error', async () => {
    answerBatch = () => ({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batch too large for this node' } });
    const c = client();
    const got = await Promise.all([outcome(echo(c, 1)), outcome(echo(c, 2))]);
    for (const g of got) expect(!g.ok && g.e.message).toContain('batch too large for this node');
  });
});
