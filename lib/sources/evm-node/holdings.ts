import 'server-only';
import { decodeErrorResult, formatUnits, type Address, type Hex } from 'viem';
import type { Chain } from '@/lib/chains';
import { badParameter } from '@/lib/errors';
import { NATIVE_TOKEN_ADDRESS, type Erc20Balance, type TokenBalance, type TokenBalancesPage, type TokenBalancesQuery, type UnreadableToken } from '@/lib/interface/tokens';
import { queryBinding, readCursor, signCursor } from './cursor';
import { isPruned, prepareMulticall, statePruned, type CallOutcome } from './multicall';
import { assertChain, callNode, callsSent } from './node-seam';
import { hexNum } from './rpc';
import { readTokens, type Read, type TokenRead } from './token-reader';
import { factsInMemory, tokenFactsMany, type FactAnswers, type TokenFacts } from './tokens';
import { candidateTokens, walletLogs } from './wallet-logs';

/**
 * What a wallet holds, read from the chain at one pinned block (the head, or `to_block`): its candidate
 * tokens are the ERC-20s whose Transfer logs name it (wallet-logs.ts), and each balance is that token's
 * `balanceOf` at the block, with its `totalSupply`, in one read of the token reader (token-reader.ts: a
 * small contract placed by a state override; Multicall3 through multicall.ts where overrides are refused),
 * which also brings the name, symbol and decimals of tokens not yet known. A balance is never
 * summed from transfers: a rebasing token's balance moves with no log, a fee-on-transfer token's
 * recipient gets less than the amount sent, and both hold what `balanceOf` says. Name, symbol and
 * decimals are read once per token and kept (tokens.ts); a bytes32 name (MKR) is read as text.
 *
 * What cannot be read is shown safely: a token whose balanceOf reverts or answers no number is listed in
 * `unreadable` with why, never a failed page; a token whose decimals are missing or out of range has
 * `decimals` null, its balance in the smallest unit and a `note`. Zero balances are left out. The
 * native coin comes first (0xeeee...eeee, from eth_getBalance at the same block).
 */

const DEFAULT_LIMIT = 100;

export interface Holdings {
  block: number;
  native: TokenBalance | null;
  /** In the answer's order; a row is made of one with `tokenRow` (only those of the page asked for are). */
  tokens: Held[];
  unreadable: UnreadableToken[];
}

/** A token held: its facts and what the block says it holds (the balance is never zero). */
export interface Held {
  token: string;
  facts: TokenFacts;
  balance: bigint;
  supply: bigint | null;
}

