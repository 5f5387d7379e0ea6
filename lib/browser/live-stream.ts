import 'client-only';
import type { LiveEventName } from '@/lib/view/live';

/**
 * A live stream as the page holds it (lib/live serves it): an EventSource that resumes where it left off.
 * EventSource reconnects by itself after a dropped connection, sending the last event's id as
 * Last-Event-ID; when it gives up (the server answered with an error, or is restarting) a new one is
 * opened after a growing pause, with that id as `since`. Pausing (a tab in the background) closes it;
 * resuming opens it again from the same id, so nothing is missed and nothing repeated.
 */

export type LiveStreamState = 'connecting' | 'open' | 'reconnecting' | 'paused' | 'closed';

export interface LiveStreamOptions {
  /** The stream's URL for a resume id (null: from now). */
  url: (since: string | null) => string;
  since: string | null;
  onEvent: (name: LiveEventName, data: unknown, id: string) => void;
  onState: (state: LiveStreamState) => void;
}

const NAMES: LiveEventName[] = ['hello', 'tx', 'removed', 'head', 'gap', 'reset'];
const BACKOFF_MS = [1_000, 2_000, 5_000, 10_000, 30_000];

export class LiveStream {
  private es: EventSource | null = null;
  private last: string | null;
  private failures = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private state: LiveStreamState = 'connecting';

  constructor(private opts: LiveStreamOptions) {
    this.last = opts.since;
  }

  /** The id of the last event read: where a new stream would carry on from. */
  get lastId(): string | null {
    return this.last;
  }

  start(): void {
    this.open();
  }

  pause(): void {
    this.shut();
    this.set('paused');
  }

  resume(): void {
    if (this.state !== 'paused') return;
    this.open();
  }

  close(): void {
    this.shut();
    this.set('closed');
  }

  private set(state: LiveStreamState) {
    if (state === this.state) return;
    this.state = state;
    this.opts.onState(state);
  }

  private shut() {
    clearTimeout(this.timer);
    this.es?.close();
    this.es = null;
  }

  private open() {
    this.shut();
    this.set(this.failures > 0 ? 'reconnecting' : 'connecting');
    const es = new EventSource(this.opts.url(this.last));
    this.es = es;
    es.onopen = () => {
      this.failures = 0;
      this.set('open');
    };
    es.onerror = () => {
      if (this.es !== es) return;
      if (es.readyState === EventSource.CLOSED) {
        // Given up (an error status, a refused connection): try again later, from the last id read.
        this.shut();
        const wait = BACKOFF_MS[Math.min(this.failures, BACKOFF_MS.length - 1)]!;
        this.failures++;
        this.set('reconnecting');
        this.timer = setTimeout(() => this.open(), wait);
      } else {
        this.set('reconnecting'); // EventSource retries by itself, with Last-Event-ID
      }
    };
    for (const name of NAMES) {
      es.addEventListener(name, (e) => {
        if (this.es !== es) return;
        const m = e as MessageEvent<string>;
        if (m.lastEventId && name !== 'hello') this.last = m.lastEventId;
        let data: unknown;
        try {
          data = JSON.parse(m.data);
        } catch {
          return;
        }
        this.opts.onEvent(name, data, m.lastEventId);
      });
    }
  }
}
