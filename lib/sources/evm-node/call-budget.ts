import 'server-only';
/**
 * Per chain, the node's calls shared between pages and background work (a wallet's older history, an NFT
 * resync). A background read of a 10,000-transaction wallet can make thousands of calls in the second
 * another person opens a small wallet on the same node; a node answers calls roughly in turn, so that
 * person's page waits behind them. Two rules keep the fill out of the way:
 *
 * - **Pages first.** A background call waits while any page call is in flight (or a page's whole read of
 *   the chain: the rounds of a history page and the work between them), and for a short quiet
 *   time after the last one ends (a page makes its calls in a few rounds; the gaps between them are not
 *   the background's). It never waits longer than `maxYieldMs` at a time, and then the calls queued
 *   behind it go too for a moment, so steady traffic slows a fill but cannot stop it.
 * - **A budget of calls per second.** Background calls spend tokens refilled at `perSecond` (a batch of
 *   calls spends one token per call), released in slices of about 50 ms so they still travel batched.
 *
 * Pure and clock-injected (tests drive it without a node); rpc.ts holds one per chain.
 */
export interface CallBudgetOptions {
  /** Background calls per second; 0 means no limit (pages still come first). */
  perSecond: number;
  /** After the last page call ends, background calls wait this long for the page's next round. */
  quietMs?: number;
  /**
   * The longest one background call waits for pages to pause. Default 3 s: a first visit's round of
   * reads on a busy node takes longer than 1 s (a never-seen wallet's transfer logs over the whole chain,
   * 2.3 s on a loaded 2-core machine), and the calls let through at 1 s ran beside it and slowed it; a call
   * let through at 250 ms did too.
   */
  maxYieldMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** How long the background's turn lasts once it has waited out maxYieldMs behind busy pages. */
const PASS_MS = 50;

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class CallBudget {
  private readonly perSecond: number;
  private readonly quietMs: number;
  private readonly maxYieldMs: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private tokens: number;
  private refilledAt: number;
  private pageCalls = 0;
  private writesWaiting = 0;
  private lastPageEnd = -Infinity;
  /** After one background call has waited out maxYieldMs, the calls queued behind it go too until then. */
  private passUntil = -Infinity;
  /** Woken when the last page call in flight ends. */
  private idle: (() => void)[] = [];
  /** Background turns are taken in order: the first to wait is the first to go. */
  private turn: Promise<void> = Promise.resolve();
  /** Calls the background has waited for, and how long in total (health and bench read them). */
  readonly stats = { backgroundCalls: 0, waitedCalls: 0, waitedMs: 0 };

  constructor(o: CallBudgetOptions) {
    this.perSecond = o.perSecond;
    this.quietMs = o.quietMs ?? 25;
    this.maxYieldMs = o.maxYieldMs ?? 3000;
    this.now = o.now ?? (() => performance.now());
    this.sleep = o.sleep ?? realSleep;
    this.tokens = this.burst();
    this.refilledAt = this.now();
  }

  /** Most tokens held at once: a quarter second's worth, at least one. */
  private burst(): number {
    return Math.max(1, this.perSecond / 4);
  }

  /**
   * A page's call, or a page's whole read of the chain (activity.ts's readingPage: its node calls and the
   * work between them), counted as in flight until `fn` settles: background calls wait for it to end.
   */
  async page<T>(fn: () => Promise<T>): Promise<T> {
    this.pageCalls++;
    try {
      return await fn();
    } finally {
      if (--this.pageCalls === 0) {
        this.lastPageEnd = this.now();
        for (const wake of this.idle.splice(0)) wake();
      }
    }
  }

  /** Resolves when one background call may go. */
  background(): Promise<void> {
    const mine = this.turn.then(() => this.take());
    this.turn = mine.catch(() => undefined);
    return mine;
  }

  /** Whether a page call or a page's read is in flight now. */
  get pagesInFlight(): boolean {
    return this.pageCalls > 0;
  }

  /**
   * Resolves when pages pause, as a background call waits for them (within maxYieldMs), without spending
   * a call: background work that is not a node call waits with it, such as a fill's write to the embedded
   * database, which runs one transaction at a time on the server's thread (a page's queries would wait
   * behind it).
   */
  async pagesPaused(): Promise<void> {
    this.writesWaiting++;
    try {
      await this.yieldToPages(this.now());
    } finally {
      this.writesWaiting--;
    }
  }

  /** Background writes waiting for pages to pause now (pagesPaused). */
  get waitingWrites(): number {
    return this.writesWaiting;
  }

  private async take(): Promise<void> {
    const start = this.now();
    this.stats.backgroundCalls++;
    await this.yieldToPages(start);
    if (this.perSecond > 0) {
      this.refill();
      if (this.tokens < 1) {
        // Wait for a slice of tokens, not one: the calls released together still share one batch.
        const slice = Math.min(this.burst(), Math.max(1, this.perSecond / 20));
        await this.sleep(((slice - this.tokens) / this.perSecond) * 1000);
        this.refill();
      }
      this.tokens -= 1;
    }
    const waited = this.now() - start;
    if (waited >= 1) {
      this.stats.waitedCalls++;
      this.stats.waitedMs += waited;
    }
  }

  /** Pages first: waits for them to pause, within the yield limit counted from `start`. */
  private async yieldToPages(start: number): Promise<void> {
    for (;;) {
      const waited = this.now() - start;
      if (this.now() < this.passUntil) break;
      if (waited >= this.maxYieldMs) {
        this.passUntil = this.now() + PASS_MS;
        break;
      }
      if (this.pageCalls > 0) {
        await Promise.race([new Promise<void>((r) => this.idle.push(r)), this.sleep(this.maxYieldMs - waited)]);
        continue;
      }
      const quietLeft = this.lastPageEnd + this.quietMs - this.now();
      if (quietLeft <= 0) break;
      await this.sleep(Math.min(quietLeft, this.maxYieldMs - waited));
    }
  }

  private refill(): void {
    const t = this.now();
    this.tokens = Math.min(this.burst(), this.tokens + ((t - this.refilledAt) / 1000) * this.perSecond);
    this.refilledAt = t;
  }
}
