import 'server-only';
import { keccak256, toHex, type Hex } from 'viem';
import type { Chain } from '@/lib/chains';
import { answerFirst, db, startHeldWrites } from '@/lib/db';
import { log } from '@/lib/log';
import { assertEpoch } from './chain';
import { TOPIC_BATCH, TOPIC_SINGLE, TOPIC_TRANSFER, addressTopic, parseTransferLog, topicAddress, type RawLog } from './logs';
import { headOf, logsOf } from './node-seam';
import { addSpan, gaps, loadSpans, lockScope } from './spans';

/**
 * The logs that name a wallet, for what it holds and who may spend it: its ERC-20 Transfer logs (the
 * candidate tokens; the count of token transfers), its NFT transfer logs (their count), and the ERC-20
 * Approval and ApprovalForAll logs it gave as owner (the approvals to confirm). One eth_getLogs filter per
 * side, over the whole chain the first time (in block spans, split where the node limits ranges: logs.ts),
 * then only the blocks since. Final blocks are kept (evm_wallet_log, spans in evm_span under
 * `logs:<address>`); the unfinal tail (the last EVM_REORG_DEPTH blocks) is read again on every call.
 * A deeper change of chain drops the rows after the fork with everything else (chain.ts).
 */

export const TOPIC_APPROVAL = keccak256(toHex('Approval(address,address,uint256)'));
export const TOPIC_APPROVAL_FOR_ALL = keccak256(toHex('ApprovalForAll(address,address,bool)'));

export type WalletLogKind = 'erc20' | 'nft' | 'approval' | 'operator';

export interface WalletLog {
  block: number;
  logIndex: number;
  tx: string;
  /** The contract that emitted the log, lower-case. */
  token: string;
  kind: WalletLogKind;
  /** erc20: the counterparty; approval: the spender; operator: the operator; nft: null. */
  other: string | null;
  /** erc20: the amount; approval: the allowance; operator: 1 approved, 0 revoked; nft: null. */
  value: string | null;
  /** Transfers the log holds (an ERC-1155 batch holds several). */
  items: number;
}

/**
 * The filters that find every log a WalletLog of `kinds` is made of: `wallet` as topic 1, 2 or 3 as each
 * event places it. One filter per topic position, so the node scans the chain at most three times, not
 * once per event and side; fewer when the kinds asked need fewer (an ERC-20 balance never needs the
 * ERC-1155 recipient's scan).
 */
export function walletLogFilters(wallet: string, kinds: readonly WalletLogKind[] = ALL_KINDS): (Hex | Hex[] | null)[][] {
  const a = addressTopic(wallet);
  const filters: (Hex | Hex[] | null)[][] = [
    [[TOPIC_TRANSFER, TOPIC_APPROVAL, TOPIC_APPROVAL_FOR_ALL], a], // sender of a Transfer, owner of an approval: every kind
  ];
  // Recipient of a Transfer (ERC-20 and ERC-721), ERC-1155 sender.
  if (kinds.includes('erc20') || kinds.includes('nft')) filters.push([[TOPIC_TRANSFER, TOPIC_SINGLE, TOPIC_BATCH], null, a]);
  if (kinds.includes('nft')) filters.push([[TOPIC_SINGLE, TOPIC_BATCH], null, null, a]); // ERC-1155 recipient
  return filters;
}

const ALL_KINDS: readonly WalletLogKind[] = ['erc20', 'nft', 'approval', 'operator'];

const word = (data: Hex, i: number): bigint | null => (data.length >= 2 + (i + 1) * 64 ? BigInt(`0x${data.slice(2 + i * 64, 2 + (i + 1) * 64)}`) : null);

