import 'server-only';
import { ZERO_ADDRESS } from '@/lib/format';
import type { Chain } from '@/lib/chains';
import { db } from '@/lib/db';
import { log } from '@/lib/log';
import { badParameter } from '@/lib/errors';
import type { NftItem, NftPage, NftQuery } from '@/lib/interface/nfts';
import { queryBinding, readCursor, signCursor } from './cursor';
import { TOPIC_TRANSFER, getLogsRange, parseTransferLog, transferFilters, type NftMove } from './logs';
import { mediaFor, normaliseMetadata, tokenMetaMany } from './metadata';
import { scheduleMetadataFetch } from './metadata-fetch';
import { ChainChangedError, assertEpoch, chainHead, currentChain } from './chain';
import { inBackground } from './rpc';
import { tokenFactsKept, tokenFactsMany } from './tokens';

/**
 * NFTs a wallet owns now, from its ERC-721 Transfer and ERC-1155 TransferSingle/TransferBatch logs.
 *
 * Indexing is one job per (chain, owner), claimed with a database row (INSERT ... ON CONFLICT DO
 * NOTHING, or an UPDATE that only one caller can win), so two concurrent first requests, on one
 * instance or several, start one job. The job runs in the background: the first request answers
 * SYNCING with what is known so far. Progress (`synced_to`) is committed with each block span's
 * balance changes, so a restart resumes where it stopped; a job whose heartbeat is older than a
 * minute (its process died) is taken over by the next request. Once SYNCED, later requests first
 * catch up with the blocks that arrived since, inline. When the node leaves the chain a job indexed
 * (chain.ts), the owner's balances and job row are dropped and the next request starts over; a job
 * of the old chain stops at its next commit (assertEpoch) and leaves the new job's row alone.
 */

const SPAN = 20_000;
const STALE_SECONDS = 60;
const INLINE_CATCH_UP_BLOCKS = 5_000;
/**
 * A never-seen wallet's first answer waits this long for its indexing job: a small chain is indexed well
 * within it, so the person sees the NFTs at once rather than an empty SYNCING page; a long one answers
 * SYNCING with what is known by then, and the page follows.
 */
const FIRST_ANSWER_WAIT_MS = 1_000;

const jobs = new Map<string, Promise<void>>();

/** The price fields of an NFT (the reference OpenAPI's NFT item), as node mode answers them: unknown. */
const NO_PRICES = { floor_price: null, floor_price_usd: null, floor_price_currency: null, last_sale: null } as const;

interface SyncRow {
  status: 'running' | 'synced' | 'failed';
  synced_to: string;
}

