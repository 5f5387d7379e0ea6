import 'server-only';
import { blockSchema, serializeBlock, type LedgerBlock, type LedgerNetworkName } from '@/lib/interface/ledger';
import { redis } from './redis';

/**
 * The ledger block cache, indexed by version range (lib/operations/ledger-block.ts asks it).
 *
 * A committed block never changes, so a block fetched once is kept in-process (an LRU bounded
 * by the size of its JSON) and answered from there on repeat, with no upstream call. The cache is
 * indexed by version range per network, so any version inside a cached block hits. A block fetched with
 * its transactions also answers requests without them. Errors are never cached. Concurrent identical
 * lookups share one upstream request.
 * With REDIS_URL set, blocks are also kept in Redis (forever: they never change), indexed by version
 * range in a sorted set, so every instance answers a block any instance has fetched.
 */

const MAX_CACHE_CHARS = 96 * 1024 * 1024; // ~ JSON characters kept; the parsed objects cost a similar amount again

interface Entry {
  network: LedgerNetworkName;
  first: bigint;
  last: bigint;
  block: LedgerBlock;
  /** Interface JSON, serialised once on demand: with and without transactions. */
  json: { with?: string; without?: string };
  size: number;
}

interface CacheState {
  lru: Map<string, Entry>; // key `${network}:${height}`, in use order (oldest first)
  ranges: Record<LedgerNetworkName, Entry[]>; // sorted by first version
  chars: number;
  inflight: Map<string, Promise<LedgerBlock>>;
}

// One cache per process, kept on globalThis so dev-mode module reloads share it.
const g = globalThis as unknown as { __lanternLedgerCache?: CacheState };
const state = (): CacheState =>
  (g.__lanternLedgerCache ??= { lru: new Map(), ranges: { mainnet: [], testnet: [], local: [] }, chars: 0, inflight: new Map() });

function lookup(network: LedgerNetworkName, v: bigint, withTransactions: boolean): Entry | undefined {
  const s = state();
  const list = s.ranges[network];
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const e = list[mid];
    if (v < e.first) hi = mid - 1;
    else if (v > e.last) lo = mid + 1;
    else {
      if (withTransactions && !e.block.transactions) return undefined;
      const key = `${network}:${e.block.height}`;
      s.lru.delete(key);
      s.lru.set(key, e); // most recently used
      return e;
    }
  }
  return undefined;
}

function store(network: LedgerNetworkName, block: LedgerBlock): Entry {
  const s = state();
  const key = `${network}:${block.height}`;
  const existing = s.lru.get(key);
  if (existing) {
    if (existing.block.transactions || !block.transactions) return existing;
    remove(key, existing); // upgrade to the copy with transactions
  }
  const withJson = JSON.stringify(serializeBlock(block));
  const entry: Entry = {
    network,
    first: BigInt(block.firstVersion),
    last: BigInt(block.lastVersion),
    block,
    json: block.transactions ? { with: withJson } : { without: withJson },
    size: withJson.length,
  };
  const list = s.ranges[network];
  let i = 0;
  while (i < list.length && list[i].first < entry.first) i++;
  list.splice(i, 0, entry);
  s.lru.set(key, entry);
  s.chars += entry.size;
  for (const [k, e] of s.lru) {
    if (s.chars <= MAX_CACHE_CHARS || k === key) break;
    remove(k, e);
  }
  return entry;
}

function remove(key: string, e: Entry) {
  const s = state();
  s.lru.delete(key);
  const list = s.ranges[e.network];
  const i = list.indexOf(e);
  if (i >= 0) list.splice(i, 1);
  s.chars -= e.size;
}

/** Where a missed block comes from: the ledger source the operation picked for the network. */
export interface BlockLoader {
  load(version: string, withTransactions: boolean): Promise<LedgerBlock>;
  /** Throws the source's 503 at once when it is known to be down or being probed. */
  assertAvailable(): void;
}

