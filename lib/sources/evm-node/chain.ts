import 'server-only';
import { db, type Queryable } from '@/lib/db';
import { log } from '@/lib/log';
import { evmNode, evmNodeReady } from '@/lib/sources/evm-nodes';
import { headInfo, hexNum, noteHead, rpc, sharedHeadNow, type HeadInfo } from './rpc';

/**
 * Is each chain's node still on the chain Lantern indexed? Everything in the evm_* tables is read from blocks
 * that a reorg, an `anvil_rollback` or a devnet restarted from scratch can take away. Lantern notices:
 *
 * - the head: read as a block (number, hash, parent hash; rpc.ts headInfo, shared for a second), so a
 *   head replaced at the same height is as visible as a new one. Nothing more is done while the head is
 *   the one this instance last checked: no cost per request;
 * - when the head changed, the newest checkpoint (the hash of a head Lantern saw, kept in
 *   evm_chain_checkpoint) is compared with the node: free when the new head is the checkpoint itself
 *   or its child (parent hash), else one eth_getBlockByNumber. A checkpoint above the head means the
 *   head went backwards;
 * - when it does not hold: the genesis hash (a different one means another chain with the same id:
 *   everything goes), else a binary search over the checkpoints for the newest one the node still has.
 *   Blocks after it (the fork) are dropped. The search costs one call per halving (about 8 for 256).
 *
 * Dropped at a fork F (one transaction, under the chain's row lock): activity rows and the spans read
 * above F (history and chain scans read those blocks again), kept transaction facts and block times above F, SELFDESTRUCT rows,
 * NFT balances and jobs of every owner indexed past F (re-indexed from scratch in the background: the
 * balances are sums, not events), token facts and token URIs read after block F was seen (their
 * contract may not exist any more, or be another one), checkpoints above F. The epoch grows by one.
 *
 * The epoch is in every cache key of a page (lib/operations), and each instance reads it from the
 * database whenever it sees a new head, so on one instance or many a page of the old chain is not
 * served again once an instance has seen the new head (within EVM_HEAD_TTL_MS). Writers that index
 * (activity.ts, nfts.ts) hold the epoch they started under and commit only while it is still current
 * (assertEpoch), so a scan that overlapped the change cannot write the old chain back.
 */

export class ChainChangedError extends Error {
  constructor() {
    super('The EVM node changed chains while this was being indexed.');
  }
}

interface Verified {
  number: number;
  hash: string;
  epoch: number;
}

const KEEP_RECENT = 256;
const BUCKET = 4096;

const g = globalThis as unknown as {
  __lanternChain?: { verified: Map<number, Verified>; checks: Map<string, Promise<Verified>>; listeners: Set<(chainId: number) => void>; genesisChecked: Set<number> };
};
const st = (g.__lanternChain ??= { verified: new Map(), checks: new Map(), listeners: new Set(), genesisChecked: new Set() });

/** Process memory that describes the chain (kept facts, block times) registers here to be forgotten on a change. */
export function onChainChange(fn: (chainId: number) => void): void {
  st.listeners.add(fn);
}

/** The chain's head, checked against what Lantern indexed, and the chain's epoch (for cache keys and writers). */
export async function chainHead(chainId: number): Promise<{ chainId: number; head: number; hash: string; epoch: number }> {
  return checked(chainId, await headInfo(chainId));
}

async function checked(chainId: number, latest: HeadInfo): Promise<{ chainId: number; head: number; hash: string; epoch: number }> {
  const v = st.verified.get(chainId);
  if (v && v.number === latest.number && v.hash === latest.hash) return { chainId, head: v.number, hash: v.hash, epoch: v.epoch };
  const key = `${chainId}:${latest.number}:${latest.hash}`;
  let p = st.checks.get(key);
  if (!p) {
    p = verify(chainId, latest).finally(() => st.checks.delete(key));
    st.checks.set(key, p);
  }
  const now = await p;
  return { chainId, head: now.number, hash: now.hash, epoch: now.epoch };
}

