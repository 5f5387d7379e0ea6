import 'server-only';
import { LanternError } from '@/lib/errors';
import { exchangeOverHttp } from './http-exchange';

/**
 * A circuit breaker per upstream (an EVM node, a ledger node, a hosted API host), so that once an
 * upstream is known to be down, requests for it answer at once instead of each waiting out the
 * upstream timeout.
 *
 *   closed     every call goes upstream; failures of `failureThreshold` DISTINCT requests in a row (no
 *              success between them, all within `windowMs`) open it.
 *   open       calls fail at once (503, Retry-After) for `coolDownMs`.
 *   half-open  the cool-down is over: the next call (a real request, or health's check) is the probe,
 *              alone; calls arriving while it is in flight fail at once. Success closes, failure reopens.
 *
 * A failure is the upstream not working: refused, reset, timed out, 5xx. A 4xx is the upstream answering
 * (a 404 block, a 410 pruned version) and counts as success; the caller's `classify` decides.
 *
 * Failures are counted per request (the caller's `key`: the hosted API's path and query, say), not per
 * call: a provider that answers 500 for one wallet's history, or is slow for it, while serving the rest
 * is that request's trouble, and however often it is asked (retries included) it counts once, so it
 * never opens the breaker for everyone else. Only several different requests failing with nothing
 * succeeding between them is the provider's own trouble. A call without a key is a request of its own.
 * No timers: state is computed from an injectable clock when asked. State is per process.
 */

export type BreakerState = 'closed' | 'open' | 'half-open';
/** How one call went: a 5xx answer carries its status, for the sentence an open breaker answers with. */
export type Outcome = 'ok' | 'failure' | 'timeout' | { status: number };

/** What the failures that opened a breaker were. */
export type OpenCause = { kind: 'unreachable' } | { kind: 'timeout' } | { kind: 'status'; status: number; requests: number };

export interface BreakerOptions {
  /** Distinct requests failing in a row that open the breaker. */
  failureThreshold: number;
  /** Failures older than this are forgotten (default 30 s). */
  windowMs?: number;
  /** How long an open breaker fails fast before it lets one probe through. */
  coolDownMs: number;
  /** The longest a probe can take (the upstream timeout): after that (and a second's slack) it is presumed lost. */
  probeTimeoutMs: number;
  now?: () => number;
  /** Called on every change of state, for the log. */
  onChange?: (change: { source: string; from: BreakerState; to: BreakerState; reason: string }) => void;
}

export interface Classify<T> {
  result?: (value: T) => Outcome;
  error?: (error: unknown) => Outcome;
}

export interface BreakerSnapshot {
  source: string;
  upstream: string;
  state: BreakerState;
  /** ISO time of the last change of state. */
  since: string;
  /** Distinct requests failed in a row so far (closed), within the window. */
  failures: number;
  /** Open: seconds until the next probe may go. */
  retryInS?: number;
  probing: boolean;
}

/** The fast answer while a breaker is open: a sentence naming the source and when it will be tried again. */
export class BreakerOpenError extends LanternError {
  /** A brand that survives crossing bundles, where instanceof does not (see asBreakerOpen). */
  readonly breakerOpen = true;

  constructor(source: string, message: string, retryAfterS: number) {
    super(503, 'upstream_unavailable', message, { retryAfter: retryAfterS, source });
  }

  /** The sentence says what happened: not answering at all, or answering with errors. */
  static naming(source: string, label: string, retryAfterS: number, cause?: OpenCause): BreakerOpenError {
    const what =
      cause?.kind === 'status'
        ? `${label} answered HTTP ${cause.status}${cause.requests > 1 ? ` to ${cause.requests} different requests in a row` : ''}`
        : `${label} is not answering`;
    return new BreakerOpenError(source, `${what}; Lantern will try it again in ${retryAfterS} s.`, retryAfterS);
  }
}

/**
 * The breaker's answer, whichever bundle's copy of this module threw it (a client shared on globalThis,
 * like the EVM node's, may have been made by another route's bundle), as this bundle's own error.
 */
export function asBreakerOpen(e: unknown): BreakerOpenError | undefined {
  if (e instanceof BreakerOpenError) return e;
  const x = e as { breakerOpen?: unknown; message?: unknown; retryAfter?: unknown; source?: unknown } | null | undefined;
  if (x?.breakerOpen !== true || typeof x.message !== 'string') return undefined;
  return new BreakerOpenError(String(x.source ?? ''), x.message, typeof x.retryAfter === 'number' ? x.retryAfter : 1);
}

/** The breaker's answer anywhere in a cause chain (viem wraps what fetch threw), if there is one. */
export function breakerOpenInChain(e: unknown): BreakerOpenError | undefined {
  let cur = e as { cause?: unknown } | undefined;
  for (let i = 0; cur && i < 6; i++) {
    const open = asBreakerOpen(cur);
    if (open) return open;
    cur = cur.cause as typeof cur;
  }
  return undefined;
}

interface Ticket {
  probe: boolean;
  key: string | symbol;
}

