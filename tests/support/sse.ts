/**
 * A Server-Sent Events reader over fetch, for tests of live streams: it parses the stream as the
 * EventSource specification does (fields, comments, events ended by a blank line) and keeps every event
 * and comment, so a test can wait for one, or look at all of them.
 */
export interface SseEvent {
  event: string;
  data: string;
  id: string | null;
  /** Milliseconds since the stream was opened. */
  at: number;
}

export interface SseStream {
  status: number;
  headers: Headers;
  events: SseEvent[];
  comments: number;
  /** The `retry:` the server asked for, if any. */
  retry: number | null;
  /** The last id seen (what EventSource would send back as Last-Event-ID). */
  lastId: string | null;
  /** Resolves when the server ends the stream (true) or the test closes it (false). */
  ended: Promise<boolean>;
  /** The first event (from index `from` on) matching `pred`, waiting up to `ms`. */
  waitFor(pred: (e: SseEvent) => boolean, ms?: number, from?: number): Promise<SseEvent>;
  close(): void;
  /** The body of a refusal (status other than 200). */
  text: string;
}

export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const abort = new AbortController();
  const started = performance.now();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
  const events: SseEvent[] = [];
  const waiters = new Set<() => void>();
  const stream: SseStream = {
    status: res.status,
    headers: res.headers,
    events,
    comments: 0,
    retry: null,
    lastId: null,
    text: '',
    ended: Promise.resolve(true),
    waitFor(pred, ms = 15_000, from = 0) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.slice(from).find(pred);
          if (!found) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching event within ${ms} ms; got: ${events.map((e) => `${e.event}#${e.id}`).join(', ')}`));
        }, ms);
        if (!check()) waiters.add(check);
      });
    },
    close: () => abort.abort(),
  };
  if (res.status !== 200 || !res.body) {
    stream.text = await res.text();
    return stream;
  }
  const reader = res.body.getReader();
  stream.ended = (async () => {
    const dec = new TextDecoder();
    let buf = '';
    let cur: { event: string; data: string[]; id: string | null } = { event: 'message', data: [], id: null };
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return true;
        buf += dec.decode(value, { stream: true });
        let nl: number;
        while ((nl = buf.search(/\r\n|\r|\n/)) >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + (buf.startsWith('\r\n', nl) ? 2 : 1));
          if (line === '') {
            if (cur.data.length > 0) {
              if (cur.id !== null) stream.lastId = cur.id;
              events.push({ event: cur.event, data: cur.data.join('\n'), id: cur.id ?? stream.lastId, at: performance.now() - started });
              for (const w of [...waiters]) w();
            }
            cur = { event: 'message', data: [], id: null };
          } else if (line.startsWith(':')) {
            stream.comments++;
          } else {
            const colon = line.indexOf(':');
            const field = colon < 0 ? line : line.slice(0, colon);
            const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (field === 'event') cur.event = value;
            else if (field === 'data') cur.data.push(value);
            else if (field === 'id') cur.id = value;
            else if (field === 'retry' && /^\d+$/.test(value)) stream.retry = Number(value);
          }
        }
      }
    } catch {
      return false;
    }
  })();
  return stream;
}

export const json = <T = Record<string, unknown>>(e: SseEvent) => JSON.parse(e.data) as T;