/** What one log says about `wallet` (lower-case), or null when it says nothing this index keeps. Pure. */
export function classifyLog(log: Pick<RawLog, 'address' | 'topics' | 'data' | 'blockNumber' | 'logIndex' | 'transactionHash'>, wallet: string): WalletLog | null {
  const [t0, t1, t2] = log.topics;
  // Each row written out key by key: a spread of shared fields into each kind's row cost V8 ~8 µs a log
  // (4 ms of a never-seen wallet of 500 tokens), the literal well under one.
  const row = (kind: WalletLogKind, other: string | null, value: string | null, items: number): WalletLog => ({
    block: Number(log.blockNumber),
    logIndex: Number(log.logIndex),
    tx: log.transactionHash.toLowerCase(),
    token: log.address.toLowerCase(),
    kind,
    other,
    value,
    items,
  });
  if ((t0 === TOPIC_APPROVAL || t0 === TOPIC_APPROVAL_FOR_ALL) && log.topics.length === 3) {
    if (topicAddress(t1!) !== wallet) return null;
    const v = word(log.data, 0);
    if (v === null) return null;
    if (t0 === TOPIC_APPROVAL) return row('approval', topicAddress(t2!), v.toString(), 1);
    return row('operator', topicAddress(t2!), v === 0n ? '0' : '1', 1);
  }
  const moved = parseTransferLog(log);
  if (moved.erc20) {
    if (moved.erc20.from !== wallet && moved.erc20.to !== wallet) return null;
    const other = moved.erc20.from === wallet ? moved.erc20.to : moved.erc20.from;
    return row('erc20', other, moved.erc20.value, 1);
  }
  const mine = (moved.nft ?? []).filter((m) => m.from === wallet || m.to === wallet);
  if (mine.length > 0) return row('nft', null, null, mine.length);
  return null;
}

const scope = (wallet: string) => `logs:${wallet}`;
const g = globalThis as unknown as { __lanternWalletLogs?: Map<string, Promise<void>> };
const reading = (g.__lanternWalletLogs ??= new Map());
/** A wallet's early read's write, held until its answer is sent (lib/db answerFirst). */
const heldLogs = (key: string) => `wallet-logs:${key}`;

/** The wallet's logs as of the head: the final ones are in evm_wallet_log afterwards, the unfinal tail is returned. */
export interface WalletLogsAt {
  head: number;
  final: number;
  /** Logs of blocks final+1..head, read now. */
  tail: WalletLog[];
  /**
   * Every kept log of blocks 1..final of the kinds asked `early`, when this call read them all just now (a
   * never-seen wallet) and they may still be on their way into the index; null otherwise (read them from
   * the index). `tail` then holds only those kinds too.
   */
  whole: WalletLog[] | null;
}

/**
 * Reads what the index does not hold yet of blocks 1..final (one read per wallet at a time in this
 * process; writers on other instances are serialised by the scope's lock, and a row read twice is kept
 * once), then the unfinal tail. `early`, the kinds the caller reads: a never-seen wallet's logs of those
 * kinds, all read in one go, are handed back (`whole`) while they are being kept, so the answer does not
 * wait for the write; the readers below take them from `whole` rather than the index. The filters only
 * other kinds need are read once the answer is sent (the node would otherwise scan the chain for them
 * before the reads the answer waits for), and everything is kept together. A later call for the wallet
 * waits for that write.
 */
export async function walletLogs(chain: Chain, wallet: string, opts: { early?: readonly WalletLogKind[] } = {}): Promise<WalletLogsAt> {
  const { head, final, epoch } = await headOf(chain);
  // Queued behind the wallet's read in progress: it usually reads what this one needs, and what is left
  // (blocks that became final since) is read after it, from the spans as they are then.
  const key = `${chain.id}:${wallet}`;
  // A read queued behind a held write needs it: it starts now (the answer it waits for may be this request's).
  startHeldWrites(heldLogs(key));
  let handBack: ((read: EarlyRead) => void) | undefined;
  const early = opts.early ? new Promise<EarlyRead>((resolve) => (handBack = resolve)) : undefined;
  const run = (reading.get(key) ?? Promise.resolve()).catch(() => undefined).then(() => catchUp(chain, wallet, final, epoch, head, handBack && { kinds: opts.early!, handBack }));
  reading.set(key, run);
  void run.catch(() => undefined).finally(() => {
    if (reading.get(key) === run) reading.delete(key);
  });
  if (early) {
    const read = await Promise.race([early, run.then(() => null)]);
    if (read) {
      void run.catch((e: unknown) => log().warn({ chainId: chain.id, err: (e as Error).message }, 'a wallet’s logs were read but not kept; the next request reads them again'));
      return { head, final, ...read };
    }
  }
  // A catch-up that reaches the last final block reads on to the head in the same queries (a never-seen
  // wallet then makes one eth_getLogs per filter, not two) and hands back the unfinal tail it read.
  const tail = (await run) ?? (final < head ? await readLogs(chain, wallet, Math.max(1, final + 1), head) : []);
  return { head, final, tail, whole: null };
}

