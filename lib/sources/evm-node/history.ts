import 'server-only';
import { formatUnits } from 'viem';
import type { Chain } from '@/lib/chains';
import { db } from '@/lib/db';
import { signatureTable } from '@/lib/decode';
import { resolveHistoryRange, type HistoryPage, type HistoryQuery, type WalletTransaction } from '@/lib/interface/history';
import { activityHead, ensureCovered, readingPage, type NamedRow } from './activity';
import { categorise, type Movement } from './categorise';
import { queryBinding, readCursor, signCursor } from './cursor';
import { methodLabels } from './decode';
import { normaliseMetadata, tokenMetaMany } from './metadata';
import { reorgDepth } from './rpc';
import { tokenFactsMany, type TokenFacts } from './tokens';
import { blockTimestamp, prefetchFacts, txFactsStaged, type TxFacts } from './tx-facts';
import { movesValue } from './transfers';
import { walletLogs } from './wallet-logs';
import { badParameter } from '@/lib/errors';
import { isSpamTransaction } from '@/lib/spam';
import { devnetLabel } from '@/lib/devnet/scenario-labels';

/**
 * Wallet history from Lantern's own index of an EVM node. A page is: make sure the wallet's activity
 * index holds the rows this page needs (the windows that hold them; nothing to read when they are
 * known and no block arrived), one keyset query on (block_number, tx_index), and the facts of just
 * those transactions (cached once final). Cost grows with neither the wallet's history nor the page's depth.
 */

const DEFAULT_LIMIT = 100;
const MAX_BLOCK = Number.MAX_SAFE_INTEGER;

export async function nodeWalletHistory(address: string, chain: Chain, query: HistoryQuery, opts: { traces?: 'later' } = {}): Promise<HistoryPage> {
  const wallet = address.toLowerCase();
  const limit = query.limit ?? DEFAULT_LIMIT;
  const range = resolveHistoryRange(query);
  const tokens = [...new Set(query.token_addresses.map((a) => a.toLowerCase()))].sort();
  const binding = queryBinding([
    'history', chain.id, wallet, query.order,
    range.fromBlock ?? null, range.fromDate?.toISOString() ?? null, range.toBlock ?? null, range.toDate?.toISOString() ?? null,
    // Unfiltered cursors keep the binding they always had; a filtered one holds its contracts.
    ...(tokens.length > 0 ? [{ tokens }] : []),
  ]);
  let after: { block: number; index: number; page: number } | undefined;
  if (query.cursor) {
    const [block, index, page] = readCursor(query.cursor, binding);
    if (![block, index, page].every((n) => Number.isSafeInteger(n) && (n as number) >= 0)) throw badParameter('cursor', 'cursor: it cannot be read');
    after = { block: block as number, index: index as number, page: page as number };
  }

  const at = await activityHead(chain.id);
  const head = at.head;
  const fromBlock = range.fromBlock ?? (range.fromDate ? await firstBlockAtOrAfter(chain.id, range.fromDate, head) : 0);
  const toBlock = Math.min(range.toBlock ?? (range.toDate ? await lastBlockAtOrBefore(chain.id, range.toDate, head) : MAX_BLOCK), head);

  if (tokens.length > 0) return tokenPage(chain, wallet, query, { tokens, fromBlock, toBlock, after, binding, limit, traces: opts.traces });

  // Only the windows of the wallet's activity this page needs are read from the node (activity.ts); the
  // rest is read in the background once the page has read what it shows (its traces above all).
  return readingPage(chain.id, wallet, async () => {
    // The facts of the rows a window finds for the page, and what rendering them reads besides (token
    // facts, method labels), are read as soon as the window names them, beside its other reads and its
    // commit. The page then takes these reads as they are (unfinal facts are not kept: it would read them again).
    let early: EarlyFacts | undefined;
    const prefetch = (rows: NamedRow[]) => {
      const shown = rows.slice(0, limit);
      prefetchFacts(chain.id, shown);
      const staged = txFactsStaged(chain.id, shown.map((r) => r.hash), head - reorgDepth());
      // The shipped signature table's first load (a parse of its JSON) while the node answers, not after.
      signatureTable().catch(() => undefined);
      const reads = staged.partial.then((m) => renderReads(chain, [...m.values()], query));
      reads.catch(() => undefined);
      early = { hashes: new Set(shown.map((r) => r.hash)), staged, reads };
    };
    await ensureCovered(chain.id, wallet, at, { order: query.order, after, from: Math.max(1, fromBlock), to: toBlock, need: limit + 1 }, prefetch);
    return readPage(chain, wallet, query, { at, fromBlock, toBlock, after, binding, limit, traces: opts.traces, early });
  });
}

