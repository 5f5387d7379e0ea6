import 'server-only';
import type { Chain } from '@/lib/chains';
import { config } from '@/lib/config';
import { LanternError } from '@/lib/errors';
import { log } from '@/lib/log';
import { headNow, heardHead, liveFollows, liveHello, walletChangesSince, type CheckedHead } from '@/lib/operations/live';
import type { LiveEvent } from '@/lib/view/live';
import { createBus, type Bus, type BusMessage } from './bus';
import { ChainFollower, HostedPoller, type FollowerState } from './follower';
import { COMPLETE, formatId, parseId, sseFrame, type Position } from '@/lib/view/live-protocol';
import { unwatch, unwatchAll, watch, watchedChains } from './registry';

/**
 * One per instance: the live streams it holds, and its part in following chains. Each second it asks
 * the database which chains anyone watches and lets each chain's follower take or keep the chain's lease
 * (follower.ts), so exactly one instance follows a chain and another takes over within LIVE_LEASE_MS
 * when it dies. Whatever the follower publishes (bus.ts) reaches every instance's hub, which passes it
 * on to the streams of that wallet: as published when the stream is where the message continues from,
 * else read for the stream from its own position (protocol.ts), one read per position however many
 * streams share it. Each stream's writes are queued, so its events go out in order.
 */

interface Stream {
  chain: Chain;
  /** Checksummed; '' for a stream of heads alone. */
  address: string;
  key: string;
  ip: string;
  /** The id of the last event sent (what a reconnect would send as Last-Event-ID). */
  position: string | null;
  controller: ReadableStreamDefaultController<Uint8Array>;
  queue: Promise<void>;
  closed: boolean;
}

const enc = new TextEncoder();
/** How long a watch row lasts unless renewed, and how often an instance renews its own. */
const WATCH_MS = 45_000;
const WATCH_RENEW_MS = 15_000;
const SUPERVISE_MS = 1_000;
/** A reader this far behind is dropped (it reconnects and resumes): a stream's memory stays bounded. */
const MAX_BUFFERED = 256 * 1024;
/** What EventSource waits before reconnecting. */
const RETRY_MS = 2_000;

export const LIVE_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  // no-transform: no compression on the way (it would hold events back until a buffer fills); a proxy
  // in front that reads X-Accel-Buffering (nginx) passes each event on as it comes.
  'Cache-Control': 'no-store, no-transform',
  'X-Accel-Buffering': 'no',
} as const;

export interface LiveStatus {
  bus: Bus['kind'];
  streams: number;
  following: FollowerState[];
  polling: boolean;
}

export class LiveHub {
  private streams = new Map<string, Set<Stream>>();
  private perIp = new Map<string, number>();
  private total = 0;
  private readonly bus = createBus();
  private followers = new Map<number, ChainFollower>();
  private poller: HostedPoller | null = null;
  private timers: ReturnType<typeof setInterval>[] = [];
  private supervising = false;
  /** The database could not say which chains are watched: said once until it can again. */
  private blind = false;
  private stopped = false;
  private readonly unsubscribe: () => void;

  constructor() {
    this.unsubscribe = this.bus.subscribe((m) => this.onMessage(m));
    const every = (ms: number, fn: () => unknown) => {
      const t = setInterval(fn, ms);
      t.unref?.();
      this.timers.push(t);
    };
    every(SUPERVISE_MS, () => void this.supervise());
    every(config().liveHeartbeatS * 1000, () => this.heartbeat());
    every(WATCH_RENEW_MS, () => void this.renewWatches());
  }

  status(): LiveStatus {
    return {
      bus: this.bus.kind,
      streams: this.total,
      following: [...this.followers.values()].map((f) => f.state()).filter((s) => s.following),
      polling: this.poller !== null && this.poller.isHolding(),
    };
  }

