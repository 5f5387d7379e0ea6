import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CallBudget } from '@/lib/sources/evm-node/call-budget';

/** A clock the test moves by hand: sleeps resolve when it passes their time. */
function clock() {
  let t = 0;
  const timers: { at: number; wake: () => void }[] = [];
  // A macrotask turn: every promise chain that can settle now has settled.
  const flush = () => new Promise<void>((r) => setImmediate(r));
  return {
    now: () => t,
    sleep: (ms: number) => new Promise<void>((wake) => timers.push({ at: t + Math.max(0, ms), wake })),
    /** Moves time forward in 1 ms steps, waking what is due at each. */
    async advance(ms: number) {
      for (let end = t + ms; t < end; ) {
        await flush();
        t += 1;
        for (const due of timers.filter((x) => x.at <= t)) {
          timers.splice(timers.indexOf(due), 1);
          due.wake();
        }
      }
      await flush();
    },
  };
}

/** A page call the test ends by hand. */
function pending() {
  let end!: () => void;
  const p = new Promise<void>((r) => (end = r));
  return { p, end };
}

describe('CallBudget: pages first, then a budget', () => {
  it('lets a background call go at once while no page is reading', async () => {
    const c = clock();
    const b = new CallBudget({ perSecond: 100, ...c });
    let went = false;
    void b.background().then(() => (went = true));
    await c.advance(0);
    expect(went).toBe(true);
  });

  it('holds background calls while a page call is in flight, and a quiet moment after it', async () => {
    const c = clock();
    const b = new CallBudget({ perSecond: 0, quietMs: 25, maxYieldMs: 10_000, ...c });
    const call = pending();
    const page = b.page(() => call.p);
    let wentAt: number | null = null;
    void b.background().then(() => (wentAt = c.now()));
    await c.advance(100);
    expect(wentAt).toBeNull();
    call.end();
    await page;
    const endedAt = c.now();
    await c.advance(24);
    expect(wentAt).toBeNull();
    await c.advance(2);
    expect(wentAt).toBe(endedAt + 25);
  });

  it('never holds a background call longer than maxYieldMs, however busy the pages', async () => {
    const c = clock();
    const b = new CallBudget({ perSecond: 0, quietMs: 25, maxYieldMs: 250, ...c });
    void b.page(() => new Promise<void>(() => undefined)); // a page call that never ends
    let wentAt: number | null = null;
    void b.background().then(() => (wentAt = c.now()));
    await c.advance(249);
    expect(wentAt).toBeNull();
    await c.advance(2);
    expect(wentAt).toBe(250);
  });

  it('by default waits out a page round longer than a second (a busy node answering a first visit), then goes after its quiet time', async () => {
    const c = clock();
    const b = new CallBudget({ perSecond: 0, ...c });
    const call = pending();
    const page = b.page(() => call.p);
    let wentAt: number | null = null;
    void b.background().then(() => (wentAt = c.now()));
    await c.advance(2_300);
    expect(wentAt).toBeNull();
    expect(b.pagesInFlight).toBe(true);
    call.end();
    await page;
    expect(b.pagesInFlight).toBe(false);
    await c.advance(30);
    expect(wentAt).toBe(2_300 + 25);
  });

  it('a background write waits for pages to pause as a call does, without spending a call', async () => {
    const c = clock();
    const b = new CallBudget({ perSecond: 1, quietMs: 25, ...c });
    // Calls queued behind a spent budget: a write is no call, and neither waits for tokens nor queues behind them.
    let gone = 0;
    for (let i = 0; i < 5; i++) void b.background().then(() => gone++);
    const call = pending();
    const page = b.page(() => call.p);
    let pausedAt: number | null = null;
    void b.pagesPaused().then(() => (pausedAt = c.now()));
    await c.advance(500);
    expect(pausedAt).toBeNull();
    expect(b.waitingWrites).toBe(1);
    call.end();
    await page;
    await c.advance(30);
    expect(pausedAt).toBe(500 + 25);
    expect(b.waitingWrites).toBe(0);
    expect(gone).toBeLessThan(5);
  });

  it('a page call never waits for the background', async () => {
    const c = clock();
    const b = new CallBudget({ perSecond: 1, ...c });
    for (let i = 0; i < 50; i++) void b.background();
    let answered = false;
    void b.page(async () => 'x').then(() => (answered = true));
    await c.advance(0);
    expect(answered).toBe(true);
  });

  it('spends at most perSecond background calls a second (after its quarter-second burst), released together', () =>
    fc.assert(
      fc.asyncProperty(fc.integer({ min: 4, max: 400 }), fc.integer({ min: 1, max: 3 }), async (perSecond, seconds) => {
        const c = clock();
        const b = new CallBudget({ perSecond, ...c });
        const times: number[] = [];
        const n = perSecond * seconds + Math.floor(perSecond / 4);
        for (let i = 0; i < n + 20; i++) void b.background().then(() => times.push(c.now()));
        await c.advance(seconds * 1000);
        // The burst (a quarter second's worth) plus perSecond for each second, never more.
        expect(times.length).toBeLessThanOrEqual(Math.max(1, perSecond / 4) + perSecond * seconds + 1);
        // And not starved: at least most of that went.
        expect(times.length).toBeGreaterThanOrEqual(Math.floor(perSecond * seconds * 0.9));
        // Released in slices, not one call per timer: far fewer distinct times than calls.
        if (perSecond >= 40) expect(new Set(times).size).toBeLessThan(times.length / 2);
      }),
      { numRuns: 25 },
    ));

  it('background calls go in the order they asked', async () => {
    const c = clock();
    const b = new CallBudget({ perSecond: 10, ...c });
    const order: number[] = [];
    for (let i = 0; i < 12; i++) void b.background().then(() => order.push(i));
    await c.advance(2000);
    expect(order).toEqual([...Array(12).keys()]);
  });
});

describe('CallBudget under pages that never pause', () => {
  it('lets the queued background calls through together once one has waited maxYieldMs', async () => {
    const c = clock();
    const b = new CallBudget({ perSecond: 0, quietMs: 25, maxYieldMs: 250, ...c });
    void b.page(() => new Promise<void>(() => undefined));
    const went: number[] = [];
    for (let i = 0; i < 30; i++) void b.background().then(() => went.push(c.now()));
    await c.advance(251);
    expect(went).toHaveLength(30);
    expect(new Set(went)).toEqual(new Set([250]));
  });
});
