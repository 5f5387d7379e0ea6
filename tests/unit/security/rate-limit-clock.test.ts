import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cached } from '@/lib/cache';
import { clock } from '@/lib/clock';
import { resetConfigForTests } from '@/lib/config';
import { LanternError } from '@/lib/errors';
import { enforceRateLimit } from '@/lib/security/rate-limit';

// Windows and lifetimes measured on an injected clock: time moves when the test says, never by sleeping.
let now = 0;
beforeEach(() => {
  now = Date.UTC(2026, 0, 1, 12, 0, 59, 500); // half a second before a wall-clock minute ends
  clock.now = () => now;
  const env = { NODE_ENV: 'test', RATE_LIMIT_PER_MINUTE: '3', TRUSTED_PROXY: '1', UPSTREAM_CACHE: 'on', DATA_DIR: '/tmp/lantern-unit-clock', REDIS_URL: undefined };
  for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v);
  resetConfigForTests();
});
afterEach(() => {
  clock.now = () => Date.now();
});

let ipSeq = 0;
async function outcome(ip: string): Promise<string> {
  try {
    await enforceRateLimit(new Headers({ 'x-forwarded-for': `${ip}, 127.0.0.1` }));
    return 'ok';
  } catch (e) {
    if (e instanceof LanternError) return `${e.status} ${e.code} retry ${e.retryAfter}`;
    throw e;
  }
}

describe('rate-limit windows', () => {
  it('open at a client’s first request, so a burst across a wall-clock minute is still one window', async () => {
    const ip = `203.0.113.${++ipSeq}`;
    const seen = [];
    for (let i = 0; i < 4; i++) {
      seen.push(await outcome(ip));
      now += 400; // the burst crosses 12:01:00
    }
    // Fourth request 1.2 s into the window: 58.8 s of it are left.
    expect(seen).toEqual(['ok', 'ok', 'ok', '429 rate_limited retry 59']);
  });

  it('tell the client when its window ends, and let it in exactly then', async () => {
    const ip = `203.0.113.${++ipSeq}`;
    const start = now;
    for (let i = 0; i < 3; i++) expect(await outcome(ip)).toBe('ok');
    now = start + 20_000;
    const refused = await enforceRateLimit(new Headers({ 'x-forwarded-for': `${ip}, 127.0.0.1` })).catch((e: LanternError) => e);
    expect(refused).toBeInstanceOf(LanternError);
    expect((refused as LanternError).status).toBe(429);
    expect((refused as LanternError).message).toBe('Too many requests: the limit is 3 a minute. Try again in 40 s.');
    now = start + 59_999;
    expect(await outcome(ip)).toBe('429 rate_limited retry 1');
    now = start + 60_000;
    expect(await outcome(ip)).toBe('ok');
  });

  it('count clients apart', async () => {
    const a = `203.0.113.${++ipSeq}`;
    const b = `203.0.113.${++ipSeq}`;
    for (let i = 0; i < 3; i++) expect(await outcome(a)).toBe('ok');
    expect(await outcome(a)).toBe('429 rate_limited retry 60');
    expect(await outcome(b)).toBe('ok');
  });
});

describe('cache lifetimes', () => {
  it('serve a value for its ttl, then ask again', async () => {
    let calls = 0;
    const key = `clock-test-${Math.random()}`;
    const get = () => cached(key, { ttl: 30 }, async () => ++calls);
    expect(await get()).toBe(1);
    now += 29_999;
    expect(await get()).toBe(1);
    now += 1;
    expect(await get()).toBe(2);
    expect(calls).toBe(2);
  });

  it('take a lifetime from the value, and never cache a failure', async () => {
    let calls = 0;
    const key = `clock-test-${Math.random()}`;
    const get = () => cached(key, { ttl: (v: number) => (v === 1 ? 0 : 10) }, async () => ++calls);
    expect(await get()).toBe(1); // ttl 0: not kept
    expect(await get()).toBe(2);
    now += 9_000;
    expect(await get()).toBe(2);
    const failing = `clock-test-${Math.random()}`;
    await expect(cached(failing, { ttl: 60 }, () => Promise.reject(new Error('upstream down')))).rejects.toThrow('upstream down');
    expect(await cached(failing, { ttl: 60 }, async () => 'fine')).toBe('fine');
  });
});