async function entryFor(network: LedgerNetworkName, v: bigint, withTransactions: boolean, loader: BlockLoader): Promise<Entry> {
  const hit = lookup(network, v, withTransactions);
  if (hit) return hit;
  const s = state();
  const key = `${network}:${v}:${withTransactions}`;
  let pending = s.inflight.get(key);
  // Never queue behind a lookup that may be the breaker's probe of a stalled node: answer 503 at once.
  if (pending) loader.assertAvailable();
  if (!pending) {
    pending = (async () => {
      const shared = await sharedLookup(network, v, withTransactions);
      if (shared) return shared;
      const block = await loader.load(v.toString(), withTransactions);
      await sharedStore(network, block);
      return block;
    })().finally(() => s.inflight.delete(key));
    s.inflight.set(key, pending);
  }
  return store(network, await pending);
}

// Redis tier. Scores are first versions: exact as doubles up to 2^53, far above any ledger's height.
const rangesKey = (network: LedgerNetworkName) => `lantern:ledger:${network}:ranges`;
const blockKey = (network: LedgerNetworkName, height: string, withTransactions: boolean) =>
  `lantern:ledger:${network}:block:${height}:${withTransactions ? 'with' : 'without'}`;

async function sharedLookup(network: LedgerNetworkName, v: bigint, withTransactions: boolean): Promise<LedgerBlock | undefined> {
  const r = await redis();
  if (!r) return undefined;
  try {
    const [member] = await r.zrevrangebyscore(rangesKey(network), v.toString(), '-inf', 'LIMIT', 0, 1);
    if (!member) return undefined;
    const [height, last] = member.split(':');
    if (BigInt(last) < v) return undefined;
    const text = (await r.get(blockKey(network, height, true))) ?? (withTransactions ? null : await r.get(blockKey(network, height, false)));
    if (!text) return undefined;
    const parsed = blockSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined; // Redis down or an unreadable entry: ask the node
  }
}

async function sharedStore(network: LedgerNetworkName, block: LedgerBlock): Promise<void> {
  const r = await redis();
  if (!r) return;
  try {
    const withTransactions = !!block.transactions;
    await r
      .multi()
      .set(blockKey(network, block.height, withTransactions), JSON.stringify(serializeBlock(block, withTransactions)))
      .zadd(rangesKey(network), block.firstVersion, `${block.height}:${block.lastVersion}`)
      .exec();
  } catch {
    // Redis down: this instance still keeps the block in process
  }
}

/** The block holding version `v` on `network`; from the cache when any request has fetched it before. */
export async function cachedBlock(network: LedgerNetworkName, v: bigint, withTransactions: boolean, loader: BlockLoader): Promise<LedgerBlock> {
  const e = await entryFor(network, v, withTransactions, loader);
  if (!withTransactions && e.block.transactions) return { ...e.block, transactions: undefined };
  return e.block;
}

/** The same block as the interface's JSON text, serialised once per block and reused (the API's fast path). */
export async function cachedBlockJson(network: LedgerNetworkName, v: bigint, withTransactions: boolean, loader: BlockLoader): Promise<string> {
  const e = await entryFor(network, v, withTransactions, loader);
  if (withTransactions) return (e.json.with ??= JSON.stringify(serializeBlock(e.block)));
  return (e.json.without ??= JSON.stringify(serializeBlock(e.block, false)));
}

/**
 * The block holding version `v` if this instance (or, with Redis, any instance) has it already; never
 * asks the node. For what must not wait on a node (a page's metadata during a navigation).
 */
export async function cachedBlockOnly(network: LedgerNetworkName, v: bigint): Promise<LedgerBlock | undefined> {
  const hit = lookup(network, v, false);
  if (hit) return hit.block.transactions ? { ...hit.block, transactions: undefined } : hit.block;
  const shared = await sharedLookup(network, v, false);
  if (!shared) return undefined;
  const e = store(network, shared);
  return e.block.transactions ? { ...e.block, transactions: undefined } : e.block;
}