type EarlyRead = { whole: WalletLog[]; tail: WalletLog[] };

async function readLogs(chain: Chain, wallet: string, from: number, to: number, filters = walletLogFilters(wallet)): Promise<WalletLog[]> {
  if (from > to || filters.length === 0) return [];
  const logs = await logsOf(chain, filters, from, to);
  return logs.map((l) => classifyLog(l, wallet)).filter((x): x is WalletLog => x !== null);
}

/**
 * An early read (walletLogs): the logs of `kinds` are handed back as soon as the filters they need have
 * answered; those of the other filters are read once the answer is sent (or another read of the wallet
 * comes), and all of them are returned, each log once (a log two filters find, such as an ERC-1155
 * transfer from the wallet to itself, is kept once).
 */
async function readEarly(chain: Chain, wallet: string, from: number, to: number, final: number, early: EarlyAsk): Promise<WalletLog[]> {
  const first = walletLogFilters(wallet, early.kinds);
  const later = walletLogFilters(wallet).slice(first.length); // the kinds' filters are always the first ones
  const read = await readLogs(chain, wallet, from, to, first);
  const wanted = (l: WalletLog) => early.kinds.includes(l.kind);
  // Kept once the answer is sent, or sooner if another read of the wallet comes (walletLogs).
  const kept = answerFirst(heldLogs(`${chain.id}:${wallet}`));
  early.handBack({ whole: read.filter((r) => r.block <= final && wanted(r)), tail: read.filter((r) => r.block > final && wanted(r)) });
  await kept;
  if (later.length === 0) return read;
  const all = new Map(read.map((l) => [`${l.tx}:${l.logIndex}`, l]));
  for (const l of await readLogs(chain, wallet, from, to, later)) all.set(`${l.tx}:${l.logIndex}`, l);
  return [...all.values()].sort((a, b) => a.block - b.block || a.logIndex - b.logIndex);
}

type EarlyAsk = { kinds: readonly WalletLogKind[]; handBack: (read: EarlyRead) => void };

/** Blocks read and committed at a time, so a long chain's first read keeps its progress as it goes. */
const COMMIT_SPAN = 500_000;

/**
 * Reads and keeps what the index lacks of blocks 1..final. The read that ends at `final` goes on to
 * `head`: its logs after `final` are not kept but returned (the unfinal tail); null when no read ended
 * at `final` (the tail is then the caller's to read).
 */
async function catchUp(chain: Chain, wallet: string, final: number, epoch: number, head: number, early?: EarlyAsk): Promise<WalletLog[] | null> {
  if (final < 1) return null;
  const d = await db();
  const spans = await loadSpans(d, chain.id, scope(wallet));
  const todo = gaps(spans, 1, final).flatMap((g) =>
    Array.from({ length: Math.ceil((g.hi - g.lo + 1) / COMMIT_SPAN) }, (_, i) => ({ lo: g.lo + i * COMMIT_SPAN, hi: Math.min(g.hi, g.lo + (i + 1) * COMMIT_SPAN - 1) })),
  );
  let tail: WalletLog[] | null = null;
  // Nothing kept before and all of 1..final read in one go: the caller may answer from it before the write.
  const answerEarly = spans.length === 0 && todo.length === 1 ? early : undefined;
  for (const gap of todo) {
    const to = gap.hi === final ? head : gap.hi;
    const read = answerEarly ? await readEarly(chain, wallet, gap.lo, to, final, answerEarly) : await readLogs(chain, wallet, gap.lo, to);
    const rows = gap.hi === final ? read.filter((r) => r.block <= final) : read;
    if (gap.hi === final) tail = read.filter((r) => r.block > final);
    await d.transaction(async (tx) => {
      await assertEpoch(tx, chain.id, epoch);
      await lockScope(tx, chain.id, scope(wallet));
      for (let i = 0; i < rows.length; i += 500) {
        const chunk = rows.slice(i, i + 500);
        const values = chunk.map((_, j) => `($1, $2, ${Array.from({ length: 8 }, (_, k) => `$${j * 8 + k + 3}`).join(', ')})`).join(', ');
        await tx.query(
          `INSERT INTO evm_wallet_log (chain_id, address, block_number, log_index, tx_hash, token, kind, other, value, items) VALUES ${values} ON CONFLICT DO NOTHING`,
          [chain.id, wallet, ...chunk.flatMap((r) => [r.block, r.logIndex, r.tx, r.token, r.kind, r.other, r.value, r.items])],
        );
      }
      await addSpan(tx, chain.id, scope(wallet), gap);
    });
  }
  return tail;
}

