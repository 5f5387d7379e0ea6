import 'server-only';
import type Redis from 'ioredis';
import { config } from '@/lib/config';
import { log } from '@/lib/log';
import type { LiveEvent } from '@/lib/view/live';
import type { CheckedHead } from '@/lib/operations/live';

/**
 * How the instance following a chain tells every instance (itself included) what happened: a new head,
 * and each watched wallet's changes at it. One small interface, three carriers: Redis pub/sub when
 * REDIS_URL is set, PostgreSQL LISTEN/NOTIFY when DATABASE_URL is a server, in process for the embedded
 * PGlite (one process). Messages are at most once: an instance that misses one (a dropped connection)
 * catches up at the next, since each wallet message says which position it continues from.
 */

export type BusMessage =
  | { t: 'head'; head: CheckedHead }
  /**
   * A wallet's changes up to `position`, for streams at `after` (null: none can use them as they are).
   * `events` null: too big for the carrier; each instance reads them itself.
   */
  | { t: 'wallet'; chainId: number; address: string; after: string | null; position: string; events: LiveEvent[] | null };

export interface Bus {
  kind: 'redis' | 'postgres' | 'local';
  publish(msg: BusMessage): Promise<void>;
  /** Every message published from now on, in order; returns the unsubscribe. */
  subscribe(fn: (msg: BusMessage) => void): () => void;
  close(): Promise<void>;
}

/** PostgreSQL's NOTIFY payload limit is 8000 bytes: larger wallet messages travel without their events. */
const NOTIFY_MAX = 7900;

export function createBus(): Bus {
  const c = config();
  if (c.redisUrl) return redisBus(c.redisUrl);
  if (c.databaseUrl) return postgresBus(c.databaseUrl);
  return localBus();
}

function fanOut() {
  const fns = new Set<(msg: BusMessage) => void>();
  return {
    fns,
    deliver(msg: BusMessage) {
      for (const fn of fns) {
        try {
          fn(msg);
        } catch (e) {
          log().error({ err: e }, 'live bus subscriber failed');
        }
      }
    },
    subscribe(fn: (msg: BusMessage) => void) {
      fns.add(fn);
      return () => void fns.delete(fn);
    },
  };
}

function parse(text: string): BusMessage | null {
  try {
    return JSON.parse(text) as BusMessage;
  } catch {
    return null;
  }
}

function localBus(): Bus {
  const out = fanOut();
  return {
    kind: 'local',
    async publish(msg) {
      // As the other carriers do: after the publisher's own turn, never inside it.
      queueMicrotask(() => out.deliver(msg));
    },
    subscribe: out.subscribe,
    async close() {
      out.fns.clear();
    },
  };
}

/**
 * Pub/sub channels are not per logical database: the channel carries the database number, so two
 * deployments (or test runs) on one Redis server sharing nothing else do not hear each other.
 */
export function redisChannel(url: string): string {
  const db = /^\/(\d+)/.exec(new URL(url).pathname)?.[1] ?? '0';
  return `lantern:live:${db}`;
}

function redisBus(url: string): Bus {
  const out = fanOut();
  const channel = redisChannel(url);
  let pub: Promise<Redis> | undefined;
  let sub: Promise<Redis> | undefined;
  const connect = async () => {
    const { default: IORedis } = await import('ioredis');
    const client = new IORedis(url, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 2000 });
    client.on('error', () => undefined); // reconnects by itself; messages meanwhile are missed (see above)
    await client.connect().catch(() => undefined);
    return client;
  };
  const subscriber = () =>
    (sub ??= connect().then((client) => {
      client.on('message', (ch: string, text: string) => {
        if (ch !== channel) return;
        const msg = parse(text);
        if (msg) out.deliver(msg);
      });
      // ioredis subscribes again by itself after a reconnect.
      void client.subscribe(channel).catch((e: Error) => log().warn({ err: e.message }, 'live bus: Redis subscribe failed'));
      return client;
    }));
  return {
    kind: 'redis',
    async publish(msg) {
      pub ??= connect();
      try {
        await (await pub).publish(channel, JSON.stringify(msg));
      } catch (e) {
        log().warn({ err: (e as Error).message }, 'live bus: Redis publish failed');
      }
    },
    subscribe(fn) {
      void subscriber();
      return out.subscribe(fn);
    },
    async close() {
      out.fns.clear();
      for (const p of [pub, sub]) if (p) await (await p).quit().catch(() => undefined);
      pub = sub = undefined;
    },
  };
}

function postgresBus(url: string): Bus {
  const out = fanOut();
  const CHANNEL = 'lantern_live';
  let listener: import('pg').Client | undefined;
  let starting = false;
  let closed = false;
  // One connection that LISTENs, made again a second after it ends (notifications meanwhile are missed).
  const listen = async (): Promise<void> => {
    if (listener || starting || closed) return;
    starting = true;
    const { Client } = await import('pg');
    const client = new Client({ connectionString: url });
    client.on('notification', (n) => {
      if (n.channel !== CHANNEL || !n.payload) return;
      const msg = parse(n.payload);
      if (msg) out.deliver(msg);
    });
    client.on('error', () => undefined);
    let ended = false;
    const again = () => {
      if (ended) return;
      ended = true;
      if (listener === client) listener = undefined;
      if (!closed) setTimeout(() => void listen(), 1000).unref();
    };
    client.on('end', again);
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      listener = client;
    } catch (e) {
      log().warn({ err: (e as Error).message }, 'live bus: PostgreSQL LISTEN failed; trying again');
      await client.end().catch(() => undefined);
      again();
    } finally {
      starting = false;
    }
  };
  return {
    kind: 'postgres',
    async publish(msg) {
      let text = JSON.stringify(msg);
      if (Buffer.byteLength(text) > NOTIFY_MAX && msg.t === 'wallet') text = JSON.stringify({ ...msg, events: null });
      try {
        const { db } = await import('@/lib/db');
        await (await db()).query('SELECT pg_notify($1, $2)', [CHANNEL, text]);
      } catch (e) {
        log().warn({ err: (e as Error).message }, 'live bus: NOTIFY failed');
      }
    },
    subscribe(fn) {
      void listen();
      return out.subscribe(fn);
    },
    async close() {
      closed = true;
      out.fns.clear();
      await listener?.end().catch(() => undefined);
      listener = undefined;
    },
  };
}