export async function nodeWalletNfts(address: string, chain: Chain, query: NftQuery): Promise<NftPage> {
  const owner = address.toLowerCase();
  const filter = [...new Set(query.token_addresses.map((a) => a.toLowerCase()))].sort();
  const binding = queryBinding(['nfts', chain.id, owner, filter, query.exclude_spam]);
  let after: { token: string; id: string; page: number } | undefined;
  if (query.cursor) {
    const [token, id, page] = readCursor(query.cursor, binding);
    if (typeof token !== 'string' || typeof id !== 'string' || !/^\d{1,78}$/.test(id) || !Number.isSafeInteger(page)) {
      throw badParameter('cursor', 'cursor: it cannot be read');
    }
    after = { token, id, page: page as number };
  }

  let status = await ensureNftSync(chain.id, owner);
  if (status === 'SYNCING' && (await jobDone(`${chain.id}:${owner}`, FIRST_ANSWER_WAIT_MS))) status = await ensureNftSync(chain.id, owner);
  // Off-chain metadata that is due (never fetched, or a failure whose retry time passed) is fetched
  // in the background; this answer shows what is known now.
  if (status === 'SYNCED') scheduleMetadataFetch(chain.id, owner);
  const limit = query.limit ?? 100;
  const where = ['b.chain_id = $1', 'b.owner = $2', 'b.amount > 0'];
  const params: unknown[] = [chain.id, owner];
  if (filter.length > 0) {
    params.push(filter);
    where.push(`b.token_address = ANY($${params.length})`);
  }
  if (query.exclude_spam) {
    where.push('NOT EXISTS (SELECT 1 FROM evm_token t WHERE t.chain_id = b.chain_id AND t.address = b.token_address AND t.possible_spam)');
    // Token facts read by another answer may still be on their way to evm_token (tokens.ts): this reads them.
    await tokenFactsKept(chain.id);
  }
  const countWhere = where.join(' AND ');
  if (after) {
    params.push(after.token, after.id);
    where.push(`(b.token_address, b.token_id) > ($${params.length - 1}, $${params.length}::numeric)`);
  }
  const d = await db();
  const [{ rows }, { rows: counted }] = await Promise.all([
    d.query<{ token_address: string; token_id: string; contract_type: string; amount: string; block_number: string; block_number_minted: string | null }>(
      `SELECT b.token_address, b.token_id::text AS token_id, b.contract_type, b.amount::text AS amount, b.block_number, b.block_number_minted
       FROM evm_nft_balance b WHERE ${where.join(' AND ')} ORDER BY b.token_address, b.token_id LIMIT ${limit + 1}`,
      params,
    ),
    d.query<{ n: string }>(`SELECT count(*) AS n FROM evm_nft_balance b WHERE ${countWhere}`, params.slice(0, filter.length > 0 ? 3 : 2)),
  ]);
  const pageRows = rows.slice(0, limit);
  const standard = (t: string) => (t === 'ERC721' ? 'erc721' : 'erc1155') as 'erc721' | 'erc1155';
  const [facts, meta] = await Promise.all([
    tokenFactsMany(chain.id, [...new Set([...pageRows.map((r) => r.token_address), ...filter])].map((a) => ({ address: a, hint: 'unknown' as const }))),
    tokenMetaMany(chain.id, pageRows.map((r) => ({ contract: r.token_address, tokenId: r.token_id, standard: standard(r.contract_type) }))),
  ]);
  const result: NftItem[] = pageRows.map((r) => {
    const f = facts.get(r.token_address);
    const m = meta.get(`${r.token_address}:${r.token_id}`);
    const normalized =
      query.normalizeMetadata || query.media_items ? normaliseMetadata(m?.metadata ?? null, r.contract_type === 'ERC1155' ? r.token_id : undefined) : undefined;
    return {
      token_address: r.token_address,
      token_id: query.format === 'hex' ? `0x${BigInt(r.token_id).toString(16)}` : r.token_id,
      contract_type: r.contract_type,
      owner_of: owner,
      block_number: String(r.block_number),
      block_number_minted: r.block_number_minted === null ? null : String(r.block_number_minted),
      token_uri: m?.tokenUri ?? null,
      metadata: m?.metadata ?? null,
      normalized_metadata: query.normalizeMetadata ? normalized : undefined,
      media: query.media_items ? mediaFor(normalized?.image ?? null, m?.fetch ?? null) : undefined,
      amount: r.amount,
      name: f?.name ?? null,
      symbol: f?.symbol ?? null,
      token_hash: null,
      rarity_rank: null,
      rarity_label: null,
      rarity_percentage: null,
      last_token_uri_sync: m?.uriSyncedAt ?? null,
      last_metadata_sync: m?.metadataSyncedAt ?? null,
      possible_spam: f?.possibleSpam ?? false,
      verified_collection: false,
      // Asked for prices: a node has no market data, so each is present and unknown.
      ...(query.include_prices ? NO_PRICES : {}),
    };
  });
  const last = pageRows[pageRows.length - 1];
  const page = after ? after.page : 1;
  return {
    status,
    total: Number(counted[0]?.n ?? 0),
    page,
    page_size: limit,
    cursor: rows.length > limit && last ? signCursor(binding, [last.token_address, last.token_id, page + 1]) : null,
    result,
  };
}

/**
 * How many NFTs the owner holds (token ids with an amount) and of how many collections (wallet stats),
 * once its index has caught up with the head: waits for the indexing job (up to `waitMs`; null when it is
 * still running then, on this instance or another).
 */
export async function nodeNftCounts(chain: Chain, address: string, waitMs: number): Promise<{ nfts: number; collections: number } | null> {
  const owner = address.toLowerCase();
  const deadline = Date.now() + waitMs;
  while ((await ensureNftSync(chain.id, owner)) !== 'SYNCED') {
    if (Date.now() > deadline) return null;
    const job = jobs.get(`${chain.id}:${owner}`);
    await (job ? job.catch(() => undefined) : new Promise((r) => setTimeout(r, 250)));
  }
  const { rows } = await (await db()).query<{ nfts: string; collections: string }>(
    'SELECT count(*) AS nfts, count(DISTINCT token_address) AS collections FROM evm_nft_balance WHERE chain_id = $1 AND owner = $2 AND amount > 0',
    [chain.id, owner],
  );
  return { nfts: Number(rows[0]!.nfts), collections: Number(rows[0]!.collections) };
}