/** Everything the wallet holds at `block` (see above), the native coin unless `excludeNative`. */
export async function readHoldings(
  chain: Chain,
  address: string,
  opts: { toBlock?: number; tokenAddresses: string[]; excludeSpam: boolean; excludeNative: boolean; atBlock?: number },
): Promise<Holdings> {
  await assertChain(chain);
  prepareMulticall(chain);
  const wallet = address.toLowerCase();
  const at = await walletLogs(chain, wallet, { early: ['erc20'] });
  const block = opts.atBlock ?? Math.min(opts.toBlock ?? at.head, at.head);
  // Named tokens are read whatever the logs say; otherwise every token whose Transfer logs name the wallet.
  const named = [...new Set(opts.tokenAddresses.map((a) => a.toLowerCase()))].sort();
  const candidates = named.length > 0 ? named : await candidateTokens(chain, wallet, at, block);
  // The balances are read beside the token facts, not after them, in one read of the token reader
  // (token-reader.ts): each token's balanceOf and totalSupply at the block, and, when the block is the head,
  // the name, symbol and decimals of tokens this process has not got in memory (those the database keeps
  // are taken from there: asking them too costs less than waiting for the database before the node). A
  // candidate the facts then show is an NFT contract is read for nothing and left out.
  const atHead = block === at.head;
  const items: TokenRead[] = candidates.map((token) => ({
    token: token as Address,
    reads: atHead && !factsInMemory(chain.id, token) ? WITH_FACTS : BALANCE_ONLY,
  }));
  const read = readTokens(chain, wallet as Address, items, block);
  // The facts asked beside the balances, per token; tokens with none asked are read as before.
  const answered = read.then((all) => {
    const got = new Map<string, FactAnswers>();
    let at = 0;
    for (const item of items) {
      const o = all.slice(at, (at += item.reads.length));
      if (item.reads === WITH_FACTS) got.set(item.token, { name: ok(o[2]), symbol: ok(o[3]), decimals: ok(o[4]) });
    }
    return got;
  });
  void answered.catch(() => undefined); // awaited only when some facts are not kept; `read` fails the answer itself
  // The native balance is read even when it is not shown: one call beside the multicall, and a node that
  // has pruned the block's state says so here when there is no token to read.
  const nativeRead = nativeBalanceAt(chain, wallet, block);
  // Facts not in memory are looked up in the database once these calls have left: PGlite runs a query on
  // the main thread, and one begun now would hold the calls' batch back (it is sent at setImmediate).
  const anyAsked = items.some((item) => item.reads === WITH_FACTS);
  const wanted = candidates.map((a) => ({ address: a, hint: 'erc20' as const }));
  const [facts, all, nativeWei] = await Promise.all([
    anyAsked ? callsSent().then(() => tokenFactsMany(chain.id, wanted, answered)) : tokenFactsMany(chain.id, wanted),
    read,
    nativeRead,
  ]);
  // Each token's balanceOf and totalSupply outcomes, wherever its answers start.
  const starts: number[] = [];
  let next = 0;
  for (const item of items) {
    starts.push(next);
    next += item.reads.length;
  }
  const tokens: Held[] = [];
  const unreadable: UnreadableToken[] = [];
  candidates.forEach((token, i) => {
    const f = facts.get(token);
    // NFT contracts share the Transfer topic name; only fungible tokens are balances here.
    if (f?.kind !== 'erc20') return;
    if (opts.excludeSpam && f.possibleSpam) return;
    const bal = all[starts[i]!]!;
    const supply = all[starts[i]! + 1]!;
    const balance = bal.ok ? uint(bal.data) : null;
    if (balance === null) {
      unreadable.push({ token_address: token, name: f.name, symbol: f.symbol, reason: whyUnreadable(bal) });
      return;
    }
    if (balance === 0n) return;
    tokens.push({ token, facts: f, balance, supply: supply.ok ? uint(supply.data) : null });
  });
  tokens.sort((a, b) => Number(a.facts.possibleSpam) - Number(b.facts.possibleSpam) || collate(label(a.facts), label(b.facts)) || collate(a.token, b.token));
  const native = opts.excludeNative ? null : nativeRow(chain, nativeWei);
  return { block, native, tokens, unreadable };
}

/** Why a balanceOf gave no balance, in words (with the token's own revert reason when it gave one). */
function whyUnreadable(o: CallOutcome): string {
  if (o.ok) return 'balanceOf answered something that is not a number';
  if (o.data === '0x') return 'balanceOf answered nothing (it reverted without a reason, or there is no contract at this address)';
  try {
    const [reason] = decodeErrorResult({ abi: [], data: o.data }).args as [unknown];
    if (typeof reason === 'string' && reason.trim()) return `balanceOf reverted: ${reason.trim().slice(0, 120)}`;
  } catch {
    // a custom error Lantern has no ABI for
  }
  return 'balanceOf reverted';
}

/** What the token reader is asked per token (in its order: balanceOf and totalSupply answer first). */
const BALANCE_ONLY: readonly Read[] = ['balanceOf', 'totalSupply'];
const WITH_FACTS: readonly Read[] = ['balanceOf', 'totalSupply', 'name', 'symbol', 'decimals'];
const ok = (o: CallOutcome | undefined) => (o?.ok ? o.data : null);

const label = (f: TokenFacts) => (f.symbol ?? f.name ?? '').toLowerCase();
/** String.prototype.localeCompare's order, from one collator (localeCompare builds one per call: 500 tokens sort in ~4,500). */
const collate = new Intl.Collator().compare;

/** A uint256 return value, or null when the data is not one. */
function uint(data: Hex): bigint | null {
  if (data.length < 66) return null;
  return BigInt(data.slice(0, 66));
}

async function nativeBalanceAt(chain: Chain, wallet: string, block: number): Promise<bigint> {
  try {
    return BigInt(await callNode<Hex>(chain, 'eth_getBalance', [wallet, hexNum(block)]));
  } catch (e) {
    throw isPruned(e) ? statePruned(block) : e;
  }
}

