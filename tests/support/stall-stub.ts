import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { freePort } from './ports';

/**
 * An upstream that stalls: a real HTTP server on loopback that accepts every request and never answers
 * it (or, after `stallAfterHeaders`, sends a 200's headers and the first bytes of its body, then
 * nothing), until told to answer; then it forwards requests (the held ones included; those whose
 * headers went out are cut off) to a real upstream (a devnet, the hosted stub) and passes its answers
 * back. It records when each request arrived, so tests can count how often Lantern knocked while the
 * upstream was down.
 */
export interface StallStub {
  url: string;
  host: string;
  /** Arrival times (ms since epoch) of every request it received. */
  arrivals: number[];
  stall: () => void;
  /** Stall after sending the headers of a 200 and the first bytes of a JSON body. */
  stallAfterHeaders: () => void;
  answer: () => void;
  close: () => Promise<void>;
}

export async function startStallStub(target: string, opts: { stalled?: boolean } = {}): Promise<StallStub> {
  const port = await freePort();
  const arrivals: number[] = [];
  const held: { req: IncomingMessage; res: ServerResponse; body: Buffer }[] = [];
  const sockets = new Set<Socket>();
  let stalled: false | 'silent' | 'after-headers' = (opts.stalled ?? true) ? 'silent' : false;

  async function forward(req: IncomingMessage, res: ServerResponse, body: Buffer) {
    try {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && !['host', 'connection', 'content-length'].includes(k)) headers[k] = v;
      const up = await fetch(target + (req.url ?? '/'), { method: req.method, headers, body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body.toString('utf8') });
      const out = Buffer.from(await up.arrayBuffer());
      const h: Record<string, string> = { 'content-type': up.headers.get('content-type') ?? 'application/json' };
      for (const name of ['x-aptos-ledger-version', 'x-aptos-ledger-oldest-version', 'retry-after']) {
        const v = up.headers.get(name);
        if (v) h[name] = v;
      }
      if (!res.destroyed) res.writeHead(up.status, h).end(out);
    } catch {
      if (!res.destroyed) res.writeHead(502).end();
    }
  }

  const server: Server = createServer(async (req, res) => {
    arrivals.push(Date.now());
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    if (stalled) {
      if (stalled === 'after-headers') {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '4096' });
        res.write('{"first_version":"');
      }
      held.push({ req, res, body }); // accepted, never answered (in full)
      return;
    }
    await forward(req, res, body);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));

  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    arrivals,
    stall: () => {
      stalled = 'silent';
    },
    stallAfterHeaders: () => {
      stalled = 'after-headers';
    },
    answer: () => {
      stalled = false;
      for (const h of held.splice(0)) {
        if (h.res.headersSent) h.res.destroy();
        else void forward(h.req, h.res, h.body);
      }
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
