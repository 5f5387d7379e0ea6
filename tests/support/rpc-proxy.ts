import { createServer, type Server } from 'node:http';
import { freePort } from './ports';

/**
 * A loopback JSON-RPC proxy in front of a node that records every call (batches included), so tests
 * can count what Lantern asked the node without Lantern exposing anything extra.
 */
export interface RpcCall {
  method: string;
  params: unknown[];
}

export interface RpcProxy {
  url: string;
  port: number;
  calls: RpcCall[];
  /** While set, every call whose method matches has its connection destroyed without an answer. */
  dropCalls: RegExp | null;
  stop: () => Promise<void>;
}

export async function startRpcProxy(target: string): Promise<RpcProxy> {
  const calls: RpcCall[] = [];
  const port = await freePort();
  const proxy = { dropCalls: null as RegExp | null };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    let methods: string[] = [];
    try {
      const parsed = JSON.parse(body);
      for (const m of Array.isArray(parsed) ? parsed : [parsed]) calls.push({ method: m.method, params: m.params ?? [] });
      methods = (Array.isArray(parsed) ? parsed : [parsed]).map((m: { method: string }) => m.method);
    } catch {
      // forwarded as is; the node answers the parse error
    }
    if (proxy.dropCalls && methods.some((m) => proxy.dropCalls!.test(m))) {
      req.socket.destroy(); // the node "drops the connection" mid-request
      return;
    }
    try {
      const up = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      res.writeHead(up.status, { 'content-type': 'application/json' });
      res.end(await up.text());
    } catch {
      res.writeHead(502).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return Object.assign(proxy, {
    url: `http://127.0.0.1:${port}`,
    port,
    calls,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