const DEFAULT_WINDOW_MS = 30_000;

const PROBE_SLACK_MS = 1000;

/**
 * A breaker's state as plain data. Kept apart from the class so that the bundles of different routes,
 * which may each hold their own copy of this module (and of LanternError), share the state of one
 * upstream while each throws errors its own handler recognises.
 */
export interface BreakerData {
  failures: number;
  /** Each request that failed since the last success, with when it last failed. */
  failed: Map<string | symbol, number>;
  /** Why it opened, for the sentence (set while open or half-open). */
  cause: OpenCause | undefined;
  /** Set while open or half-open. */
  openUntil: number | undefined;
  probeStartedAt: number | undefined;
  changedAt: number;
  lastState: BreakerState;
}

export function newBreakerData(now: number): BreakerData {
  return { failures: 0, failed: new Map(), cause: undefined, openUntil: undefined, probeStartedAt: undefined, changedAt: now, lastState: 'closed' };
}

export class CircuitBreaker {
  private readonly now: () => number;
  private readonly d: BreakerData;

  /**
   * @param source short stable name for logs and health (`ledger-node:local`)
   * @param label how a person reads it, with the host (`The local ledger node (127.0.0.1:8080)`)
   * @param upstream the host (never a full URL: URLs may carry keys)
   * @param data shared state (see BreakerData); fresh when omitted
   */
  constructor(
    readonly source: string,
    readonly label: string,
    readonly upstream: string,
    private readonly opts: BreakerOptions,
    data?: BreakerData,
  ) {
    this.now = opts.now ?? Date.now;
    this.d = data ?? newBreakerData(this.now());
  }

  state(): BreakerState {
    if (this.d.openUntil === undefined) return 'closed';
    if (this.probeInFlight() || this.now() >= this.d.openUntil) return 'half-open';
    return 'open';
  }

  snapshot(): BreakerSnapshot {
    const state = this.state();
    const now = this.now();
    // Half-open without a probe yet began when the cool-down ended, not when someone last looked.
    const since = state === 'half-open' && !this.probeInFlight() ? this.d.openUntil! : this.d.changedAt;
    return {
      source: this.source,
      upstream: this.upstream,
      state,
      since: new Date(since).toISOString(),
      failures: this.d.failures,
      ...(state === 'open' ? { retryInS: seconds(this.d.openUntil! - now) } : {}),
      probing: this.probeInFlight(),
    };
  }

  /**
   * Runs one call to the upstream through the breaker. Throws BreakerOpenError at once when the call may
   * not go; otherwise the call's own result or error, after recording how it went. `key` names the
   * request the call serves (its retries share it); without one the call is a request of its own.
   */
  async run<T>(fn: () => Promise<T>, classify: Classify<T> = {}, key?: string): Promise<T> {
    const ticket = this.admit(key ?? Symbol('call'));
    let value: T;
    try {
      value = await fn();
    } catch (e) {
      this.record(ticket, classify.error ? classify.error(e) : 'failure');
      throw e;
    }
    this.record(ticket, classify.result ? classify.result(value) : 'ok');
    return value;
  }

  /**
   * Throws BreakerOpenError when a call could not go now (open, or a probe in flight), without claiming
   * the probe. For callers about to join a call already in flight (a shared promise, a single-flight
   * cache): while that call is the probe they answer at once instead of waiting on it.
   */
  assertAvailable(): void {
    if (this.d.openUntil === undefined) return;
    const now = this.now();
    if (this.probeInFlight()) throw BreakerOpenError.naming(this.source, this.label, seconds(this.d.probeStartedAt! + this.opts.probeTimeoutMs - now), this.d.cause);
    if (now < this.d.openUntil) throw BreakerOpenError.naming(this.source, this.label, seconds(this.d.openUntil - now), this.d.cause);
  }

  private probeInFlight(): boolean {
    return this.d.probeStartedAt !== undefined && this.now() - this.d.probeStartedAt < this.opts.probeTimeoutMs + PROBE_SLACK_MS;
  }

  private admit(key: string | symbol): Ticket {
    if (this.d.openUntil === undefined) return { probe: false, key };
    this.assertAvailable();
    const now = this.now();
    this.d.probeStartedAt = now;
    this.change('half-open', now, 'cool-down over: probing');
    return { probe: true, key };
  }