interface PageArgs {
  fromBlock: number;
  toBlock: number;
  after: { block: number; index: number; page: number } | undefined;
  binding: string;
  limit: number;
  traces: 'later' | undefined;
  /** Facts this page's coverage run started reading (see nodeWalletHistory). */
  early?: EarlyFacts;
}

type Staged = ReturnType<typeof txFactsStaged> & { reads?: Promise<RenderReads> };
interface EarlyFacts {
  hashes: Set<string>;
  staged: Staged;
  /** What rendering them reads besides (renderReads), keyed so that any subset of them finds its own. */
  reads: Promise<RenderReads>;
}

/** The facts of these transactions: those read early taken from that read, the rest read now. */
function factsFor(chainId: number, hashes: string[], finalBlock: number, early: EarlyFacts | undefined): Staged {
  const rest = early ? hashes.filter((h) => !early.hashes.has(h)) : hashes;
  if (!early) return txFactsStaged(chainId, rest, finalBlock);
  if (rest.length === 0) return { ...early.staged, reads: early.reads };
  const more = txFactsStaged(chainId, rest, finalBlock);
  const merged = (a: Promise<Map<string, TxFacts>>, b: Promise<Map<string, TxFacts>>) => {
    const m = Promise.all([a, b]).then(([x, y]) => new Map([...x, ...y]));
    m.catch(() => undefined);
    return m;
  };
  return { partial: merged(early.staged.partial, more.partial), complete: merged(early.staged.complete, more.complete) };
}

async function readPage(
  chain: Chain,
  wallet: string,
  query: HistoryQuery,
  { at, fromBlock, toBlock, after, binding, limit, traces, early }: PageArgs & { at: { head: number } },
) {
  const head = at.head;
  const desc = query.order === 'DESC';
  const params: unknown[] = [chain.id, wallet, fromBlock, toBlock, limit + 1];
  let keyset = '';
  if (after) {
    params.push(after.block, after.index);
    keyset = `AND (block_number, tx_index) ${desc ? '<' : '>'} ($6, $7)`;
  }
  const dir = desc ? 'DESC' : 'ASC';
  const d = await db();
  const { rows } = await d.query<{ block_number: string; tx_index: number; tx_hash: string }>(
    `SELECT block_number, tx_index, tx_hash FROM evm_wallet_activity
     WHERE chain_id = $1 AND address = $2 AND block_number BETWEEN $3 AND $4 ${keyset}
     ORDER BY block_number ${dir}, tx_index ${dir} LIMIT $5`,
    params,
  );
  const pageRows = rows.slice(0, limit);
  const hashes = pageRows.map((r) => r.tx_hash);
  const result = await render(chain, wallet, hashes, factsFor(chain.id, hashes, head - reorgDepth(), early), query, traces);
  const last = pageRows[pageRows.length - 1];
  const page = after ? after.page : 1;
  return {
    page,
    page_size: limit,
    cursor: rows.length > limit && last ? signCursor(binding, [Number(last.block_number), last.tx_index, page + 1]) : null,
    result,
  };
}

/**
 * A page filtered on token contracts (`token_addresses`). Its transactions come from the wallet's logs
 * (wallet-logs.ts: every Transfer naming the wallet and every approval it gave, read over the whole chain
 * once and kept), not from the activity index, which is read in windows and would have to be read whole
 * to find a rare token's transactions. A transaction matches when one of the contracts emitted such a log
 * in it. Keyset: (block, the transaction's first matching log index), which orders transactions within a
 * block as their indexes do (a block's logs are numbered in transaction order).
 */
