import 'server-only';
import { config } from '@/lib/config';
import { clock } from '@/lib/clock';
import { redis } from './redis';

/**
 * Cached upstream answers with stated lifetimes. In process by default; shared through Redis when
 * REDIS_URL is set, so every instance answers from one cache. Concurrent identical misses in one
 * process are coalesced into a single upstream call. A value is cached only when `fn` resolves:
 * errors are never cached.
 * In-process values are kept as they are (no JSON round trip on a hit), so callers must treat them as
 * read-only; the memory they take is bounded by their JSON size.
 */

interface Entry {
  value: unknown;
  size: number;
  expires: number;
}

const MAX_CHARS = 128 * 1024 * 1024;
const memory = new Map<string, Entry>();
const inflight = new Map<string, Promise<unknown>>();
let chars = 0;

export interface CacheOptions<T> {
  /** Seconds; Infinity keeps it for the life of the process (and 30 days in Redis). */
  ttl: number | ((value: T) => number);
}

/** How long an answer made from cached values stays the same (lib/api/answer-cache.ts sends it again meanwhile). */
export interface Keep {
  /** Lantern's clock, ms: the end of the cache entry the answer was made from (Infinity: a committed block). */
  until: number;
  /** Whether the route would still reach that entry now, judged without waiting on anything. */
  fresh: () => boolean;
}

/** An answer's JSON text and how long it stays the same. */
export interface KeptText {
  text: string;
  keep: Keep;
}

export async function cached<T>(key: string, opts: CacheOptions<T>, fn: () => Promise<T>): Promise<T> {
  return (await cachedFor(key, opts, fn)).value;
}

/**
 * `cached`, also saying until when (Lantern's clock, ms) the value is kept: 0 when it is not kept (a
 * lifetime of 0, or caching off). Until then this instance hands back the same value for `key`, unless
 * memory pressure drops it first (lib/api/answer-cache.ts keeps whole answers no longer than that).
 */
export async function cachedFor<T>(key: string, opts: CacheOptions<T>, fn: () => Promise<T>): Promise<{ value: T; expires: number }> {
  if (!config().upstreamCache) return { value: await fn(), expires: 0 };
  const m = memoryGet<T>(key);
  if (m !== undefined) return m;
  const hit = await redisGet<T>(key);
  if (hit !== undefined) return hit;
  const pending = inflight.get(key) as Promise<{ value: T; expires: number }> | undefined;
  if (pending) return pending;
  const p = (async () => {
    const value = await fn();
    const ttl = typeof opts.ttl === 'function' ? opts.ttl(value) : opts.ttl;
    return { value, expires: ttl > 0 ? await write(key, value, ttl) : 0 };
  })().finally(() => inflight.delete(key));
  inflight.set(key, p);
  return p;
}

function memoryGet<T>(key: string): { value: T; expires: number } | undefined {
  const m = memory.get(key);
  if (!m) return undefined;
  if (m.expires <= clock.now()) {
    drop(key, m);
    return undefined;
  }
  memory.delete(key); // refresh its place: the map's order is least recently used first
  memory.set(key, m);
  return { value: m.value as T, expires: m.expires };
}

/**
 * In Redis a value is stored as `<expiry ms>|<JSON text>`: its lifetime is judged by Lantern's clock
 * (lib/clock.ts), like the in-process copy's, so every instance agrees with its own clock and a test
 * server whose clock runs ahead sees the value expired. Redis's own expiry (EX) only frees the memory,
 * a little after the value's end.
 */
async function redisGet<T>(key: string): Promise<{ value: T; expires: number } | undefined> {
  const r = await redis();
  if (!r) return undefined;
  try {
    const stored = await r.get(`lantern:cache:${key}`);
    if (stored === null) return undefined;
    const bar = stored.indexOf('|');
    const expires = bar > 0 ? Number(stored.slice(0, bar)) : Number.NaN;
    if (Number.isNaN(expires) || expires <= clock.now()) return undefined; // expired, or not in this format: a miss
    const text = stored.slice(bar + 1);
    const value = JSON.parse(text) as T;
    remember(key, value, text.length, expires);
    return { value, expires };
  } catch {
    return undefined; // Redis down: behave as a miss
  }
}

const REDIS_SLACK_S = 60; // Redis keeps a value this much past its end, so clocks a little apart still agree
const FOREVER_S = 30 * 24 * 3600;

async function write(key: string, value: unknown, ttl: number): Promise<number> {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const expires = Number.isFinite(ttl) ? clock.now() + ttl * 1000 : Number.POSITIVE_INFINITY;
  remember(key, value, text.length, expires);
  const r = await redis();
  if (!r) return expires;
  try {
    const json = typeof value === 'string' ? JSON.stringify(value) : text;
    const stored = `${Number.isFinite(expires) ? expires : 'Infinity'}|${json}`;
    await r.set(`lantern:cache:${key}`, stored, 'EX', Number.isFinite(ttl) ? Math.ceil(ttl) + REDIS_SLACK_S : FOREVER_S);
  } catch {
    // Redis down: the in-process copy still serves this instance
  }
  return expires;
}

function remember(key: string, value: unknown, size: number, expires: number) {
  const old = memory.get(key);
  if (old) drop(key, old);
  memory.set(key, { value, size, expires });
  chars += size;
  for (const [k, e] of memory) {
    if (chars <= MAX_CHARS || k === key) break;
    drop(k, e);
  }
}

function drop(key: string, e: Entry) {
  memory.delete(key);
  chars -= e.size;
}
