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
  stop: () => Promise<void>;
}

export async function startRpcProxy(target: string): Promise<RpcProxy> {
  const calls: RpcCall[] = [];
  const port = await freePort();
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    try {
      const parsed = JSON.parse(body);
      for (const m of Array.isArray(parsed) ? parsed : [parsed]) calls.push({ method: m.method, params: m.params ?? [] });
    } catch {
      // forwarded as is; the node answers the parse error
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
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    calls,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
