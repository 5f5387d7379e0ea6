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
  /** While set, every call whose method matches is answered "method not found" (-32601), as a node without it does. */
  refuseMethods: RegExp | null;
  stop: () => Promise<void>;
}

export async function startRpcProxy(target: string): Promise<RpcProxy> {
  const calls: RpcCall[] = [];
  const port = await freePort();
  const proxy = { dropCalls: null as RegExp | null, refuseMethods: null as RegExp | null };
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
    if (proxy.refuseMethods && methods.some((m) => proxy.refuseMethods!.test(m))) {
      // Answer the refused calls here and forward the rest (a batch keeps its other calls).
      const parsed = JSON.parse(body);
      const list: { id: unknown; method: string }[] = Array.isArray(parsed) ? parsed : [parsed];
      const refused = (m: { method: string }) => proxy.refuseMethods!.test(m.method);
      const notFound = (m: { id: unknown; method: string }) => ({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: `Method not found: ${m.method}` } });
      const rest = list.filter((m) => !refused(m));
      let answered: unknown[] = [];
      if (rest.length > 0) {
        const up = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(rest) });
        answered = (await up.json()) as unknown[];
      }
      const out = [...list.filter(refused).map(notFound), ...answered];
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(Array.isArray(parsed) ? out : out[0]));
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
