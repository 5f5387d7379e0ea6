import 'server-only';
import type Redis from 'ioredis';
import { config } from '@/lib/config';

// One Redis connection per process, only when REDIS_URL is set. Commands fail fast when Redis is
// down (no offline queue), so callers can fall back instead of hanging.
const g = globalThis as unknown as { __lanternRedis?: Promise<Redis | undefined> };

export function redis(): Promise<Redis | undefined> {
  const url = config().redisUrl;
  if (!url) return Promise.resolve(undefined);
  g.__lanternRedis ??= import('ioredis').then(async ({ default: IORedis }) => {
    const client = new IORedis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 });
    client.on('error', () => undefined); // reported through failed commands and /api/health
    // Without an offline queue, commands sent before the connection is up fail: wait for it once.
    // If Redis is down now, ioredis keeps reconnecting and callers fall back until it is back.
    await client.connect().catch(() => undefined);
    return client;
  });
  return g.__lanternRedis;
}