/**
 * A head pushed by the node (lib/live's head follower) or followed by another instance: checked as
 * chainHead checks the head it reads (against its parent, a checkpoint, the genesis; a fork drops what
 * came after it and raises the epoch), and from then on this instance's head, so pages read at it at once.
 */
export async function checkHead(chainId: number, head: HeadInfo): Promise<{ chainId: number; head: number; hash: string; epoch: number }> {
  await evmNode(chainId); // refused (a 400/503 naming the chain) where no node serves it
  noteHead(chainId, head);
  return checked(chainId, head);
}

/** A head another instance followed and checked: this instance's head from now on (checked again when a page reads it). */
export async function heardHead(chainId: number, head: HeadInfo): Promise<void> {
  if (evmNodeReady(chainId)) noteHead(chainId, head, true);
}

/** The epochs after `epoch` of a chain: where each began (its fork block) and whether its dropped rows were kept. */
export async function forksSince(chainId: number, epoch: number): Promise<{ epoch: number; fork: number; logged: boolean }[]> {
  const { rows } = await (await db()).query<{ epoch: number; fork_block: string; removed_logged: boolean }>(
    'SELECT epoch, fork_block, removed_logged FROM evm_chain_fork WHERE chain_id = $1 AND epoch > $2 ORDER BY epoch',
    [chainId, epoch],
  );
  return rows.map((r) => ({ epoch: r.epoch, fork: Number(r.fork_block), logged: r.removed_logged }));
}

/** Transactions of the wallet that forks after `epoch` dropped from its history (kept a day). */
export async function removedSince(chainId: number, address: string, epoch: number): Promise<string[]> {
  const { rows } = await (await db()).query<{ tx_hash: string }>(
    'SELECT DISTINCT tx_hash FROM evm_reorg_removed WHERE chain_id = $1 AND address = $2 AND epoch > $3 ORDER BY tx_hash',
    [chainId, address.toLowerCase(), epoch],
  );
  return rows.map((r) => r.tx_hash);
}

/**
 * chainHead, sure to agree with the database: when another instance changed the epoch within this
 * one's head-sharing second, look again at a fresh head. For background writers (NFT jobs).
 */
export async function currentChain(chainId: number): Promise<{ chainId: number; head: number; hash: string; epoch: number }> {
  const c = await chainHead(chainId);
  const { rows } = await (await db()).query<{ epoch: number }>('SELECT epoch FROM evm_chain_state WHERE chain_id = $1', [c.chainId]);
  if (!rows[0] || rows[0].epoch === c.epoch) return c;
  forget(c.chainId);
  await headInfo(chainId, true);
  return chainHead(chainId);
}

/** This instance's view of the chain is stale: the next chainHead checks again. */
function forget(chainId: number) {
  st.verified.delete(chainId);
}

/** A short mark of the chain and head for cache keys: `e<epoch>@<head>`. */
export async function chainMark(chainId: number): Promise<{ epoch: string; head: string }> {
  const { head, epoch } = await chainHead(chainId);
  return { epoch: `e${epoch}`, head: `e${epoch}@${head}` };
}

/**
 * The mark chainMark would give now, without asking the node or the database, or undefined when it
 * cannot say at once (no fresh shared head, one not checked yet, the node's breaker not closed).
 */
export function chainMarkNow(chainId: number): { epoch: string; head: string } | undefined {
  const latest = sharedHeadNow(chainId);
  const v = latest && st.verified.get(chainId);
  if (!v || v.number !== latest.number || v.hash !== latest.hash) return undefined;
  return { epoch: `e${v.epoch}`, head: `e${v.epoch}@${v.number}` };
}

