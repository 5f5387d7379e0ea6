import 'server-only';
import { decodeAbiParameters, encodeFunctionData, hexToString, parseAbi, type Hex } from 'viem';
import { chainOrCustom } from '@/lib/chains';
import { db } from '@/lib/db';
import { onChainChange } from './chain';
import { multicall } from './multicall';
import { rpc } from './rpc';
import { TOPIC_TRANSFER, ZERO_TOPIC, topicAddress } from './logs';

/**
 * Token facts: name, symbol, decimals and the kind of contract, read once with eth_call and kept in
 * the database (and in memory). NFT contracts are told apart with ERC-165 supportsInterface
 * (0x80ac58cd ERC-721, 0xd9b67a26 ERC-1155); the transfer logs say the kind when a contract does not.
 *
 * Spam rule (`possible_spam`), documented in docs/evm-node.md: a token is possible spam when BOTH
 *  1. its name or symbol baits: it holds a URL or domain (`http`, `www.`, `name.tld`) or the words
 *     claim, reward(s), visit, voucher or airdrop; and
 *  2. it is distributed unsolicited: every mint (Transfer from the zero address) among the first 50
 *     the node returns went to an address that did not send the minting transaction.
 * A bait name alone is not enough (a project may be called "Reward Token"), and neither is an
 * airdrop alone (many honest tokens airdrop). When the node refuses the log query (range limits),
 * rule 1 decides alone, and the README says so.
 */

export type TokenKind = 'erc20' | 'erc721' | 'erc1155' | 'unknown';

export interface TokenFacts {
  address: string;
  kind: TokenKind;
  name: string | null;
  symbol: string | null;
  decimals: number | null;
  possibleSpam: boolean;
}

const abi = parseAbi([
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function supportsInterface(bytes4) view returns (bool)',
]);

const ERC721_ID = '0x80ac58cd';
const ERC1155_ID = '0xd9b67a26';

/**
 * Reuse rule: a token's facts are read once and kept (memory and evm_token) while the node stays on the
 * chain they were read from; chain.ts drops those read after a fork point and this memory is forgotten.
 */
const memory = new Map<string, TokenFacts>();
onChainChange((chainId) => {
  for (const k of memory.keys()) if (k.startsWith(`${chainId}:`)) memory.delete(k);
});
const inflight = new Map<string, Promise<TokenFacts>>();
const memKey = (chainId: number, address: string) => `${chainId}:${address}`;

/** Facts of many tokens at once: memory, then one database query, then the node for the rest. */
export async function tokenFactsMany(chainId: number, wanted: { address: string; hint: TokenKind }[]): Promise<Map<string, TokenFacts>> {
  const out = new Map<string, TokenFacts>();
  const missing = new Map<string, TokenKind>();
  for (const { address, hint } of wanted) {
    const m = memory.get(memKey(chainId, address));
    if (m) out.set(address, m);
    else missing.set(address, hint);
  }
  if (missing.size === 0) return out;
  const d = await db();
  const { rows } = await d.query<{ address: string; kind: TokenKind; name: string | null; symbol: string | null; decimals: number | null; possible_spam: boolean }>(
    'SELECT address, kind, name, symbol, decimals, possible_spam FROM evm_token WHERE chain_id = $1 AND address = ANY($2)',
    [chainId, [...missing.keys()]],
  );
  for (const r of rows) {
    const f: TokenFacts = { address: r.address, kind: r.kind, name: r.name, symbol: r.symbol, decimals: r.decimals, possibleSpam: r.possible_spam };
    memory.set(memKey(chainId, r.address), f);
    out.set(r.address, f);
    missing.delete(r.address);
  }
  // Tokens no one is reading yet are read together (one multicall for all of them); the others are awaited.
  const fresh = [...missing].filter(([address]) => !inflight.has(memKey(chainId, address)));
  if (fresh.length > 0) {
    const batch = readManyFromNode(chainId, fresh);
    for (const [address] of fresh) {
      const k = memKey(chainId, address);
      const p = batch.then((m) => m.get(address)!);
      inflight.set(k, p);
      void p.catch(() => undefined).finally(() => {
        if (inflight.get(k) === p) inflight.delete(k);
      });
    }
  }
  const read = await Promise.all([...missing.keys()].map((address) => inflight.get(memKey(chainId, address))!));
  for (const f of read) out.set(f.address, f);
  return out;
}

/** ERC-20 name/symbol are `string`, but old tokens (MKR) return bytes32. */
function decodeText(out: Hex | null): string | null {
  if (!out) return null;
  try {
    if (out.length === 66) return hexToString(out, { size: 32 }).replace(/\0+$/, '').trim() || null;
    const [s] = decodeAbiParameters([{ type: 'string' }], out);
    return s.trim() || null;
  } catch {
    return null;
  }
}

function decodeUint(out: Hex | null): number | null {
  if (!out || out.length < 66) return null;
  const n = BigInt(out.slice(0, 66));
  return n <= 255n ? Number(n) : null;
}

const decodeBool = (out: Hex | null) => !!out && out.length >= 66 && BigInt(out.slice(0, 66)) === 1n;

/** The five view calls a token's facts come from: name, symbol, decimals, and ERC-165 for 721 and 1155. */
const FACT_CALLS: Hex[] = [
  encodeFunctionData({ abi, functionName: 'name' }),
  encodeFunctionData({ abi, functionName: 'symbol' }),
  encodeFunctionData({ abi, functionName: 'decimals' }),
  encodeFunctionData({ abi, functionName: 'supportsInterface', args: [ERC721_ID] }),
  encodeFunctionData({ abi, functionName: 'supportsInterface', args: [ERC1155_ID] }),
];