/** Whether this instance's job for `key` (if it runs one) ends within `ms`; false when it runs elsewhere or longer. */
async function jobDone(key: string, ms: number): Promise<boolean> {
  const job = jobs.get(key);
  if (!job) return false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const done = await Promise.race([
    job.then(
      () => true,
      () => true,
    ),
    new Promise<false>((r) => (timer = setTimeout(() => r(false), ms))),
  ]);
  clearTimeout(timer);
  return done;
}

/** Starts, resumes or catches up the owner's indexing job; answers the status to report. */
async function ensureNftSync(chainId: number, owner: string): Promise<'SYNCED' | 'SYNCING'> {
  const key = `${chainId}:${owner}`;
  // First: is the node still on the chain the job indexed? (A change drops the job's row.)
  const { head } = await chainHead(chainId);
  const d = await db();
  const claimed = await d.query(
    `INSERT INTO evm_nft_sync (chain_id, owner, status, jobs_started) VALUES ($1, $2, 'running', 1) ON CONFLICT DO NOTHING RETURNING owner`,
    [chainId, owner],
  );
  if (claimed.rows.length > 0) {
    startJob(key, chainId, owner);
    return 'SYNCING';
  }
  const { rows } = await d.query<SyncRow>('SELECT status, synced_to FROM evm_nft_sync WHERE chain_id = $1 AND owner = $2', [chainId, owner]);
  const row = rows[0];
  if (row.status !== 'synced') {
    if (!jobs.has(key)) {
      // A job that failed, or whose process stopped, is taken over (by exactly one caller).
      const taken = await d.query(
        `UPDATE evm_nft_sync SET status = 'running', heartbeat_at = now(), jobs_started = jobs_started + 1
         WHERE chain_id = $1 AND owner = $2 AND (status = 'failed' OR (status = 'running' AND heartbeat_at < now() - interval '${STALE_SECONDS} seconds'))
         RETURNING owner`,
        [chainId, owner],
      );
      if (taken.rows.length > 0) startJob(key, chainId, owner);
    }
    return 'SYNCING';
  }
  if (Number(row.synced_to) >= head) return 'SYNCED';
  const running = jobs.get(key);
  if (running) {
    await running.catch(() => undefined);
    return 'SYNCED';
  }
  const taken = await d.query(
    `UPDATE evm_nft_sync SET status = 'running', heartbeat_at = now() WHERE chain_id = $1 AND owner = $2 AND status = 'synced' RETURNING owner`,
    [chainId, owner],
  );
  if (taken.rows.length === 0) return 'SYNCING';
  const job = startJob(key, chainId, owner);
  // A short gap is caught up before answering; a long one (the node jumped ahead) in the background.
  if (head - Number(row.synced_to) > INLINE_CATCH_UP_BLOCKS) return 'SYNCING';
  await job;
  return 'SYNCED';
}

function startJob(key: string, chainId: number, owner: string): Promise<void> {
  let epoch: number | undefined;
  // Background work: its node calls are never batched with a page's (rpc.ts).
  const job = inBackground(() => currentChain(chainId).then((c) => runJob(chainId, owner, (epoch = c.epoch), c.head)))
    // The token URIs are known now: their off-chain metadata is fetched next, in the background.
    .then(() => scheduleMetadataFetch(chainId, owner, true))
    .catch(async (e) => {
      if (e instanceof ChainChangedError) return; // its row is gone; the next request starts over
      log().error({ owner, chainId, err: e instanceof Error ? e.message : String(e) }, 'NFT indexing failed');
      const d = await db();
      // Only this chain's job: after a change of chain the row may be a new job's. (No epoch: it failed
      // before it began, on the row it had just claimed.)
      const sql = `UPDATE evm_nft_sync SET status = 'failed' WHERE chain_id = $1 AND owner = $2`;
      await (epoch === undefined ? d.query(sql, [chainId, owner]) : d.query(`${sql} AND ${SAME_EPOCH}`, [chainId, owner, epoch])).catch(() => undefined);
    })
    .finally(() => {
      if (jobs.get(key) === job) jobs.delete(key);
    });
  jobs.set(key, job);
  return job;
}