  /** Opens a stream of a wallet's changes from `since` (null: from now). Throws a LanternError when refused. */
  async openWallet(chain: Chain, address: string, since: Position | null, ip: string, signal: AbortSignal): Promise<Response> {
    const s = this.register(chain, address, ip, signal);
    s.position = since ? formatId(since) : null;
    await this.watchNow(s);
    this.enqueue(s, async () => {
      const r = await walletChangesSince(chain, address, since);
      this.send(s, r.events, r.position);
    });
    return this.response(s);
  }

  /** Opens a stream of a chain's heads (a pending transaction's page waits for its block). */
  async openHeads(chain: Chain, ip: string, signal: AbortSignal): Promise<Response> {
    const s = this.register(chain, '', ip, signal);
    await this.watchNow(s);
    this.enqueue(s, async () => {
      const r = await headNow(chain);
      if (r) this.send(s, r.events, r.position);
    });
    return this.response(s);
  }

  private register(chain: Chain, address: string, ip: string, signal: AbortSignal): Stream {
    if (this.stopped) throw new LanternError(503, 'upstream_unavailable', 'This Lantern instance is shutting down; reconnect in a moment.', { retryAfter: 2 });
    const c = config();
    const mine = this.perIp.get(ip) ?? 0;
    if (mine >= c.liveStreamsPerIp) {
      throw new LanternError(429, 'too_many_streams', `Too many live streams from your address: at most ${c.liveStreamsPerIp} at once. Close a tab and try again.`, { retryAfter: 10 });
    }
    if (this.total >= c.liveMaxStreams) {
      throw new LanternError(503, 'too_many_streams', `This Lantern instance holds as many live streams as it may (${c.liveMaxStreams}); try again shortly.`, { retryAfter: 10 });
    }
    const key = `${chain.id}:${address}`;
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>(
      {
        start: (c) => void (controller = c),
        cancel: () => this.drop(s),
      },
      { highWaterMark: MAX_BUFFERED, size: (chunk) => chunk.byteLength },
    );
    const s: Stream & { body: ReadableStream<Uint8Array> } = { chain, address, key, ip, position: null, controller, queue: Promise.resolve(), closed: false, body };
    let set = this.streams.get(key);
    if (!set) this.streams.set(key, (set = new Set()));
    set.add(s);
    this.perIp.set(ip, mine + 1);
    this.total++;
    signal.addEventListener('abort', () => this.drop(s), { once: true });
    this.write(s, `retry: ${RETRY_MS}\n\n${sseFrame('hello', liveHello(chain))}`);
    return s;
  }

  private response(s: Stream): Response {
    return new Response((s as Stream & { body: ReadableStream<Uint8Array> }).body, { headers: LIVE_HEADERS });
  }

  /** The first stream of a wallet here makes it watched before the follower's next head (so none is missed). */
  private async watchNow(s: Stream) {
    if ((this.streams.get(s.key)?.size ?? 0) > 1) return;
    try {
      await watch([{ chainId: s.chain.id, address: s.address }], WATCH_MS);
    } catch (e) {
      this.drop(s);
      throw e;
    }
  }

  private async renewWatches() {
    const pairs = [...this.streams.values()].map((set) => set.values().next().value).filter((s): s is Stream => !!s).map((s) => ({ chainId: s.chain.id, address: s.address }));
    await watch(pairs, WATCH_MS).catch((e) => log().warn({ err: (e as Error).message }, 'live: watched wallets could not be renewed'));
  }

  private async supervise() {
    if (this.supervising || this.stopped) return;
    this.supervising = true;
    try {
      const counts = await watchedChains();
      if (this.blind) log().info('live: the database answers again; following resumes');
      this.blind = false;
      // A chain a node serves is followed head by head; one the hosted API answers is polled.
      let polled = 0;
      for (const [id, n] of counts) {
        if (!liveFollows(id)) polled += n;
        else if (!this.followers.has(id)) this.followers.set(id, new ChainFollower(id, this.bus));
      }
      for (const [id, f] of this.followers) await f.tick(counts.has(id) ? Math.max(1, counts.get(id)!) : 0);
      if (polled > 0 || this.poller) {
        this.poller ??= new HostedPoller(this.bus, (id) => !liveFollows(id));
        await this.poller.tick(polled);
      }
    } catch (e) {
      if (!this.blind) log().warn({ err: (e as Error).message }, 'live: could not read which chains are watched; nothing is followed until the database answers');
      this.blind = true;
    } finally {
      this.supervising = false;
    }
  }

