import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/**
 * An HTTP server that accepts every request and never answers it: the upstream that is "down" in the
 * way that matters for time limits (a refused port fails at once and proves nothing about waiting).
 * `open()` counts requests still waiting for an answer whose client has not given up.
 */
export interface HangingServer {
  url: string;
  received: () => number;
  open: () => number;
  /** Resolves when the next request has arrived. */
  nextRequest: () => Promise<void>;
  close: () => Promise<void>;
}

export async function startHangingServer(): Promise<HangingServer> {
  const waiting = new Set<ServerResponse>();
  let received = 0;
  let waiters: (() => void)[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    received++;
    waiting.add(res);
    res.on('close', () => waiting.delete(res));
    req.resume();
    for (const w of waiters) w();
    waiters = [];
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    received: () => received,
    open: () => waiting.size,
    nextRequest: () => new Promise((r) => waiters.push(r)),
    close: () =>
      new Promise<void>((r) => {
        for (const res of waiting) res.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