/** The chain is still the one with epoch $3 (or was never checked). */
const SAME_EPOCH = 'NOT EXISTS (SELECT 1 FROM evm_chain_state c WHERE c.chain_id = $1 AND c.epoch <> $3)';

async function runJob(chainId: number, owner: string, epoch: number, head: number): Promise<void> {
  const d = await db();
  const { rows } = await d.query<{ synced_to: string }>('SELECT synced_to FROM evm_nft_sync WHERE chain_id = $1 AND owner = $2', [chainId, owner]);
  let from = Number(rows[0]?.synced_to ?? 0);
  const nftFilters = transferFilters(owner);
  while (from < head) {
    const to = Math.min(head, from + SPAN);
    const logs = (await getLogsRange(chainId, nftFilters, from + 1, to)).filter((l) => l.topics[0] !== TOPIC_TRANSFER || l.topics.length === 4);
    logs.sort((a, b) => Number(a.blockNumber) - Number(b.blockNumber) || Number(a.logIndex) - Number(b.logIndex));
    const deltas = new Map<string, { move: NftMove; delta: bigint; block: number; minted: number | null }>();
    for (const l of logs) {
      for (const m of parseTransferLog(l).nft ?? []) {
        const k = `${m.token}:${m.tokenId}`;
        const e = deltas.get(k) ?? { move: m, delta: 0n, block: 0, minted: null };
        const amount = BigInt(m.amount);
        if (m.to === owner) e.delta += amount;
        if (m.from === owner) e.delta -= amount;
        e.block = Number(l.blockNumber);
        if (m.to === owner && m.from === ZERO_ADDRESS && e.minted === null) e.minted = Number(l.blockNumber);
        deltas.set(k, e);
      }
    }
    await d.transaction(async (tx) => {
      await assertEpoch(tx, chainId, epoch);
      for (const { move, delta, block, minted } of deltas.values()) {
        await tx.query(
          `INSERT INTO evm_nft_balance (chain_id, owner, token_address, token_id, contract_type, amount, block_number, block_number_minted)
           VALUES ($1, $2, $3, $4::numeric, $5, $6::numeric, $7, $8)
           ON CONFLICT (chain_id, owner, token_address, token_id) DO UPDATE SET
             amount = evm_nft_balance.amount + EXCLUDED.amount,
             block_number = GREATEST(evm_nft_balance.block_number, EXCLUDED.block_number),
             block_number_minted = COALESCE(evm_nft_balance.block_number_minted, EXCLUDED.block_number_minted)`,
          [chainId, owner, move.token, move.tokenId, move.standard === 'erc721' ? 'ERC721' : 'ERC1155', delta.toString(), block, minted],
        );
      }
      await tx.query('UPDATE evm_nft_sync SET synced_to = $3, heartbeat_at = now() WHERE chain_id = $1 AND owner = $2', [chainId, owner, to]);
    });
    from = to;
  }
  // Facts and token URIs of what the wallet holds, so listings need no node call once SYNCED.
  const held = await d.query<{ token_address: string; token_id: string; contract_type: string }>(
    `SELECT token_address, token_id::text AS token_id, contract_type FROM evm_nft_balance WHERE chain_id = $1 AND owner = $2 AND amount > 0`,
    [chainId, owner],
  );
  await tokenFactsMany(chainId, [...new Set(held.rows.map((r) => r.token_address))].map((address) => ({ address, hint: 'unknown' as const })));
  for (let i = 0; i < held.rows.length; i += 50) {
    await tokenMetaMany(
      chainId,
      held.rows.slice(i, i + 50).map((r) => ({ contract: r.token_address, tokenId: r.token_id, standard: r.contract_type === 'ERC721' ? 'erc721' : 'erc1155' })),
    );
    await d.query('UPDATE evm_nft_sync SET heartbeat_at = now() WHERE chain_id = $1 AND owner = $2', [chainId, owner]);
  }
  await d.query(`UPDATE evm_nft_sync SET status = 'synced', heartbeat_at = now() WHERE chain_id = $1 AND owner = $2 AND ${SAME_EPOCH}`, [chainId, owner, epoch]);
}