/** A token held as the answer shows it. */
export function tokenRow({ token, facts: f, balance, supply }: Held): TokenBalance {
  const decimals = f.decimals;
  const fmt = (v: bigint) => (decimals === null ? null : formatUnits(v, decimals));
  const row: TokenBalance = {
    token_address: token,
    name: f.name,
    symbol: f.symbol,
    logo: null,
    thumbnail: null,
    decimals,
    balance: balance.toString(),
    possible_spam: f.possibleSpam,
    verified_contract: false,
    balance_formatted: fmt(balance),
    native_token: false,
    total_supply: supply === null ? null : supply.toString(),
    total_supply_formatted: supply === null ? null : fmt(supply),
    percentage_relative_to_total_supply: supply === null || supply === 0n ? null : share(balance, supply),
    usd_price: null,
    usd_price_24hr_percent_change: null,
    usd_price_24hr_usd_change: null,
    usd_value: null,
    usd_value_24hr_usd_change: null,
    portfolio_percentage: null,
  };
  if (decimals === null) row.note = "decimals() does not answer a number from 0 to 255: the balance is in the token's smallest unit";
  return row;
}

/** balance / supply in percent, as a number (precise to the digits a double holds). */
function share(balance: bigint, supply: bigint): number {
  const scaled = (balance * 10n ** 20n) / supply; // percent with 18 decimals
  return Number(scaled) / 1e18;
}

function nativeRow(chain: Chain, wei: bigint): TokenBalance {
  const { decimals, symbol } = chain.nativeCurrency;
  return {
    token_address: NATIVE_TOKEN_ADDRESS,
    name: chain.viem.nativeCurrency.name,
    symbol,
    logo: null,
    thumbnail: null,
    decimals,
    balance: wei.toString(),
    possible_spam: false,
    verified_contract: true,
    balance_formatted: formatUnits(wei, decimals),
    native_token: true,
    total_supply: null,
    total_supply_formatted: null,
    percentage_relative_to_total_supply: null,
    usd_price: null,
    usd_price_24hr_percent_change: null,
    usd_price_24hr_usd_change: null,
    usd_value: null,
    usd_value_24hr_usd_change: null,
    portfolio_percentage: null,
  };
}

/**
 * GET /wallets/{address}/tokens: the holdings at one block, the native coin first, in pages. The cursor
 * holds the block of the first page and the position reached, so every page reads the same block (a new
 * block between pages moves nothing).
 */
export async function nodeTokenBalances(address: string, chain: Chain, q: TokenBalancesQuery): Promise<TokenBalancesPage> {
  const wallet = address.toLowerCase();
  const limit = q.limit ?? DEFAULT_LIMIT;
  const filter = [...new Set(q.token_addresses.map((a) => a.toLowerCase()))].sort();
  const binding = queryBinding(['tokens', chain.id, wallet, q.to_block ?? null, filter, q.exclude_spam, q.exclude_native, limit]);
  let after: { block: number; offset: number; page: number } | undefined;
  if (q.cursor) {
    const [block, offset, page] = readCursor(q.cursor, binding);
    if (![block, offset, page].every((n) => Number.isSafeInteger(n) && (n as number) >= 0)) throw badParameter('cursor', 'cursor: it cannot be read');
    after = { block: block as number, offset: offset as number, page: page as number };
  }
  const h = await readHoldings(chain, wallet, {
    toBlock: q.to_block,
    tokenAddresses: filter,
    excludeSpam: q.exclude_spam,
    excludeNative: q.exclude_native,
    atBlock: after?.block,
  });
  // The native coin, then the tokens; rows are made for this page's tokens only.
  const lead = h.native ? [h.native] : [];
  const total = lead.length + h.tokens.length;
  const offset = after?.offset ?? 0;
  const result = [...lead.slice(offset, offset + limit), ...h.tokens.slice(Math.max(0, offset - lead.length), offset + limit - lead.length).map(tokenRow)];
  const page = after?.page ?? 1;
  const next = offset + limit < total ? signCursor(binding, [h.block, offset + limit, page + 1]) : null;
  return {
    page,
    page_size: limit,
    cursor: next,
    block_number: String(h.block),
    result,
    // The tokens whose balance could not be read, on the first page (a list of a few, not paged).
    ...(after ? {} : { unreadable: h.unreadable }),
  };
}

/** GET /{address}/erc20: the legacy bare array of ERC-20 balances (no native coin, no pages). */
export async function nodeErc20Balances(address: string, chain: Chain, q: { to_block?: number; token_addresses: string[]; exclude_spam: boolean }): Promise<Erc20Balance[]> {
  const h = await readHoldings(chain, address, { toBlock: q.to_block, tokenAddresses: q.token_addresses, excludeSpam: q.exclude_spam, excludeNative: true });
  return h.tokens.map(tokenRow).map((t) => ({
    token_address: t.token_address,
    name: t.name,
    symbol: t.symbol,
    logo: t.logo,
    thumbnail: t.thumbnail,
    decimals: t.decimals,
    balance: t.balance,
    possible_spam: t.possible_spam,
    verified_contract: t.verified_contract,
  }));
}
