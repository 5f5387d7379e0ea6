import { createServer, type Server } from 'node:http';
import WebSocket, { WebSocketServer } from 'ws';
import { freePort } from './ports';

/**
 * A loopback JSON-RPC proxy in front of a node that records every call (batches included), so tests
 * can count what Lantern asked the node without Lantern exposing anything extra. WebSocket connections
 * (`eth_subscribe`) are relayed to the node's own WebSocket on the same port and their calls recorded
 * apart, in `wsCalls`.
 */
export interface RpcCall {
  method: string;
  params: unknown[];
}

export interface RpcProxy {
  url: string;
  port: number;
  calls: RpcCall[];
  /** Calls sent over WebSocket connections (subscriptions). */
  wsCalls: RpcCall[];
  /** WebSocket connections open now. */
  wsOpen: () => number;
  /** While true, WebSocket upgrades are refused (a node without one). */
  refuseWebSocket: boolean;
  /** While set, every call whose method matches has its connection destroyed without an answer. */
  dropCalls: RegExp | null;
  /** While set, every call whose method matches is answered "method not found" (-32601), as a node without it does. */
  refuseMethods: RegExp | null;
  /** While set, a call it gives an error for is answered with that error instead of forwarded (a node's own refusals). */
  errorFor: ((call: RpcCall) => { code: number; message: string } | null) | null;
  /** While set, eth_getLogs is refused as a hosted provider refuses it (see LogLimits). */
  logLimits: LogLimits | null;
  /** eth_getLogs calls refused by `logLimits` so far, by reason. */
  logRefusals: { range: number; results: number };
  /** While set, a request holding a call it matches waits (unanswered, not forwarded) until release(). */
  hold: ((call: RpcCall) => boolean) | null;
  /** Calls held so far (each held request counts its matching calls). */
  held: number;
  /** Lets the held requests go on, and holds nothing more. */
  release: () => void;
  stop: () => Promise<void>;
}

/**
 * A provider's eth_getLogs limits: a query over more than `maxBlocks` blocks, or whose answer would hold
 * more than `maxResults` logs, is refused with the provider's own wording:
 * - `infura`: -32602 "range 5000 exceeds limit of 2000" (block range) and -32005 "query returned more
 *   than 10000 results" (result count);
 * - `alchemy`: -32602 "Log response size exceeded. You can make eth_getLogs requests with up to a 2K block
 *   range and no limit on the response size, or you can request any block range with a cap of 10K logs in
 *   the response. Based on your parameters and the response size limit, this block range should work:
 *   [0x1, 0x7d0]" for both.
 */
export interface LogLimits {
  maxBlocks: number;
  maxResults: number;
  style: 'infura' | 'alchemy';
}

/** Node kinds made from anvil by refusing methods: Reth without ots (trace only), Geth (eth_ and debug_ only). */
export const NODE_KINDS = {
  traceOnly: /^ots_/,
  gethLike: /^(ots_|trace_)/,
} as const;

interface RpcRequest {
  jsonrpc?: string;
  id: unknown;
  method: string;
  params?: unknown[];
}

const hex = (n: number) => `0x${n.toString(16)}`;
const kilo = (n: number) => (n % 1000 === 0 ? `${n / 1000}K` : String(n));

/** The answer the provider gives to one eth_getLogs call: forwarded, or refused by `limits`. */
async function limitedLogs(target: string, m: RpcRequest, limits: LogLimits): Promise<{ answer: unknown; refused?: 'range' | 'results' }> {
  const f = (m.params?.[0] ?? {}) as { fromBlock?: string; toBlock?: string };
  const post = async (body: unknown) => (await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
  // Tags ("latest", "earliest", none) count as the blocks they name.
  const block = async (tag: string | undefined, missing: 'earliest' | 'latest') => {
    const t = tag ?? missing;
    if (/^0x[0-9a-f]+$/i.test(t)) return Number(t);
    if (t === 'earliest') return 0;
    return Number(((await post({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] })) as { result: string }).result);
  };
  const from = await block(f.fromBlock, 'latest');
  const to = await block(f.toBlock, 'latest');
  const refuse = (code: number, message: string) => ({ jsonrpc: '2.0', id: m.id, error: { code, message } });
  const alchemy = (ok: [number, number]) =>
    refuse(
      -32602,
      `Log response size exceeded. You can make eth_getLogs requests with up to a ${kilo(limits.maxBlocks)} block range and no limit on the response size, ` +
        `or you can request any block range with a cap of ${kilo(limits.maxResults)} logs in the response. Based on your parameters and the response size limit, ` +
        `this block range should work: [${hex(ok[0])}, ${hex(ok[1])}]`,
    );
  if (to - from + 1 > limits.maxBlocks) {
    const answer = limits.style === 'alchemy' ? alchemy([from, from + limits.maxBlocks - 1]) : refuse(-32602, `range ${to - from + 1} exceeds limit of ${limits.maxBlocks}`);
    return { answer, refused: 'range' };
  }
  const up = (await post(m)) as { id: unknown; error?: unknown; result?: { blockNumber: string }[] };
  const logs = up.result;
  if (!logs || logs.length <= limits.maxResults) return { answer: up };
  if (limits.style === 'infura') return { answer: refuse(-32005, `query returned more than ${limits.maxResults} results`), refused: 'results' };
  // The blocks before the one that holds the first log past the cap.
  return { answer: alchemy([from, Math.max(from, Number(logs[limits.maxResults]!.blockNumber) - 1)]), refused: 'results' };
}

