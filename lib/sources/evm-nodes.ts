import 'server-only';
import { createPublicClient, type PublicClient } from 'viem';
import { chainOrCustom, type Chain } from '@/lib/chains';
import { config, type EvmNodeConfig } from '@/lib/config';
import { LanternError } from '@/lib/errors';
import { log } from '@/lib/log';
import { breakerOpenInChain, type CircuitBreaker } from './breaker';
import { evmNodeBreaker, hostOf, rpcTransport } from './breakers';

/**
 * The EVM nodes Lantern reads, one per chain, shared by the sources that talk to them (evm-node for
 * wallet data, siwe-local for contract-wallet signatures). A node is reached only through the chain it
 * serves: `evmNode(chainId)`. Each node has its own breaker (`evm-node:<chain>:<host>`) and clients.
 *
 * Which chain a node serves: EVM_RPC_URLS names it (checked against the node's eth_chainId before the
 * node answers for it, at start-up when it is up, else on first use); EVM_RPC_URL's node says it (asked
 * at start-up, and again at most once per UPSTREAM_PROBE_INTERVAL_MS while it does not answer). A node
 * whose chain is not the one named, or a second node for one chain, is refused: at start-up the server
 * stops (lib/startup.ts), later every request for it is a 503 saying so. Messages name the variable and
 * the host, never the URL (its path or user-info may carry a key).
 */

/** A node whose chain is known, ready to be asked. */
export interface EvmNode {
  chain: Chain;
  /** Where the configuration names it (`EVM_RPC_URLS (polygon)`, `EVM_RPC_URL`, ...). */
  variable: string;
  host: string;
  breaker: CircuitBreaker;
  /** Calls made in the same turn of the event loop travel in one HTTP request (JSON-RPC batch). */
  batched: PublicClient;
  /** The same node without batching (rpc.ts uses it while the breaker is not closed). */
  single: PublicClient;
  /** Where it pushes new heads (config's wsUrl); null: the head follower polls. */
  wsUrl: string | null;
}

interface NodeState {
  cfg: EvmNodeConfig;
  host: string;
  /** The chain: named by the configuration, or said by the node (EVM_RPC_URL) once it answered. */
  chainId: number | null;
  node?: EvmNode;
  /** Checked against the node's eth_chainId (named nodes) or found from it (EVM_RPC_URL). */
  verified: boolean;
  refused?: string;
  checking?: Promise<void>;
  /** EVM_RPC_URL: when the node last failed to say its chain (asked again one probe interval later). */
  failedAt?: number;
}

const g = globalThis as unknown as { __lanternEvmNodes?: { key: string; nodes: NodeState[] } };

// This bundle's last look: the same configuration object and the same shared entry need no new key
// (states() runs several times per request; stringifying the node list each time showed in profiles).
let lastLook: { nodes: unknown; entry: { key: string; nodes: NodeState[] } } | undefined;

function states(): NodeState[] {
  const nodes = config().evmNodes;
  if (lastLook && lastLook.nodes === nodes && lastLook.entry === g.__lanternEvmNodes) return lastLook.entry.nodes;
  const key = JSON.stringify(nodes);
  if (g.__lanternEvmNodes?.key !== key) {
    g.__lanternEvmNodes = { key, nodes: nodes.map((cfg) => ({ cfg, host: hostOf(cfg.url), chainId: cfg.chainId, verified: false })) };
  }
  lastLook = { nodes, entry: g.__lanternEvmNodes };
  return g.__lanternEvmNodes.nodes;
}

function handle(s: NodeState): EvmNode {
  if (!s.node) {
    const chain = chainOrCustom(s.chainId!);
    const breaker = evmNodeBreaker(chain, s.cfg.url);
    s.node = {
      chain,
      variable: s.cfg.variable,
      host: s.host,
      breaker,
      batched: createPublicClient({ transport: rpcTransport(s.cfg.url, breaker, { batch: { batchSize: 100 } }) }),
      single: createPublicClient({ transport: rpcTransport(s.cfg.url, breaker) }),
      wsUrl: s.cfg.wsUrl,
    };
  }
  return s.node;
}

const described = (c: Chain) => `${c.name} (${c.hex})`;

function refuse(s: NodeState, why: string): void {
  if (s.refused) return;
  s.refused = why;
  log().error({ variable: s.cfg.variable, host: s.host }, `EVM node refused: ${why}`);
}

/** Asks the node its chain id: through its breaker when the chain is known, else a plain bounded call. */
async function askChainId(s: NodeState): Promise<number> {
  if (s.chainId !== null) return Number(await handle(s).single.request({ method: 'eth_chainId' }));
  const res = await fetch(s.cfg.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}',
    signal: AbortSignal.timeout(config().upstreamTimeoutMs),
    cache: 'no-store',
  });
  const body = (await res.json().catch(() => ({}))) as { result?: unknown };
  const id = typeof body.result === 'string' ? Number(body.result) : NaN;
  if (!Number.isSafeInteger(id) || id <= 0) throw new Error(`no chain id (HTTP ${res.status})`);
  return id;
}

