import 'server-only';
import WebSocket from 'ws';
import { config } from '@/lib/config';
import { log } from '@/lib/log';
import { hostOf } from '@/lib/sources/breakers';
import { evmNode } from '@/lib/sources/evm-nodes';
import { headInfo, type HeadInfo } from './rpc';

/**
 * The node's new heads, pushed or polled, for the one instance that follows a chain (lib/live holds the
 * lease). Where the node offers a WebSocket (EVM_WS_URL, or the devnet's: anvil serves it on its HTTP
 * port) this is one `eth_subscribe newHeads`; a check of the latest block over the same socket every
 * KEEPALIVE_MS finds a dead socket and a head that went back without a new block (anvil_rollback pushes
 * nothing). Without a socket, or while it is down, `eth_getBlockByNumber("latest")` every EVM_HEAD_POLL_MS
 * (the block, not eth_blockNumber: the same one call, and its hash shows a head replaced at the same
 * height). Either way the node sees one subscription or one polling loop per chain, however many people
 * watch. Only new (number, hash) pairs are passed on; the chain check (chain.ts) is the caller's.
 */

export type HeadTransport = 'websocket' | 'polling';

const KEEPALIVE_MS = 15_000;
/** How long polling stands in for a socket that failed before the socket is tried again (doubling). */
const WS_RETRY_MS = [2_000, 5_000, 15_000, 60_000];

/** Where this chain's node pushes heads, if anywhere (EVM_WS_URL(S), or the devnet's own socket). */
async function endpointFor(chainId: number): Promise<{ wsUrl: string | null }> {
  return { wsUrl: (await evmNode(chainId)).wsUrl };
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/**
 * Calls `onHead` with each new head of `chainId` until `signal` aborts; `onTransport` hears how heads
 * arrive as it changes. Never throws for the node's sake: a node that is down is waited for.
 */
export async function watchNodeHeads(
  chainId: number,
  onHead: (h: HeadInfo) => void,
  signal: AbortSignal,
  onTransport: (t: HeadTransport) => void = () => {},
): Promise<void> {
  let last: HeadInfo | undefined;
  const emit = (h: HeadInfo) => {
    if (last && last.number === h.number && last.hash === h.hash) return;
    last = h;
    onHead(h);
  };
  let failures = 0;
  while (!signal.aborted) {
    let wsUrl: string | null;
    try {
      ({ wsUrl } = await endpointFor(chainId));
    } catch (e) {
      log().warn({ chainId, err: (e as Error).message }, 'head follower: the node is not answering (or serves another chain); trying again');
      await sleep(config().evmHeadPollMs * 5, signal);
      continue;
    }
    if (wsUrl) {
      const outcome = await subscribe(wsUrl, emit, signal, () => {
        failures = 0;
        onTransport('websocket');
      });
      if (signal.aborted) return;
      if (outcome === 'refused') failures++;
      log().info({ chainId, node: hostOf(wsUrl.replace(/^ws/, 'http')) }, 'head follower: no WebSocket to the node; polling meanwhile');
    }
    onTransport('polling');
    const until = wsUrl ? Date.now() + WS_RETRY_MS[Math.min(failures, WS_RETRY_MS.length - 1)] : Infinity;
    await poll(chainId, emit, signal, until);
  }
}

/** Polls the latest block until `until` (ms since the epoch) or the signal. */
async function poll(chainId: number, emit: (h: HeadInfo) => void, signal: AbortSignal, until: number): Promise<void> {
  while (!signal.aborted && Date.now() < until) {
    try {
      emit(await headInfo(chainId, true));
    } catch {
      // The node is down or its breaker is open: the next round asks again.
    }
    await sleep(config().evmHeadPollMs, signal);
  }
}

interface RawHead {
  number: string;
  hash: string;
  parentHash: string;
}

const toHead = (b: RawHead): HeadInfo => ({ number: Number(b.number), hash: b.hash.toLowerCase(), parentHash: b.parentHash.toLowerCase() });

/**
 * One WebSocket session: subscribe, pass heads on, check the latest block every KEEPALIVE_MS. Resolves
 * when the socket ends: 'refused' when it never opened or the node refused the subscription, 'lost'
 * when an open subscription ended (or the signal aborted).
 */
function subscribe(url: string, emit: (h: HeadInfo) => void, signal: AbortSignal, onSubscribed: () => void): Promise<'refused' | 'lost'> {
  return new Promise((resolve) => {
    const timeout = config().upstreamTimeoutMs;
    const ws = new WebSocket(url, { handshakeTimeout: timeout });
    let subscribed = false;
    let nextId = 1;
    const pending = new Map<number, (result: unknown, error: unknown) => void>();
    let keepalive: ReturnType<typeof setInterval> | undefined;
    const finish = () => {
      clearInterval(keepalive);
      signal.removeEventListener('abort', abort);
      for (const cb of pending.values()) cb(undefined, new Error('closed'));
      pending.clear();
      resolve(subscribed ? 'lost' : 'refused');
    };
    const abort = () => ws.terminate();
    signal.addEventListener('abort', abort, { once: true });
    const call = (method: string, params: unknown[]) =>
      new Promise<unknown>((ok, fail) => {
        const id = nextId++;
        const timer = setTimeout(() => {
          pending.delete(id);
          fail(new Error(`${method} timed out`));
          ws.terminate(); // a socket that stops answering is dead: start over
        }, timeout);
        pending.set(id, (result, error) => {
          clearTimeout(timer);
          if (error) fail(error);
          else ok(result);
        });
        ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
      });
    const latest = () =>
      call('eth_getBlockByNumber', ['latest', false]).then(
        (b) => b && emit(toHead(b as RawHead)),
        () => undefined,
      );
    ws.on('open', () => {
      call('eth_subscribe', ['newHeads']).then(
        () => {
          subscribed = true;
          onSubscribed();
          // A head mined before the subscription began is not pushed: read it once.
          void latest();
          keepalive = setInterval(() => void latest(), KEEPALIVE_MS);
          keepalive.unref?.();
        },
        () => ws.terminate(),
      );
    });
    ws.on('message', (data) => {
      let msg: { id?: number; result?: unknown; error?: unknown; method?: string; params?: { result?: RawHead } };
      try {
        msg = JSON.parse(String(data));
      } catch {
        return;
      }
      if (msg.method === 'eth_subscription' && msg.params?.result?.hash) {
        emit(toHead(msg.params.result));
      } else if (typeof msg.id === 'number') {
        const cb = pending.get(msg.id);
        pending.delete(msg.id);
        cb?.(msg.result, msg.error);
      }
    });
    ws.on('error', () => undefined); // 'close' follows
    ws.on('close', finish);
  });
}