async function tokenPage(
  chain: Chain,
  wallet: string,
  query: HistoryQuery,
  { tokens, fromBlock, toBlock, after, binding, limit, traces }: PageArgs & { tokens: string[] },
): Promise<HistoryPage> {
  const at = await walletLogs(chain, wallet);
  const desc = query.order === 'DESC';
  const to = Math.min(toBlock, at.head);
  type Hit = { block: number; index: number; hash: string };
  const beyond = (h: Hit) => !after || (desc ? h.block < after.block || (h.block === after.block && h.index < after.index) : h.block > after.block || (h.block === after.block && h.index > after.index));
  const compare = (a: Hit, b: Hit) => (desc ? b.block - a.block || b.index - a.index : a.block - b.block || a.index - b.index);

  // The unfinal tail was read just now (never kept): matched here.
  const tail = new Map<string, Hit>();
  for (const l of at.tail) {
    if (!tokens.includes(l.token) || l.block < fromBlock || l.block > to) continue;
    const prev = tail.get(l.tx);
    if (!prev || l.logIndex < prev.index) tail.set(l.tx, { block: l.block, index: l.logIndex, hash: l.tx });
  }
  const params: unknown[] = [chain.id, wallet, tokens, fromBlock, Math.min(to, at.final), limit + 1];
  let keyset = '';
  if (after) {
    params.push(after.block, after.index);
    keyset = `HAVING (block_number, min(log_index)) ${desc ? '<' : '>'} ($7, $8)`;
  }
  const dir = desc ? 'DESC' : 'ASC';
  const { rows } = await (await db()).query<{ block_number: string; log_index: number; tx_hash: string }>(
    `SELECT block_number, min(log_index) AS log_index, tx_hash FROM evm_wallet_log
     WHERE chain_id = $1 AND address = $2 AND token = ANY($3) AND block_number BETWEEN $4 AND $5
     GROUP BY block_number, tx_hash ${keyset}
     ORDER BY block_number ${dir}, 2 ${dir} LIMIT $6`,
    params,
  );
  const hits = [...tail.values(), ...rows.map((r) => ({ block: Number(r.block_number), index: r.log_index, hash: r.tx_hash }))]
    .filter(beyond)
    .sort(compare)
    .slice(0, limit + 1);
  const pageHits = hits.slice(0, limit);
  const hashes = pageHits.map((h) => h.hash);
  const result = await render(chain, wallet, hashes, txFactsStaged(chain.id, hashes, at.head - reorgDepth()), query, traces);
  const last = pageHits[pageHits.length - 1];
  const page = after ? after.page : 1;
  return {
    page,
    page_size: limit,
    cursor: hits.length > limit && last ? signCursor(binding, [last.block, last.index, page + 1]) : null,
    result,
  };
}