export async function startRpcProxy(target: string): Promise<RpcProxy> {
  const calls: RpcCall[] = [];
  const port = await freePort();
  let open!: () => void;
  let gate = new Promise<void>((r) => (open = r));
  const wsCalls: RpcCall[] = [];
  const sockets = new Set<WebSocket>();
  const proxy = {
    refuseWebSocket: false,
    dropCalls: null as RegExp | null,
    refuseMethods: null as RegExp | null,
    errorFor: null as ((call: RpcCall) => { code: number; message: string } | null) | null,
    logLimits: null as LogLimits | null,
    logRefusals: { range: 0, results: 0 },
    hold: null as ((call: RpcCall) => boolean) | null,
    held: 0,
    release: () => {
      proxy.hold = null;
      open();
      gate = new Promise<void>((r) => (open = r));
    },
  };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    let methods: string[] = [];
    let held = 0;
    try {
      const parsed = JSON.parse(body);
      for (const m of Array.isArray(parsed) ? parsed : [parsed]) {
        const call = { method: m.method, params: m.params ?? [] };
        calls.push(call);
        if (proxy.hold?.(call)) held++;
      }
      methods = (Array.isArray(parsed) ? parsed : [parsed]).map((m: { method: string }) => m.method);
    } catch {
      // forwarded as is; the node answers the parse error
    }
    if (held > 0) {
      proxy.held += held;
      await gate;
    }
    if (proxy.dropCalls && methods.some((m) => proxy.dropCalls!.test(m))) {
      req.socket.destroy(); // the node "drops the connection" mid-request
      return;
    }
    const ownError = (m: { method: string; params?: unknown[] }) => proxy.errorFor?.({ method: m.method, params: m.params ?? [] }) ?? null;
    const refused = (m: { method: string; params?: unknown[] }) => !!proxy.refuseMethods?.test(m.method) || ownError(m) !== null;
    const limited = (m: { method: string }) => !!proxy.logLimits && m.method === 'eth_getLogs';
    let list0: RpcRequest[] = [];
    try {
      const parsed = JSON.parse(body);
      list0 = Array.isArray(parsed) ? parsed : [parsed];
    } catch {
      // forwarded as is
    }
    if (list0.some((m) => refused(m) || limited(m))) {
      // Answer the refused and limited calls here and forward the rest (a batch keeps its other calls).
      const parsed = JSON.parse(body);
      const list: RpcRequest[] = Array.isArray(parsed) ? parsed : [parsed];
      const notFound = (m: RpcRequest) => ({ jsonrpc: '2.0', id: m.id, error: ownError(m) ?? { code: -32601, message: `the method ${m.method} does not exist/is not available` } });
      const rest = list.filter((m) => !refused(m) && !limited(m));
      let answered: unknown[] = [];
      if (rest.length > 0) {
        const up = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(rest) });
        answered = (await up.json()) as unknown[];
      }
      const logs = await Promise.all(list.filter((m) => !refused(m) && limited(m)).map((m) => limitedLogs(target, m, proxy.logLimits!)));
      for (const a of logs) if (a.refused) proxy.logRefusals[a.refused]++;
      const out = [...list.filter(refused).map(notFound), ...logs.map((a) => a.answer), ...answered];
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
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    if (proxy.refuseWebSocket) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (client) => {
      const node = new WebSocket(target.replace(/^http/, 'ws'));
      sockets.add(client);
      const queued: string[] = [];
      node.on('open', () => {
        for (const m of queued.splice(0)) node.send(m);
      });
      node.on('message', (data) => client.readyState === WebSocket.OPEN && client.send(String(data)));
      client.on('message', (data) => {
        const text = String(data);
        try {
          for (const m of [JSON.parse(text)].flat()) wsCalls.push({ method: m.method, params: m.params ?? [] });
        } catch {
          // relayed as is
        }
        if (node.readyState === WebSocket.OPEN) node.send(text);
        else queued.push(text);
      });
      const close = () => {
        sockets.delete(client);
        client.terminate();
        node.terminate();
      };
      client.on('close', close);
      node.on('close', close);
      node.on('error', close);
      client.on('error', close);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return Object.assign(proxy, {
    url: `http://127.0.0.1:${port}`,
    port,
    calls,
    wsCalls,
    wsOpen: () => sockets.size,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const c of sockets) c.terminate();
        wss.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
