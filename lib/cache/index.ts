import 'server-only';
import { redis } from './redis';

/**
 * Cached upstream answers with stated lifetimes. In-process by default; shared through Redis when
 * REDIS_URL is set, so every instance answers from one cache. Concurrent identical misses in one
 * process are coalesced into a single upstream call. A value is cached only when `fn` resolves:
 * errors are never cached.
 */

interface Entry {
  value: string;
  expires: number;
}

const MAX_ENTRIES = 5000;
const memory = new Map<string, Entry>();
const inflight = new Map<string, Promise<unknown>>();

export interface CacheOptions<T> {
  /** Seconds; Infinity keeps it for the life of the process (and 30 days in Redis). */
  ttl: number | ((value: T) => number);
}

export async function cached<T>(key: string, opts: CacheOptions<T>, fn: () => Promise<T>): Promise<T> {
  const hit = await read<T>(key);
  if (hit !== undefined) return hit;
  const pending = inflight.get(key) as Promise<T> | undefined;
  if (pending) return pending;
  const p = (async () => {
    const value = await fn();
    const ttl = typeof opts.ttl === 'function' ? opts.ttl(value) : opts.ttl;
    if (ttl > 0) await write(key, value, ttl);
    return value;
  })().finally(() => inflight.delete(key));
  inflight.set(key, p);
  return p;
}

async function read<T>(key: string): Promise<T | undefined> {
  const m = memory.get(key);
  if (m && m.expires > Date.now()) {
    // refresh LRU position
    memory.delete(key);
    memory.set(key, m);
    return JSON.parse(m.value) as T;
  }
  if (m) memory.delete(key);
  const r = await redis();
  if (!r) return undefined;
  try {
    const v = await r.get(`lantern:cache:${key}`);
    return v === null ? undefined : (JSON.parse(v) as T);
  } catch {
    return undefined; // Redis down: behave as a miss
  }
}

async function write(key: string, value: unknown, ttl: number) {
  const text = JSON.stringify(value);
  const expires = Number.isFinite(ttl) ? Date.now() + ttl * 1000 : Number.POSITIVE_INFINITY;
  memory.set(key, { value: text, expires });
  while (memory.size > MAX_ENTRIES) memory.delete(memory.keys().next().value as string);
  const r = await redis();
  if (!r) return;
  try {
    await r.set(`lantern:cache:${key}`, text, 'EX', Number.isFinite(ttl) ? Math.ceil(ttl) : 30 * 24 * 3600);
  } catch {
    // Redis down: the in-process copy still serves this instance
  }
}

/** Tests and benchmarks: how many entries this process holds. */
export const cacheSize = () => memory.size;