/** Inside a writer's transaction: go on only while the chain is the one the writer started on. */
export async function assertEpoch(tx: Queryable, chainId: number, epoch: number): Promise<void> {
  const { rows } = await tx.query<{ epoch: number }>('SELECT epoch FROM evm_chain_state WHERE chain_id = $1 FOR SHARE', [chainId]);
  if (rows[0] && rows[0].epoch !== epoch) {
    forget(chainId);
    void headInfo(chainId, true).catch(() => undefined);
    throw new ChainChangedError();
  }
}

async function blockHash(chainId: number, n: number): Promise<string | null> {
  const b = await rpc<{ hash: string } | null>(chainId, 'eth_getBlockByNumber', [hexNum(n), false]);
  return b ? b.hash.toLowerCase() : null;
}

async function verify(chainId: number, seen: HeadInfo): Promise<Verified> {
  let latest = seen;
  const d = await db();
  for (let attempt = 0; ; attempt++) {
    const { rows: state } = await d.query<{ genesis_hash: string; epoch: number }>('SELECT genesis_hash, epoch FROM evm_chain_state WHERE chain_id = $1', [chainId]);
    const { rows: cps } = await d.query<{ number: string; hash: string }>(
      'SELECT number, hash FROM evm_chain_checkpoint WHERE chain_id = $1 ORDER BY number DESC LIMIT 1',
      [chainId],
    );
    const top = cps[0] ? { number: Number(cps[0].number), hash: cps[0].hash } : undefined;
    let fork: number | undefined; // the newest block that still holds; -1: nothing does (another genesis)
    let genesis = state[0]?.genesis_hash;
    if (!state[0] || !st.genesisChecked.has(chainId)) {
      // Once per process (and for a chain never seen): a node restarted on another genesis under the same id.
      const now = await blockHash(chainId, 0);
      if (!now) throw new Error('The EVM node has no genesis block');
      if (state[0] && now !== state[0].genesis_hash) fork = -1;
      genesis = now;
    }
    if (fork === undefined && top && !(await holds(chainId, top, latest))) {
      // Before concluding, make sure `latest` is not this instance's shared head of a second ago.
      const fresh = await headInfo(chainId, true);
      if (fresh.hash !== latest.hash) {
        latest = fresh;
        if (await holds(chainId, top, latest)) continue;
      }
      const now = await blockHash(chainId, 0);
      fork = now !== genesis ? -1 : await newestHeld(d, chainId, Math.min(top.number, latest.number));
      genesis = now ?? genesis;
    }
    const applied = await d.transaction(async (tx) => {
      const { rows } = await tx.query<{ epoch: number }>('SELECT epoch FROM evm_chain_state WHERE chain_id = $1 FOR UPDATE', [chainId]);
      if (!rows[0]) {
        await tx.query('INSERT INTO evm_chain_state (chain_id, genesis_hash, epoch) VALUES ($1, $2, 1) ON CONFLICT DO NOTHING', [chainId, genesis]);
      } else if (state[0] && rows[0].epoch !== state[0].epoch) {
        return undefined; // another instance changed it meanwhile: look again
      }
      let epoch = rows[0]?.epoch ?? 1;
      if (fork !== undefined) {
        epoch += 1;
        await recordFork(tx, chainId, fork, epoch);
        await dropAfter(tx, chainId, fork);
        await tx.query('UPDATE evm_chain_state SET epoch = $2, genesis_hash = $3, last_fork = $4, changed_at = now() WHERE chain_id = $1', [chainId, epoch, genesis, fork]);
      }
      await tx.query(
        `INSERT INTO evm_chain_checkpoint (chain_id, number, hash) VALUES ($1, $2, $3)
         ON CONFLICT (chain_id, number) DO UPDATE SET hash = EXCLUDED.hash,
           seen_at = CASE WHEN evm_chain_checkpoint.hash = EXCLUDED.hash THEN evm_chain_checkpoint.seen_at ELSE now() END`,
        [chainId, latest.number, latest.hash],
      );
      // Dense near the head, then the oldest checkpoint of each 4096-block bucket.
      await tx.query(
        `DELETE FROM evm_chain_checkpoint c WHERE c.chain_id = $1
           AND c.number < (SELECT min(number) FROM (SELECT number FROM evm_chain_checkpoint WHERE chain_id = $1 ORDER BY number DESC LIMIT ${KEEP_RECENT}) t)
           AND c.number > (SELECT min(number) FROM evm_chain_checkpoint b WHERE b.chain_id = $1 AND b.number / ${BUCKET} = c.number / ${BUCKET})`,
        [chainId],
      );
      return epoch;
    });
    if (applied === undefined && attempt < 3) continue;
    const epoch = applied ?? (await d.query<{ epoch: number }>('SELECT epoch FROM evm_chain_state WHERE chain_id = $1', [chainId])).rows[0].epoch;
    st.genesisChecked.add(chainId);
    const before = st.verified.get(chainId);
    const v = { number: latest.number, hash: latest.hash, epoch };
    st.verified.set(chainId, v);
    if (fork !== undefined) {
      const after = fork < 0 ? 'genesis (another genesis)' : `block ${fork}`;
      log().warn({ chainId, fork, epoch }, `EVM chain ${chainId}: the node no longer has the blocks Lantern indexed after ${after}; dropped them (epoch ${epoch}).`);
    }
    if (!before || before.epoch !== epoch) for (const fn of st.listeners) fn(chainId);
    return v;
  }
}