interface Row {
  block_number: string;
  log_index: number;
  tx_hash: string;
  token: string;
  kind: WalletLogKind;
  other: string | null;
  value: string | null;
  items: number;
}

const fromRow = (r: Row): WalletLog => ({
  block: Number(r.block_number),
  logIndex: r.log_index,
  tx: r.tx_hash,
  token: r.token,
  kind: r.kind,
  other: r.other,
  value: r.value,
  items: r.items,
});

/** The wallet's kept logs of these kinds up to block `upTo` (after walletLogs), oldest first. */
export async function keptLogs(chain: Chain, wallet: string, at: WalletLogsAt, kinds: WalletLogKind[], upTo: number): Promise<WalletLog[]> {
  if (at.whole) return at.whole.filter((l) => kinds.includes(l.kind) && l.block <= upTo).sort((a, b) => a.block - b.block || a.logIndex - b.logIndex);
  const { rows } = await (await db()).query<Row>(
    `SELECT block_number, log_index, tx_hash, token, kind, other, value::text AS value, items FROM evm_wallet_log
     WHERE chain_id = $1 AND address = $2 AND kind = ANY($3) AND block_number <= $4 ORDER BY block_number, log_index`,
    [chain.id, wallet, kinds, upTo],
  );
  return rows.map(fromRow);
}

/** The ERC-20 tokens whose Transfer logs name the wallet up to block `upTo`, lower-case and sorted. */
export async function candidateTokens(chain: Chain, wallet: string, at: WalletLogsAt, upTo: number): Promise<string[]> {
  const kept = at.whole
    ? at.whole.filter((l) => l.kind === 'erc20' && l.block <= upTo).map((l) => l.token)
    : (
        await (await db()).query<{ token: string }>(
          `SELECT DISTINCT token FROM evm_wallet_log WHERE chain_id = $1 AND address = $2 AND kind = 'erc20' AND block_number <= $3`,
          [chain.id, wallet, Math.min(upTo, at.final)],
        )
      ).rows.map((r) => r.token);
  const tokens = new Set(kept);
  for (const l of at.tail) if (l.kind === 'erc20' && l.block <= upTo) tokens.add(l.token);
  return [...tokens].sort();
}

/** Transfers naming the wallet up to the head: ERC-20 Transfer logs, and NFT transfers (each id of a batch). */
export async function transferCounts(chain: Chain, wallet: string, at: WalletLogsAt): Promise<{ token: number; nft: number }> {
  const sum = (logs: WalletLog[], k: WalletLogKind) => logs.filter((l) => l.kind === k).reduce((n, l) => n + l.items, 0);
  const rows = at.whole
    ? [{ kind: 'erc20', n: String(sum(at.whole, 'erc20')) }, { kind: 'nft', n: String(sum(at.whole, 'nft')) }]
    : (
        await (await db()).query<{ kind: string; n: string }>(
          `SELECT kind, sum(items)::text AS n FROM evm_wallet_log WHERE chain_id = $1 AND address = $2 AND kind IN ('erc20', 'nft') GROUP BY kind`,
          [chain.id, wallet],
        )
      ).rows;
  const kept = (k: string) => Number(rows.find((r) => r.kind === k)?.n ?? 0);
  return { token: kept('erc20') + sum(at.tail, 'erc20'), nft: kept('nft') + sum(at.tail, 'nft') };
}