  private record(ticket: Ticket, outcome: Outcome) {
    const now = this.now();
    if (ticket.probe) this.d.probeStartedAt = undefined;
    if (outcome === 'ok') {
      this.d.failures = 0;
      this.d.failed.clear();
      // Any answer is evidence the upstream works, also a slow one that set out before the breaker opened.
      if (this.d.openUntil !== undefined) {
        this.d.openUntil = undefined;
        this.change('closed', now, ticket.probe ? 'probe succeeded' : 'an earlier call succeeded');
      }
      return;
    }
    if (ticket.probe) {
      // The one call let through to see whether the upstream is back: it is not (the cause stays).
      this.open(now, `probe ${outcome === 'timeout' ? 'timed out' : 'failed'}`, causeOf(outcome, this.d.cause?.kind === 'status' ? this.d.cause.requests : 1));
      return;
    }
    if (this.d.openUntil !== undefined) return; // a call from before the breaker opened: already counted
    const windowMs = this.opts.windowMs ?? DEFAULT_WINDOW_MS;
    for (const [k, at] of this.d.failed) if (now - at > windowMs) this.d.failed.delete(k);
    this.d.failed.delete(ticket.key); // re-inserted: the map stays in order of last failure
    this.d.failed.set(ticket.key, now);
    this.d.failures = this.d.failed.size;
    if (this.d.failures >= this.opts.failureThreshold) this.open(now, `${this.d.failures} different requests failed in a row`, causeOf(outcome, this.d.failures));
  }

  private open(now: number, reason: string, cause: OpenCause) {
    this.d.openUntil = now + this.opts.coolDownMs;
    this.d.cause = cause;
    this.d.failed.clear();
    this.change('open', now, reason);
  }

  private change(to: BreakerState, now: number, reason: string) {
    const from = this.d.lastState;
    this.d.lastState = to;
    this.d.changedAt = now;
    this.opts.onChange?.({ source: this.source, from, to, reason });
  }
}

function causeOf(outcome: Exclude<Outcome, 'ok'>, requests: number): OpenCause {
  if (outcome === 'timeout') return { kind: 'timeout' };
  if (outcome === 'failure') return { kind: 'unreachable' };
  return { kind: 'status', status: outcome.status, requests };
}

/** Whole seconds, at least 1: what Retry-After and the sentence say. */
function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/** Timeouts (AbortSignal.timeout, viem's abort on timeout) vs. every other way a call can fail. */
export function errorOutcome(e: unknown): Outcome {
  const name = (e as { name?: string })?.name;
  return name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'failure';
}

/** An HTTP answer: 5xx is the upstream failing; anything else (4xx included) is the upstream working. */
export function responseOutcome(res: Response): Outcome {
  return res.status >= 500 ? { status: res.status } : 'ok';
}

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * Where http-exchange.ts leaves an exchange to fetch (a redirect, a Request, a streamed body): the
 * runtime's fetch rather than the one Next.js puts in its place for route code: that one traces each
 * fetch and applies Next's data cache, and every exchange here is uncached by design (Lantern keeps its
 * own caches), so it was only a cost (about 0.3 ms a call). Read at each call: Next patches fetch when a
 * route first runs, after this module has loaded.
 */
function runtimeFetch(): typeof fetch {
  const f = globalThis.fetch as typeof fetch & { _nextOriginalFetch?: typeof fetch };
  return f._nextOriginalFetch ?? f;
}

/**
 * One whole HTTP exchange with an upstream, as one call of its breaker: the answer's body is read to
 * its end inside the call. An upstream that sends its headers and then stalls is so a timeout like one
 * that never answers (`init.signal`, the upstream timeout, covers the body too), and opens the breaker.
 * The Response returned holds its body in memory. Made over node:http (http-exchange.ts), fetch's equal
 * at a third of its cost.
 */
export function exchange(breaker: CircuitBreaker, input: string | URL | Request, init?: RequestInit, key?: string): Promise<Response> {
  return breaker.run(
    async () => {
      const direct = input instanceof Request ? undefined : await exchangeOverHttp(input, init);
      if (direct) return new ReadResponse(NULL_BODY_STATUSES.has(direct.status) ? null : direct.body, direct);
      const res = await runtimeFetch()(input, init);
      const body = Buffer.from(await res.arrayBuffer());
      return new ReadResponse(NULL_BODY_STATUSES.has(res.status) ? null : body, { status: res.status, statusText: res.statusText, headers: res.headers });
    },
    { result: responseOutcome, error: errorOutcome },
    key,
  );
}

/**
 * An answer whose body is already in memory, whose `text()` is Buffer's decoding: a Response's own (and
 * viem's streaming TextDecoder) decode UTF-8 through ICU, about 2.5 times as long for the few hundred KB
 * of a wallet's logs or a token read.
 */
export class ReadResponse extends Response {
  readonly #bytes: Buffer<ArrayBuffer> | null;
  constructor(bytes: Buffer<ArrayBuffer> | null, init: ResponseInit) {
    super(bytes, init);
    this.#bytes = bytes;
  }
  override async text(): Promise<string> {
    if (this.bodyUsed || !this.#bytes) return super.text();
    // Read here, not through the stream: cancelling it marks the body used, as reading it would.
    this.body?.cancel().catch(() => undefined);
    return this.#bytes.toString('utf8');
  }
  override async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }
  /** The body's size, without reading it. */
  get size(): number {
    return this.#bytes?.length ?? 0;
  }
}

/** `fetch` through `breaker`, each exchange whole (see exchange): for clients that take a fetch (viem's). */
export function breakerFetch(breaker: CircuitBreaker): (input: string | URL | Request, init?: RequestInit) => Promise<Response> {
  return (input, init) => exchange(breaker, input, init);
}