/** Checks (or finds) the node's chain once; a failure to reach it leaves it to be checked again. */
function check(s: NodeState, all: NodeState[]): Promise<void> {
  if (s.verified || s.refused) return Promise.resolve();
  s.checking ??= (async () => {
    try {
      const id = await askChainId(s);
      if (s.chainId === null) {
        const other = all.find((o) => o !== s && o.chainId === id);
        if (other) {
          refuse(s, `${s.cfg.variable}: the node at ${s.host} serves ${described(chainOrCustom(id))}, which ${other.cfg.variable} already names: name one node per chain`);
          return;
        }
        s.chainId = id;
      } else if (id !== s.chainId) {
        refuse(s, `${s.cfg.variable}: the node at ${s.host} serves ${described(chainOrCustom(id))}, not ${described(chainOrCustom(s.chainId))}`);
        return;
      }
      s.verified = true;
      s.failedAt = undefined;
    } catch (e) {
      s.failedAt = Date.now();
      throw e;
    } finally {
      s.checking = undefined;
    }
  })();
  return s.checking;
}

/** The 503 of a refused node: the server runs, but this chain cannot be read until the configuration is fixed. */
function refusedError(s: NodeState): LanternError {
  return new LanternError(503, 'upstream_misconfigured', `This Lantern's node for that chain is refused: ${s.refused}. Fix the configuration and restart.`, {
    source: `evm-node:${s.cfg.variable}`,
  });
}

/**
 * The node of chain `chainId`, checked against the chain its configuration names (once per process,
 * through its breaker). Throws the node's 503 when it cannot be reached to be checked, and a 503
 * naming the misconfiguration when it serves another chain.
 */
export async function evmNode(chainId: number): Promise<EvmNode> {
  const all = states();
  const s = all.find((x) => x.chainId === chainId && !x.refused) ?? all.find((x) => x.chainId === chainId);
  if (!s) throw new LanternError(500, 'internal_error', `No EVM node is configured for chain ${chainId}.`);
  if (!s.verified && !s.refused) await check(s, all).catch((e) => Promise.reject(unreachable(s, e)));
  if (s.refused) throw refusedError(s);
  return handle(s);
}

/** Why a node could not be checked, as the node's own failures read (rpc.ts): its breaker's 503, a timeout, or unreachable. */
function unreachable(s: NodeState, e: unknown): LanternError {
  const open = breakerOpenInChain(e);
  if (open) return open;
  const node = handle(s);
  const timedOut = !!(e as { walk?: (f: (x: unknown) => boolean) => unknown }).walk?.((x) => (x as { name?: string }).name === 'TimeoutError');
  return timedOut
    ? new LanternError(504, 'upstream_timeout', `The ${node.chain.label} node did not answer eth_chainId in time.`, { source: node.breaker.source })
    : new LanternError(503, 'upstream_unavailable', `The ${node.chain.label} node could not be reached (eth_chainId).`, { retryAfter: 5, source: node.breaker.source });
}

/** The node of chain `chainId` when it is checked and ready, at once (no call); undefined otherwise. */
export function evmNodeReady(chainId: number): EvmNode | undefined {
  const s = states().find((x) => x.chainId === chainId && x.verified && !x.refused);
  return s ? handle(s) : undefined;
}

/**
 * The chains the configured nodes serve, and the nodes that have not said which yet (EVM_RPC_URL down).
 * A node not heard from is asked again (at most once per probe interval), waited for at most
 * `waitMs`. Refused nodes serve nothing.
 */
export async function evmNodeChains(waitMs = 1500): Promise<{ chains: { chain: Chain; variable: string; host: string }[]; pending: string[] }> {
  const all = states();
  const interval = config().upstreamProbeIntervalMs;
  const unknown = all.filter((s) => s.chainId === null && !s.refused);
  const asking = unknown
    .filter((s) => s.checking || s.failedAt === undefined || Date.now() - s.failedAt >= interval)
    .map((s) => check(s, all).catch(() => undefined));
  if (asking.length > 0) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(asking), new Promise((r) => (timer = setTimeout(r, waitMs)))]).finally(() => clearTimeout(timer));
  }
  return {
    // A node refused for serving another chain than named still stands for its chain: requests for it get its 503.
    chains: all.filter((s) => s.chainId !== null).map((s) => ({ chain: chainOrCustom(s.chainId!), variable: s.cfg.variable, host: s.host })),
    pending: all.filter((s) => s.chainId === null && !s.refused).map((s) => `${s.cfg.variable} (${s.host})`),
  };
}

/** Every configured node as health reports it: by chain when known, else by the variable naming it. */
export function evmNodeList(): { key: string; chain: Chain | null; variable: string; host: string; node: EvmNode | null; refused: string | null }[] {
  return states().map((s) => ({
    key: s.chainId !== null ? chainOrCustom(s.chainId).name : s.cfg.variable,
    chain: s.chainId !== null ? chainOrCustom(s.chainId) : null,
    variable: s.cfg.variable,
    host: s.host,
    node: s.chainId !== null && !s.refused ? handle(s) : null,
    refused: s.refused ?? null,
  }));
}

/**
 * Start-up: every node is asked its chain id (in parallel, each within `waitMs`). Answers the refusals
 * (the server must not start: a node of another chain than named, two nodes for one chain) and the
 * nodes that did not answer (checked on first use).
 */
export async function checkEvmNodes(waitMs: number): Promise<{ refused: string[]; unreachable: string[] }> {
  const all = states();
  const unreachable: string[] = [];
  await Promise.all(
    all.map(async (s) => {
      let timer: NodeJS.Timeout | undefined;
      const answered = await Promise.race([
        check(s, all).then(
          () => true,
          () => false,
        ),
        new Promise<false>((r) => (timer = setTimeout(() => r(false), waitMs))),
      ]).finally(() => clearTimeout(timer));
      if (!answered && !s.refused) unreachable.push(`${s.cfg.variable} (${s.host})`);
    }),
  );
  return { refused: all.filter((s) => s.refused).map((s) => s.refused!), unreachable };
}
