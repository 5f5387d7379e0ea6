import 'server-only';
import { chainOrCustom, type Chain } from '@/lib/chains';
import { config } from '@/lib/config';
import { log } from '@/lib/log';
import { followChain, liveChain, walletChangesSince, type CheckedHead } from '@/lib/operations/live';
import type { Bus } from './bus';
import { COMPLETE, formatId, parseId } from '@/lib/view/live-protocol';
import { holdLease, releaseLease, watchedChains, watchedWallets } from './registry';

/**
 * The one instance that follows a chain: it holds the chain's lease (registry.ts) while someone, on any
 * instance, watches the chain, follows its heads (one subscription or polling loop: evm-node/heads.ts),
 * and at each head publishes it, then reads each watched wallet's changes through the history operation
 * (their newest window; other wallets are read when next asked) and publishes them. Every instance's
 * hub (hub.ts) passes them on to its streams.
 *
 * In hosted mode (no heads to follow) the holder of lease 0 polls watched wallets' first pages instead,
 * each at most every LIVE_HOSTED_POLL_S and at most LIVE_HOSTED_PER_MINUTE pages a minute in all.
 */

/** Wallets read at once per head. */
const CONCURRENCY = 8;
/** Nobody watching for this long: stop following, release the lease. */
const IDLE_MS = 30_000;