/**
 * Facts of tokens read from the chain's node at its latest block: all their view calls in one multicall
 * (multicall.ts: a few hundred calls per eth_call; it learns per chain what the node allows, a chain known
 * only by its id included).
 */
async function readManyFromNode(chainId: number, tokens: [string, TokenKind][]): Promise<Map<string, TokenFacts>> {
  const outcomes = await multicall(chainOrCustom(chainId), tokens.flatMap(([address]) => FACT_CALLS.map((callData) => ({ target: address as Hex, callData }))), 'latest');
  const answers = tokens.map((_, i) => outcomes.slice(i * FACT_CALLS.length, (i + 1) * FACT_CALLS.length).map((o) => (o.ok ? o.data : null)));
  const facts = await Promise.all(tokens.map(([address, hint], i) => factsOf(chainId, address, hint, answers[i]! as [Hex | null, Hex | null, Hex | null, Hex | null, Hex | null])));
  await keepFacts(chainId, facts);
  return new Map(facts.map((f) => [f.address, f]));
}

/** Kept in one statement: a wallet of hundreds of never-seen tokens is one round trip, not one per token. */
async function keepFacts(chainId: number, facts: TokenFacts[]): Promise<void> {
  if (facts.length === 0) return;
  const d = await db();
  await d.query(
    `INSERT INTO evm_token (chain_id, address, kind, name, symbol, decimals, possible_spam)
     SELECT $1::integer, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::integer[], $7::boolean[])
     ON CONFLICT (chain_id, address) DO NOTHING`,
    [chainId, facts.map((f) => f.address), facts.map((f) => f.kind), facts.map((f) => f.name), facts.map((f) => f.symbol), facts.map((f) => f.decimals), facts.map((f) => f.possibleSpam)],
  );
  for (const f of facts) memory.set(memKey(chainId, f.address), f);
}

async function factsOf(chainId: number, address: string, hint: TokenKind, [name, symbol, decimals, is721, is1155]: [Hex | null, Hex | null, Hex | null, Hex | null, Hex | null]): Promise<TokenFacts> {
  let kind: TokenKind = hint;
  if (decodeBool(is721)) kind = 'erc721';
  else if (decodeBool(is1155)) kind = 'erc1155';
  else if (hint === 'unknown' && decodeUint(decimals) !== null) kind = 'erc20';
  const facts: TokenFacts = {
    address,
    kind,
    name: decodeText(name),
    symbol: decodeText(symbol),
    decimals: kind === 'erc20' ? decodeUint(decimals) : null,
    possibleSpam: false,
  };
  facts.possibleSpam = baitText(facts.name, facts.symbol) && (await distributedUnsolicited(chainId, address));
  return facts;
}

const URL_LIKE = /(https?:\/\/|www\.|\b[a-z0-9-]{2,}\.(com|io|xyz|net|org|app|finance|example|site|online|top|click|link|gift|pro|cc|co|me|info|biz|vip|fun|live)\b)/i;
const BAIT_WORDS = /\b(claim|claims|reward|rewards|visit|voucher|airdrop)\b/i;

/** Rule 1 of the spam rule: the name or symbol advertises (a URL or domain, or bait words). */
export function baitText(name: string | null, symbol: string | null): boolean {
  const text = `${name ?? ''} ${symbol ?? ''}`;
  return URL_LIKE.test(text) || BAIT_WORDS.test(text);
}

/** A mint (Transfer from the zero address) as rule 2 reads it: the minting transaction and the receiver. */
export interface Mint {
  tx: string;
  /** Lower-case receiver; null when the log does not name one. */
  to: string | null;
}

/**
 * Rule 2 of the spam rule: the token was distributed unsolicited. Every mint of the sample went to an
 * address that did not send the minting transaction (`senders`: transaction -> lower-case sender). A
 * token never minted, or minted once to whoever asked for it, is not.
 */
export function mintedUnsolicited(mints: readonly Mint[], senders: ReadonlyMap<string, string | undefined>): boolean {
  if (mints.length === 0) return false;
  return mints.every((m) => m.to !== null && senders.get(m.tx) !== m.to);
}

/** How many of a token's first mints rule 2 reads. */
export const MINT_SAMPLE = 50;

/** Rule 2 read from the node: the token's first mints and the senders of their transactions. */
async function distributedUnsolicited(chainId: number, token: string): Promise<boolean> {
  let logs: { transactionHash: Hex; topics: Hex[] }[];
  try {
    logs = await rpc(chainId, 'eth_getLogs', [{ address: token, fromBlock: '0x0', toBlock: 'latest', topics: [TOPIC_TRANSFER, ZERO_TOPIC] }]);
  } catch {
    return true; // the node will not say: rule 1 decides alone (documented)
  }
  const mints: Mint[] = logs.slice(0, MINT_SAMPLE).map((l) => ({ tx: l.transactionHash, to: l.topics[2] ? topicAddress(l.topics[2]) : null }));
  if (mints.length === 0) return false;
  const senders = await Promise.all(
    [...new Set(mints.map((m) => m.tx))].map(async (h) => [h, (await rpc<{ from: string } | null>(chainId, 'eth_getTransactionByHash', [h]))?.from?.toLowerCase()] as const),
  );
  return mintedUnsolicited(mints, new Map(senders));
}