/** First block whose timestamp is >= date (head + 1 when none): binary search over cached block times. */
async function firstBlockAtOrAfter(chainId: number, date: Date, head: number): Promise<number> {
  const ts = Math.ceil(date.getTime() / 1000);
  let lo = 0;
  let hi = head + 1;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if ((await blockTimestamp(chainId, mid)) >= ts) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Last block whose timestamp is <= date (-1 when none). */
async function lastBlockAtOrBefore(chainId: number, date: Date, head: number): Promise<number> {
  const ts = Math.floor(date.getTime() / 1000);
  return (await firstBlockAtOrAfter(chainId, new Date((ts + 1) * 1000), head)) - 1;
}

// Addresses lowercase, as the hosted API sends them.
const checksum = (a: string | null) => (a ? a.toLowerCase() : null);
const unlabelled = { from_address_entity: null, from_address_entity_logo: null, from_address_label: null, to_address_entity: null, to_address_entity_logo: null, to_address_label: null };
/** A move's parties, named by the devnets' public labels (alice, the pool) where the chain is a devnet; else bare. */
const parties = (chainId: number, from: string | null, to: string | null) => ({
  ...unlabelled,
  from_address: checksum(from),
  from_address_label: devnetLabel(chainId, from),
  to_address: checksum(to),
  to_address_label: devnetLabel(chainId, to),
});

function direction(wallet: string, from: string, to: string | null): 'send' | 'receive' | null {
  if (from === wallet) return 'send';
  if (to === wallet) return 'receive';
  return null;
}

/**
 * The page's rows from their facts. What the rows need besides (token facts, method labels) depends on
 * no trace: it is read from the facts without traces, while the traces are read.
 */
async function render(chain: Chain, wallet: string, hashes: string[], staged: Staged, query: HistoryQuery, traces: 'later' | undefined): Promise<WalletTransaction[]> {
  const inOrder = (m: Map<string, TxFacts>) => hashes.map((h) => m.get(h)!);
  const [reads, txs] = await Promise.all([staged.reads ?? staged.partial.then((m) => renderReads(chain, inOrder(m), query)), (traces === 'later' ? staged.partial : staged.complete).then(inOrder)]);
  const native = chain.nativeCurrency;
  return txs.map((t) => renderTx(chain.id, t, wallet, native, reads.tokens, query, reads.meta, reads.labels.get(t.hash) ?? null));
}

type RenderReads = Awaited<ReturnType<typeof renderReads>>;

async function renderReads(chain: Chain, txs: TxFacts[], query: HistoryQuery) {
  const wanted = new Map<string, 'erc20' | 'erc721' | 'erc1155'>();
  for (const t of txs) {
    for (const m of t.erc20) wanted.set(m.token, 'erc20');
    for (const m of t.nft) wanted.set(m.token, m.standard);
  }
  const [tokens, meta, labels] = await Promise.all([
    tokenFactsMany(chain.id, [...wanted].map(([address, hint]) => ({ address, hint }))),
    query.nft_metadata ? tokenMetaMany(chain.id, txs.flatMap((t) => t.nft.map((m) => ({ contract: m.token, tokenId: m.tokenId, standard: m.standard })))) : undefined,
    methodLabels(chain.id, txs),
  ]);
  return { tokens, meta, labels };
}

/** One transaction as the hosted wallet-history API shapes it, from its facts (pure: every read is the caller's). */
export function renderTx(
  chainId: number,
  t: TxFacts,
  wallet: string,
  native: { symbol: string; decimals: number },
  tokens: Map<string, TokenFacts>,
  query: HistoryQuery,
  meta: Awaited<ReturnType<typeof tokenMetaMany>> | undefined,
  label: string | null,
): WalletTransaction {
  const timestamp = new Date(t.timestamp * 1000).toISOString();
  const ok = t.status === 1;
  const moves: Movement[] = [];

  const nativeTransfers: WalletTransaction['native_transfers'] = [];
  const addNative = (from: string, to: string | null, value: string, internal: boolean) => {
    nativeTransfers.push({
      ...parties(chainId, from, to),
      value,
      value_formatted: formatUnits(BigInt(value), native.decimals),
      direction: direction(wallet, from, to),
      internal_transaction: internal,
      token_symbol: native.symbol,
      token_logo: null,
    });
    if (to) moves.push({ kind: 'native', token: 'native', symbol: native.symbol, decimals: native.decimals, from, to, value: BigInt(value), spam: false });
  };
  if (ok && t.value !== '0') addNative(t.from, t.to ?? t.contractAddress, t.value, false);
  // Internal transfers: only frames that really moved value (see transfers.ts).
  if (ok) for (const c of t.calls ?? []) if (movesValue(c)) addNative(c.from, c.to, c.value, true);

  const erc20 = t.erc20.map((m) => {
    const f = tokens.get(m.token);
    const decimals = f?.decimals ?? null;
    const symbol = f?.symbol ?? null;
    moves.push({ kind: 'erc20', token: m.token, symbol: symbol ?? m.token.slice(0, 8), decimals, from: m.from, to: m.to, value: BigInt(m.value), spam: !!f?.possibleSpam });
    return {
      token_name: f?.name ?? null,
      token_symbol: symbol,
      token_logo: null,
      token_decimals: decimals === null ? null : String(decimals),
      transaction_hash: t.hash,
      address: checksum(m.token)!,
      block_timestamp: timestamp,
      block_number: String(t.blockNumber),
      block_hash: t.blockHash,
      ...parties(chainId, m.from, m.to),
      value: m.value,
      value_formatted: decimals === null ? null : formatUnits(BigInt(m.value), decimals),
      transaction_index: t.txIndex,
      log_index: m.logIndex,
      possible_spam: f?.possibleSpam ?? false,
      verified_contract: false,
      direction: direction(wallet, m.from, m.to),
    };
  });

  const nfts = t.nft.map((m) => {
    const f = tokens.get(m.token);
    moves.push({ kind: 'nft', token: m.token, symbol: f?.symbol ?? 'NFT', decimals: 0, from: m.from, to: m.to, value: BigInt(m.amount), tokenId: m.tokenId, name: f?.name, spam: !!f?.possibleSpam });
    const extra: Record<string, unknown> = {};
    if (meta) {
      const tm = meta.get(`${m.token}:${m.tokenId}`);
      extra.token_uri = tm?.tokenUri ?? null;
      extra.metadata = tm?.metadata ?? null;
      extra.normalized_metadata = normaliseMetadata(tm?.metadata ?? null);
    }
    return {
      token_address: checksum(m.token)!,
      token_id: m.tokenId,
      ...parties(chainId, m.from, m.to),
      value: t.value,
      amount: m.amount,
      contract_type: m.standard === 'erc721' ? 'ERC721' : 'ERC1155',
      block_number: String(t.blockNumber),
      block_timestamp: timestamp,
      block_hash: t.blockHash,
      transaction_hash: t.hash,
      transaction_type: null,
      transaction_index: t.txIndex,
      log_index: m.logIndex,
      operator: checksum(m.operator),
      possible_spam: f?.possibleSpam ?? false,
      verified_collection: false,
      direction: direction(wallet, m.from, m.to),
      ...extra,
    };
  });

  const { category, summary } = categorise({
    wallet,
    sender: t.from,
    to: t.to,
    status: t.status,
    createdContract: t.contractAddress,
    selector: t.selector,
    methodLabel: label,
    moves,
  });
  const fee = BigInt(t.gasUsed) * BigInt(t.gasPrice);

  const tx: WalletTransaction = {
    hash: t.hash,
    nonce: t.nonce,
    transaction_index: String(t.txIndex),
    ...parties(chainId, t.from, t.to),
    from_address: checksum(t.from)!,
    value: t.value,
    gas: t.gas,
    gas_price: t.gasPrice,
    receipt_cumulative_gas_used: t.cumulativeGasUsed,
    receipt_gas_used: t.gasUsed,
    receipt_contract_address: checksum(t.contractAddress),
    receipt_root: null,
    receipt_status: String(t.status),
    block_timestamp: timestamp,
    block_number: String(t.blockNumber),
    block_hash: t.blockHash,
    internal_transactions: query.include_internal_transactions
      ? (t.calls ?? []).map((c) => ({
          transaction_hash: t.hash,
          block_number: String(t.blockNumber),
          block_hash: t.blockHash,
          type: c.type,
          from: checksum(c.from),
          to: checksum(c.to),
          value: c.value,
          gas: c.gas,
          gas_used: c.gasUsed,
          input: c.input,
          output: c.output,
        }))
      : undefined,
    nft_transfers: nfts,
    erc20_transfer: erc20,
    native_transfers: nativeTransfers,
    possible_spam: isSpamTransaction(t.from === wallet, moves),
    category,
    summary,
    method_label: label,
    transaction_fee: formatUnits(fee, native.decimals),
    // Its internal transfers are still being read (a first sight's page: txFactsMany's traces 'later').
    ...(t.calls === undefined ? { internal_pending: true } : {}),
  };
  return tx;
}