async function eachLimited<T>(items: T[], n: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

export interface FollowerState {
  chain_id: number;
  following: boolean;
  transport: 'websocket' | 'polling' | null;
  last_head: number | null;
}

abstract class LeasedJob {
  protected holding = false;
  private renewedAt = 0;
  private idleSince: number | null = null;
  private abort: AbortController | null = null;
  private running: Promise<void> | null = null;

  constructor(
    readonly key: number,
    protected bus: Bus,
  ) {}

  isHolding(): boolean {
    return this.holding;
  }

  /** Called about every second by the hub with how many wallets (or heads-only streams) are watched. */
  async tick(watchers: number): Promise<void> {
    const now = Date.now();
    if (watchers > 0) this.idleSince = null;
    else this.idleSince ??= now;
    if (this.idleSince !== null && now - this.idleSince > IDLE_MS) {
      if (this.holding) await this.stop();
      return;
    }
    const ms = config().liveLeaseMs;
    let held = false;
    try {
      held = await holdLease(this.key, ms);
      if (held) this.renewedAt = now;
    } catch (e) {
      log().warn({ key: this.key, err: (e as Error).message }, 'live: lease could not be renewed');
      // Not renewed within its lifetime: another instance may hold it now.
      held = this.holding && now - this.renewedAt < ms;
    }
    if (held && !this.holding) this.begin();
    else if (!held && this.holding) await this.stop(false);
  }

  private begin() {
    this.holding = true;
    const abort = new AbortController();
    this.abort = abort;
    this.running = this.run(abort.signal)
      .catch((e) => log().warn({ key: this.key, err: (e as Error).message }, 'live: follower stopped; it starts again at the next tick'))
      .finally(() => {
        if (this.abort === abort) {
          this.holding = false;
          this.abort = null;
        }
      });
  }

  /** Stops following (and releases the lease when it still holds it). */
  async stop(release = true): Promise<void> {
    const wasHolding = this.holding;
    this.holding = false;
    this.abort?.abort();
    this.abort = null;
    await this.running;
    this.running = null;
    if (release && wasHolding) await releaseLease(this.key).catch(() => undefined);
  }

  protected abstract run(signal: AbortSignal): Promise<void>;
}

/** Node mode: one chain's heads. */
export class ChainFollower extends LeasedJob {
  private transport: 'websocket' | 'polling' | null = null;
  private lastHead: CheckedHead | null = null;
  /** Where each watched wallet's last published changes left it. */
  private positions = new Map<string, string>();

  state(): FollowerState {
    return { chain_id: this.key, following: this.holding, transport: this.holding ? this.transport : null, last_head: this.lastHead?.number ?? null };
  }

  protected async run(signal: AbortSignal): Promise<void> {
    const chain = chainOrCustom(this.key);
    this.positions.clear();
    this.lastHead = null;
    log().info({ chainId: this.key }, 'live: following this chain’s heads');
    await followChain(this.key, (head) => this.onHead(chain, head), signal, (t) => (this.transport = t));
  }

  private async onHead(chain: Chain, head: CheckedHead): Promise<void> {
    const before = this.lastHead && this.lastHead.epoch === head.epoch ? formatId({ epoch: head.epoch, block: this.lastHead.number, index: COMPLETE }) : null;
    this.lastHead = head;
    await this.bus.publish({ t: 'head', head });
    const wallets = await watchedWallets(chain.id);
    const watched = new Set(wallets);
    for (const w of this.positions.keys()) if (!watched.has(w)) this.positions.delete(w);
    await eachLimited(wallets, CONCURRENCY, async (address) => {
      const after = this.positions.get(address) ?? before;
      try {
        const { events, position } = await walletChangesSince(chain, address, after ? parseId(after) : null);
        const id = formatId(position);
        this.positions.set(address, id);
        await this.bus.publish({ t: 'wallet', chainId: chain.id, address, after, position: id, events });
      } catch (e) {
        log().warn({ chainId: chain.id, address, code: (e as { code?: string }).code, err: (e as Error).message }, 'live: a watched wallet could not be read at this head');
      }
    });
  }
}

/** Hosted mode: watched wallets' first pages, polled. */
export class HostedPoller extends LeasedJob {
  private positions = new Map<string, string>();
  private turn = 0;

  /** `polls`: the chains whose wallets are polled here (those the hosted API answers for). */
  constructor(
    bus: Bus,
    private readonly polls: (chainId: number) => boolean,
  ) {
    super(0, bus);
  }

  protected async run(signal: AbortSignal): Promise<void> {
    const c = config();
    const perRound = Math.max(1, Math.floor((c.liveHostedPerMinute * c.liveHostedPollS) / 60));
    while (!signal.aborted) {
      const started = Date.now();
      await this.round(perRound).catch((e) => log().warn({ err: (e as Error).message }, 'live: hosted poll round failed'));
      const wait = Math.max(0, c.liveHostedPollS * 1000 - (Date.now() - started));
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, wait);
        signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
      });
    }
  }

  /** One round: the next `n` watched wallets in turn (all of them when the budget allows). */
  private async round(n: number): Promise<void> {
    const chains = [...(await watchedChains()).entries()].filter(([id, wallets]) => wallets > 0 && this.polls(id)).map(([id]) => id);
    const all: { chainId: number; address: string }[] = [];
    for (const chainId of chains) for (const address of await watchedWallets(chainId)) all.push({ chainId, address });
    const keys = new Set(all.map((w) => `${w.chainId}:${w.address}`));
    for (const k of this.positions.keys()) if (!keys.has(k)) this.positions.delete(k);
    if (all.length === 0) return;
    const start = this.turn % all.length;
    const pick = all.length <= n ? all : [...all.slice(start), ...all.slice(0, start)].slice(0, n);
    this.turn = start + pick.length;
    await eachLimited(pick, CONCURRENCY, async ({ chainId, address }) => {
      const key = `${chainId}:${address}`;
      const after = this.positions.get(key) ?? null;
      try {
        const chain = await liveChain(chainOrCustom(chainId).name);
        const { events, position } = await walletChangesSince(chain, address, after ? parseId(after) : null);
        const id = formatId(position);
        this.positions.set(key, id);
        await this.bus.publish({ t: 'wallet', chainId, address, after, position: id, events });
      } catch (e) {
        log().warn({ chainId, address, code: (e as { code?: string }).code, err: (e as Error).message }, 'live: a watched wallet could not be polled');
      }
    });
  }
}