  private heartbeat() {
    for (const set of this.streams.values()) for (const s of set) this.write(s, ': \n\n');
  }

  private onMessage(msg: BusMessage) {
    if (this.stopped) return;
    if (msg.t === 'head') this.onHead(msg.head);
    else this.onWallet(msg);
  }

  private onHead(head: CheckedHead) {
    void heardHead(head).catch(() => undefined);
    const set = this.streams.get(`${head.chainId}:`);
    if (!set) return;
    const id = formatId({ epoch: head.epoch, block: head.number, index: COMPLETE });
    const e: LiveEvent = { event: 'head', id, data: { chain: `0x${head.chainId.toString(16)}`, number: head.number, hash: head.hash, epoch: head.epoch } };
    for (const s of set) this.enqueue(s, async () => this.send(s, [e], parseId(id)!));
  }

  private onWallet(msg: Extract<BusMessage, { t: 'wallet' }>) {
    const set = this.streams.get(`${msg.chainId}:${msg.address}`);
    if (!set) return;
    // Streams elsewhere than the message continues from share one read per position.
    const reads = new Map<string, ReturnType<typeof walletChangesSince>>();
    for (const s of set) {
      this.enqueue(s, async () => {
        if (s.position === msg.position) return;
        if (msg.events && s.position === msg.after) {
          this.send(s, msg.events, parseId(msg.position)!);
          return;
        }
        const from = s.position ?? '';
        let read = reads.get(from);
        if (!read) reads.set(from, (read = walletChangesSince(s.chain, s.address, s.position ? parseId(s.position) : null)));
        const r = await read;
        this.send(s, r.events, r.position);
      });
    }
  }

  private enqueue(s: Stream, task: () => Promise<void>) {
    s.queue = s.queue.then(async () => {
      if (s.closed) return;
      try {
        await task();
      } catch (e) {
        // The stream stays: the next message, or a reconnect, tries again from where it is.
        log().warn({ chainId: s.chain.id, code: (e as { code?: string }).code, err: (e as Error).message }, 'live: a stream could not be brought up to date');
      }
    });
  }

  private send(s: Stream, events: LiveEvent[], position: Position) {
    if (events.length > 0) this.write(s, events.map((e) => sseFrame(e.event, e.data, e.id)).join(''));
    s.position = formatId(position);
  }

  private write(s: Stream, text: string) {
    if (s.closed) return;
    try {
      s.controller.enqueue(enc.encode(text));
      if ((s.controller.desiredSize ?? 0) < 0) this.drop(s); // more than MAX_BUFFERED waiting: a reader this slow reconnects
    } catch {
      this.drop(s);
    }
  }

  private drop(s: Stream) {
    if (s.closed) return;
    s.closed = true;
    const set = this.streams.get(s.key);
    set?.delete(s);
    if (set && set.size === 0) {
      this.streams.delete(s.key);
      if (!this.stopped) void unwatch(s.chain.id, s.address).catch(() => undefined);
    }
    const n = (this.perIp.get(s.ip) ?? 1) - 1;
    if (n > 0) this.perIp.set(s.ip, n);
    else this.perIp.delete(s.ip);
    this.total--;
    try {
      s.controller.close();
    } catch {
      // already closed or cancelled
    }
  }

  /** Ends every stream (their browsers reconnect, elsewhere or after the restart), stops following, forgets its watches. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    this.unsubscribe();
    for (const set of [...this.streams.values()]) for (const s of [...set]) this.drop(s);
    await Promise.allSettled([...this.followers.values()].map((f) => f.stop()));
    await this.poller?.stop();
    await unwatchAll().catch(() => undefined);
    await this.bus.close();
  }
}