/** Whether checkpoint `top` is still on the node's chain, given its latest block. */
async function holds(chainId: number, top: { number: number; hash: string }, latest: HeadInfo): Promise<boolean> {
  if (top.number === latest.number) return top.hash === latest.hash;
  if (top.number === latest.number - 1) return top.hash === latest.parentHash;
  if (top.number > latest.number) return false; // the head went backwards
  return (await blockHash(chainId, top.number)) === top.hash;
}

/** The newest checkpoint at or below `below` that the node still has (0 when none: re-index all). */
async function newestHeld(d: Queryable, chainId: number, below: number): Promise<number> {
  const { rows } = await d.query<{ number: string; hash: string }>('SELECT number, hash FROM evm_chain_checkpoint WHERE chain_id = $1 AND number <= $2 ORDER BY number', [chainId, below]);
  const cps = rows.map((r) => ({ number: Number(r.number), hash: r.hash }));
  // Blocks commit to their parents: once one checkpoint holds, all below it do. Binary search.
  let lo = 0;
  let hi = cps.length - 1;
  let best = 0;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((await blockHash(chainId, cps[mid].number)) === cps[mid].hash) {
      best = cps[mid].number;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best;
}

/** Most activity rows a fork's record keeps (a stream resuming across a bigger one starts over). */
const MAX_REMOVED_LOGGED = 10_000;

/**
 * Before the drop: which epoch began after which block, and the wallets' rows it is about to drop, so a
 * live stream that resumes from the old epoch can name the transactions that are gone (lib/live).
 */
async function recordFork(tx: Queryable, chainId: number, fork: number, epoch: number): Promise<void> {
  let logged = false;
  if (fork >= 0) {
    const { rows } = await tx.query<{ n: string }>(
      `SELECT count(*) AS n FROM (SELECT 1 FROM evm_wallet_activity WHERE chain_id = $1 AND block_number > $2 LIMIT ${MAX_REMOVED_LOGGED + 1}) t`,
      [chainId, fork],
    );
    logged = Number(rows[0]!.n) <= MAX_REMOVED_LOGGED;
    if (logged) {
      await tx.query(
        `INSERT INTO evm_reorg_removed (chain_id, epoch, address, tx_hash, block_number, tx_index)
         SELECT chain_id, $3, address, tx_hash, block_number, tx_index FROM evm_wallet_activity WHERE chain_id = $1 AND block_number > $2
         ON CONFLICT DO NOTHING`,
        [chainId, fork, epoch],
      );
    }
  }
  await tx.query(
    `INSERT INTO evm_chain_fork (chain_id, epoch, fork_block, removed_logged) VALUES ($1, $2, $3, $4)
     ON CONFLICT (chain_id, epoch) DO UPDATE SET fork_block = EXCLUDED.fork_block, removed_logged = EXCLUDED.removed_logged, at = now()`,
    [chainId, epoch, fork, logged],
  );
  await tx.query("DELETE FROM evm_chain_fork WHERE chain_id = $1 AND at < now() - interval '1 day'", [chainId]);
  await tx.query("DELETE FROM evm_reorg_removed WHERE chain_id = $1 AND at < now() - interval '1 day'", [chainId]);
}

/** Drops what was read from blocks after `fork` (-1: from every block). */
async function dropAfter(tx: Queryable, chainId: number, fork: number): Promise<void> {
  const p = [chainId, fork];
  await tx.query('DELETE FROM evm_wallet_activity WHERE chain_id = $1 AND block_number > $2', p);
  // What was read (spans of wallets and of chain scans) ends at the fork: the blocks after it are read again.
  await tx.query('DELETE FROM evm_span WHERE chain_id = $1 AND lo > $2', p);
  await tx.query('UPDATE evm_span SET hi = $2 WHERE chain_id = $1 AND hi > $2', p);
  await tx.query('DELETE FROM evm_tx WHERE chain_id = $1 AND block_number > $2', p);
  await tx.query('DELETE FROM evm_block WHERE chain_id = $1 AND number > $2', p);
  await tx.query('DELETE FROM evm_selfdestruct WHERE chain_id = $1 AND block_number > $2', p);
  await tx.query('DELETE FROM evm_tx_party WHERE chain_id = $1 AND block_number > $2', p);
  await tx.query('DELETE FROM evm_wallet_log WHERE chain_id = $1 AND block_number > $2', p);
  // NFT balances are sums over the owner's transfers: an owner indexed past the fork starts over (its
  // next listing claims a new job). A job still running elsewhere stops at its next commit (assertEpoch).
  const owners = 'SELECT owner FROM evm_nft_sync WHERE chain_id = $1 AND synced_to > $2';
  await tx.query(`DELETE FROM evm_nft_balance WHERE chain_id = $1 AND owner IN (${owners})`, p);
  await tx.query('DELETE FROM evm_nft_sync WHERE chain_id = $1 AND synced_to > $2', p);
  // Token facts are read at the head of their time: those read once block `fork` was seen (a minute's
  // margin between instances' clocks) may describe a contract that the node no longer has.
  const since =
    fork < 0
      ? null
      : ((await tx.query<{ seen_at: Date }>('SELECT seen_at FROM evm_chain_checkpoint WHERE chain_id = $1 AND number = $2', p)).rows[0]?.seen_at ?? null);
  const recent = since === null ? 'TRUE' : `checked_at >= $2::timestamptz - interval '60 seconds'`;
  const sp = since === null ? [chainId] : [chainId, since];
  await tx.query(`DELETE FROM evm_token WHERE chain_id = $1 AND ${recent}`, sp);
  await tx.query(`DELETE FROM evm_nft_token WHERE chain_id = $1 AND ${since === null ? 'TRUE' : `synced_at >= $2::timestamptz - interval '60 seconds'`}`, sp);
  // A fetch outcome belongs to a token URI read from the chain: gone with it.
  await tx.query(
    `DELETE FROM evm_nft_metadata_fetch f WHERE f.chain_id = $1
       AND NOT EXISTS (SELECT 1 FROM evm_nft_token t WHERE t.chain_id = f.chain_id AND t.token_address = f.token_address AND t.token_id = f.token_id)`,
    [chainId],
  );
  await tx.query('DELETE FROM evm_chain_checkpoint WHERE chain_id = $1 AND number > $2', p);
  // Another chain under the same id (a restarted devnet): its addresses hold other contracts.
  if (fork < 0) await tx.query('DELETE FROM evm_verified_abi WHERE chain_id = $1', [chainId]);
}
