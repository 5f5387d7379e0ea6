import 'server-only';
import { config } from '@/lib/config';
import { LanternError } from '@/lib/errors';
import { redis } from '@/lib/cache/redis';
import { clock } from '@/lib/clock';

/**
 * One-minute windows per client IP and per API key, each opened by its bucket's first request (not
 * aligned to the wall clock's minutes, so a burst is never split by a minute boundary), counted in
 * Redis when REDIS_URL is set (so instances count together) and in process otherwise.
 * RATE_LIMIT_PER_MINUTE=0 turns it off.
 */

const WINDOW_MS = 60_000;
// On globalThis: every route bundle (and lib/api/answer-cache.ts's front) counts in one window per bucket.
const g = globalThis as unknown as { __lanternRateLimits?: Map<string, { count: number; resetAt: number }> };
const local = (g.__lanternRateLimits ??= new Map());

export async function enforceRateLimit(headers: Headers, scope: 'api' | 'action' | 'nft-resync' | 'nft-media' = 'api', perMinute?: number): Promise<void> {
  const limit = config().rateLimitPerMinute === 0 ? 0 : (perMinute ?? config().rateLimitPerMinute);
  if (limit === 0) return;
  const buckets = [`${scope}:ip:${clientIp(headers)}`];
  const key = headers.get('x-api-key');
  if (key) buckets.push(`${scope}:key:${await digest(key)}`);
  for (const bucket of buckets) {
    const { count, resetAt } = await hit(bucket);
    if (count > limit) {
      const retryAfter = Math.max(1, Math.ceil((resetAt - clock.now()) / 1000));
      throw new LanternError(429, 'rate_limited', `Too many requests: the limit is ${limit} a minute. Try again in ${retryAfter} s.`, { retryAfter });
    }
  }
}

async function hit(bucket: string): Promise<{ count: number; resetAt: number }> {
  const now = clock.now();
  const r = await redis();
  if (r) {
    try {
      const k = `lantern:rl:${bucket}`;
      // The first request opens the window (SET NX with its lifetime); later ones only count.
      const replies = (await r.multi().set(k, 0, 'PX', WINDOW_MS, 'NX').incr(k).pttl(k).exec()) as [unknown, number][];
      const count = replies[1][1];
      const ttl = replies[2][1];
      return { count, resetAt: now + (ttl > 0 ? ttl : WINDOW_MS) };
    } catch {
      // Redis down: count locally rather than refuse everyone or let everyone through unbounded
    }
  }
  const e = local.get(bucket);
  if (!e || e.resetAt <= now) {
    const fresh = { count: 1, resetAt: now + WINDOW_MS };
    local.set(bucket, fresh);
    if (local.size > 50_000) for (const [k, v] of local) if (v.resetAt <= now) local.delete(k);
    return { ...fresh };
  }
  e.count++;
  return { ...e };
}

/**
 * The client's address. scripts/server.mjs always appends the socket peer to X-Forwarded-For, so the
 * last entry is whoever connected; with N trusted proxies in front, the N+1-th entry from the right
 * is the client. Anything further left is the client's own claim and is ignored.
 */
export function clientIp(headers: Headers): string {
  const hops = config().trustedProxyHops;
  const chain = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (chain.length === 0) return 'unknown';
  return chain[Math.max(0, chain.length - 1 - hops)];
}

async function digest(s: string): Promise<string> {
  const d = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(s));
  return Buffer.from(d).toString('base64url').slice(0, 22);
}
