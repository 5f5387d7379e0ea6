import 'server-only';
import type { HopGate } from './outbound';

/**
 * Per-host concurrency and start rate for outbound requests whose URLs others chose (NFT metadata): at
 * most `concurrency` requests to one host (`host:port`) at once, and one start per `intervalMs`. The
 * clock and the wait are injectable, so tests check the schedule without waiting for it.
 */
export class HostGate implements HopGate {
  private readonly gates = new Map<string, { active: number; next: number; waiters: (() => void)[] }>();
  private readonly concurrency: number;
  private readonly intervalMs: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(opts: { concurrency: number; intervalMs: number; now?: () => number; sleep?: (ms: number) => Promise<void> }) {
    this.concurrency = opts.concurrency;
    this.intervalMs = opts.intervalMs;
    this.now = opts.now ?? Date.now;
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  async run<T>(host: string, fn: () => Promise<T>): Promise<T> {
    const key = host.toLowerCase();
    let g = this.gates.get(key);
    if (!g) this.gates.set(key, (g = { active: 0, next: 0, waiters: [] }));
    const gate = g;
    while (gate.active >= this.concurrency) await new Promise<void>((r) => gate.waiters.push(r));
    gate.active++;
    const now = this.now();
    const wait = gate.next - now;
    gate.next = Math.max(now, gate.next) + this.intervalMs;
    try {
      if (wait > 0) await this.sleep(wait);
      return await fn();
    } finally {
      gate.active--;
      gate.waiters.shift()?.();
      if (gate.active === 0 && gate.waiters.length === 0 && gate.next <= this.now()) this.gates.delete(key);
    }
  }

  /** Hosts with requests running or starts scheduled (tests). */
  get size(): number {
    return this.gates.size;
  }
}
