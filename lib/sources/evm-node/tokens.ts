import 'server-only';
import { encodeFunctionData, parseAbi, type Hex } from 'viem';
import { chainOrCustom } from '@/lib/chains';
import { answerFirst, db, startHeldWrites, type Queryable } from '@/lib/db';
import { log } from '@/lib/log';
import { onChainChange } from './chain';
import { multicall } from './multicall';
import { rpc } from './rpc';
import { TOPIC_TRANSFER, ZERO_TOPIC, topicAddress } from './logs';

/**
 * Token facts: name, symbol, decimals and the kind of contract, read once with eth_call and kept in
 * the database (and in memory). NFT contracts are told apart with ERC-165 supportsInterface
 * (0x80ac58cd ERC-721, 0xd9b67a26 ERC-1155); the transfer logs say the kind when a contract does not.
 * A contract whose logs have the ERC-20 shape (a Transfer or Approval of 3 topics and a 32-byte
 * amount: hint `erc20`) and whose decimals() answers a number from 0 to 255 is an ERC-20 without
 * asking ERC-165 (an ERC-721 indexes its token id: 4 topics); only the ERC-20-shaped contracts without
 * such decimals are asked, in a second multicall, whether they are NFTs after all (an old ERC-721 that
 * does not index the id logs the ERC-20 shape). A wallet of 500 tokens saves 1,000 view calls.
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
const memories = new Map<number, Map<string, TokenFacts>>();
/** How many chain changes this process has seen per chain: a write of facts read before one is dropped. */
const changes = new Map<number, number>();
onChainChange((chainId) => {
  memories.delete(chainId);
  changes.set(chainId, (changes.get(chainId) ?? 0) + 1);
});
/** Tokens being read, each to the read that brings it (one read brings many: awaited once, not once a token). */
const inflights = new Map<number, Map<string, Promise<Map<string, TokenFacts>>>>();
/**
 * A chain's facts and reads, keyed by the address alone: a key made of chain and address per lookup (a
 * never-seen wallet of 500 tokens makes some 3,500) cost ~2 ms of its answer in new strings to hash.
 */
const perChain = <V>(maps: Map<number, Map<string, V>>, chainId: number): Map<string, V> => {
  let m = maps.get(chainId);
  if (!m) maps.set(chainId, (m = new Map()));
  return m;
};

/**
 * Facts read from the node are answered from memory at once and written to evm_token after the answer
 * (a wallet's 500 new tokens are one INSERT, which sat on its first answer). Whatever reads evm_token in
 * SQL (this module's own read, the NFT listing's exclude_spam) first awaits the chain's pending writes
 * (`tokenFactsKept`), so none misses a row being written. Per chain, on globalThis: every route bundle
 * of the server sees the same writes.
 */
const gw = globalThis as unknown as { __lanternTokenFactWrites?: Map<number, Promise<void>> };
const writes = (gw.__lanternTokenFactWrites ??= new Map<number, Promise<void>>());
/** The writes of a chain's facts held until their answer is sent (lib/db answerFirst). */
const heldFacts = (chainId: number) => `token-facts:${chainId}`;

/**
 * Resolves once every token fact read so far on the chain is in evm_token (or its write failed and was
 * logged). A write held until its answer is sent starts now: the reader may be that answer's own request.
 */
export function tokenFactsKept(chainId: number): Promise<void> {
  startHeldWrites(heldFacts(chainId));
  return writes.get(chainId) ?? Promise.resolve();
}

/** A token's name, symbol and decimals calls as it answered them (null: the call failed or returned nothing). */
export interface FactAnswers {
  name: Hex | null;
  symbol: Hex | null;
  decimals: Hex | null;
}

/** The token's facts are in this process's memory (reading them needs no database or node). */
export function factsInMemory(chainId: number, address: string): boolean {
  return memories.get(chainId)?.has(address) ?? false;
}

/**
 * Facts of many tokens at once: memory, then one database query, then the node for the rest. `answered`:
 * the name, symbol and decimals calls of some tokens, already on their way from the node in another read
 * (the holdings' token reader asks them beside the balances, at the head): the tokens it holds that are in
 * neither memory nor the database take their facts from it rather than from a read of their own.
 */
export async function tokenFactsMany(
  chainId: number,
  wanted: { address: string; hint: TokenKind }[],
  answered?: Promise<ReadonlyMap<string, FactAnswers>>,
): Promise<Map<string, TokenFacts>> {
  const seen = changes.get(chainId) ?? 0; // the chain as it was when `answered` was asked
  const out = new Map<string, TokenFacts>();
  const missing = new Map<string, TokenKind>();
  const memory = perChain(memories, chainId);
  const inflight = perChain(inflights, chainId);
  for (const { address, hint } of wanted) {
    const m = memory.get(address);
    if (m) out.set(address, m);
    else missing.set(address, hint);
  }
  if (missing.size === 0) return out;
  const d = await db();
  await tokenFactsKept(chainId);
  const { rows } = await d.query<{ address: string; kind: TokenKind; name: string | null; symbol: string | null; decimals: number | null; possible_spam: boolean }>(
    'SELECT address, kind, name, symbol, decimals, possible_spam FROM evm_token WHERE chain_id = $1 AND address = ANY($2)',
    [chainId, [...missing.keys()]],
  );
  for (const r of rows) {
    const f: TokenFacts = { address: r.address, kind: r.kind, name: r.name, symbol: r.symbol, decimals: r.decimals, possibleSpam: r.possible_spam };
    memory.set(r.address, f);
    out.set(r.address, f);
    missing.delete(r.address);
  }
  // Tokens no one is reading yet are read together (one multicall for all of them); the others are awaited.
  const fresh = [...missing].filter(([address]) => !inflight.has(address));
  if (fresh.length > 0) {
    const batch = answered ? factsFromAnswered(chainId, fresh, answered, seen) : readManyFromNode(chainId, fresh);
    const keys = fresh.map(([address]) => address);
    for (const k of keys) inflight.set(k, batch);
    void batch.catch(() => undefined).finally(() => {
      for (const k of keys) if (inflight.get(k) === batch) inflight.delete(k);
    });
  }
  const reads = new Map<Promise<Map<string, TokenFacts>>, string[]>();
  for (const address of missing.keys()) {
    const r = inflight.get(address)!;
    const list = reads.get(r);
    if (list) list.push(address);
    else reads.set(r, [address]);
  }
  const got = await Promise.all(reads.keys());
  [...reads.values()].forEach((addresses, i) => {
    for (const address of addresses) out.set(address, got[i]!.get(address)!);
  });
  return out;
}

const utf8 = new TextDecoder();

/**
 * A name or symbol as text: ERC-20 says `string`, but old tokens (MKR) return bytes32. Decoded by hand
 * rather than with viem's ABI decoder (a never-seen wallet of 500 tokens decodes 1,000 of them; viem's
 * generic cursor was a visible part of that answer), with viem's exact outcome: a bytes32 is read up to
 * its last non-zero byte, a string's bytes are read where its offset and length say (both safe integers,
 * inside the data), invalid UTF-8 becomes U+FFFD, and data viem would refuse is null.
 * tests/unit/evm-node/token-text.test.ts holds it to `decodeAbiParameters`/`hexToString` on any input.
 * Whitespace around the text, and trailing NULs of a bytes32, are dropped; empty text is null.
 */
export function decodeText(out: Hex | null): string | null {
  if (!out || out.length < 66 || out.length % 2 !== 0) return null;
  const ascii = out.length >= 130 ? asciiString(out) : undefined;
  if (ascii !== undefined) return ascii;
  const bytes = hexBytes(out);
  if (!bytes) return null; // not hex
  if (bytes.length === 32) {
    let end = 32;
    while (end > 1 && bytes[end - 1] === 0) end--;
    return utf8Text(bytes, 0, end).replace(/\0+$/, '').trim() || null;
  }
  const size = bytes.length;
  /** The word at byte `pos` as viem reads an offset or length: inside the data, a safe integer; else null. */
  const word = (pos: number): number | null => {
    if (pos < 0 || pos + 32 > size) return null;
    for (let i = pos; i < pos + 25; i++) if (bytes[i] !== 0) return null; // 2^56 or more: never safe
    let n = 0;
    for (let i = pos + 25; i < pos + 32; i++) n = n * 256 + bytes[i]!;
    return Number.isSafeInteger(n) ? n : null;
  };
  const offset = word(0);
  if (offset === null) return null;
  const length = word(offset);
  if (length === null) return null;
  if (length === 0) return null; // viem: ''
  if (offset + 32 + length > size) return null;
  return utf8Text(bytes, offset + 32, offset + 32 + length).trim() || null;
}

const STRING_AT_32 = `${'0'.repeat(62)}20`;
const ZEROS_54 = '0'.repeat(54);
const HEX_DATA = /^0x[0-9a-fA-F]*$/;

/**
 * What nearly every name and symbol is, read straight from the hex (the first answer of a never-seen
 * wallet runs this 1,000 times before the JIT has compiled it, so it does the fewest steps): an ABI string
 * at offset 32 whose text is ASCII, as decodeText reads it. Undefined when the data is anything else, for
 * the general reading to decide.
 */
function asciiString(out: string): string | null | undefined {
  if (!out.startsWith(STRING_AT_32, 2) || !out.startsWith(ZEROS_54, 66) || !HEX_DATA.test(out)) return undefined;
  const length = Number.parseInt(out.slice(120, 130), 16); // < 2^40: the 27 bytes before are zero
  if (length === 0 || 130 + length * 2 > out.length) return null;
  if (length > 1024) return undefined;
  const codes: number[] = [];
  for (let i = 0, p = 130; i < length; i++, p += 2) {
    const c = (HEX_DIGIT[out.charCodeAt(p)]! << 4) | HEX_DIGIT[out.charCodeAt(p + 1)]!;
    if (c >= 0x80) return undefined; // UTF-8: the general reading
    codes.push(c);
  }
  return String.fromCharCode(...codes).trim() || null;
}

/** Each ASCII character's value as a hex digit, -1 where it is none. */
const HEX_DIGIT = (() => {
  const t = new Int8Array(128).fill(-1);
  for (let i = 0; i < 10; i++) t[48 + i] = i;
  for (let i = 0; i < 6; i++) t[65 + i] = t[97 + i] = 10 + i;
  return t;
})();

/**
 * The bytes of `0x` hex data of even length, or null when a character is not a hex digit. By hand rather
 * than Buffer.from(hex, 'hex'): in a CPU profile of the server's first answer for a never-seen wallet of
 * 500 tokens, Buffer.from over the 1,000 names and symbols was ~100 ms of self time, this loop ~20 ms.
 */
function hexBytes(out: string): Uint8Array | null {
  const bytes = new Uint8Array((out.length - 2) >> 1);
  for (let i = 0, p = 2; i < bytes.length; i++, p += 2) {
    const a = out.charCodeAt(p);
    const b = out.charCodeAt(p + 1);
    const hi = a < 128 ? HEX_DIGIT[a]! : -1;
    const lo = b < 128 ? HEX_DIGIT[b]! : -1;
    if (hi < 0 || lo < 0) return null;
    bytes[i] = (hi << 4) | lo;
  }
  return bytes;
}

/** bytes[start, end) as UTF-8 text; ASCII (nearly every token's name) without TextDecoder's per-call cost. */
function utf8Text(bytes: Uint8Array, start: number, end: number): string {
  if (end - start > 1024) return utf8.decode(bytes.subarray(start, end)); // too many arguments for fromCharCode
  for (let i = start; i < end; i++) if (bytes[i]! >= 0x80) return utf8.decode(bytes.subarray(start, end));
  return String.fromCharCode.apply(null, bytes.subarray(start, end) as unknown as number[]);
}

function decodeUint(out: Hex | null): number | null {
  if (!out || out.length < 66) return null;
  const n = BigInt(out.slice(0, 66));
  return n <= 255n ? Number(n) : null;
}

const decodeBool = (out: Hex | null) => !!out && out.length >= 66 && BigInt(out.slice(0, 66)) === 1n;

const NAME_CALL = encodeFunctionData({ abi, functionName: 'name' });
const SYMBOL_CALL = encodeFunctionData({ abi, functionName: 'symbol' });
const DECIMALS_CALL = encodeFunctionData({ abi, functionName: 'decimals' });
/** ERC-165 for ERC-721 and ERC-1155. */
const NFT_CALLS: Hex[] = [
  encodeFunctionData({ abi, functionName: 'supportsInterface', args: [ERC721_ID] }),
  encodeFunctionData({ abi, functionName: 'supportsInterface', args: [ERC1155_ID] }),
];

type Answers = { name: Hex | null; symbol: Hex | null; decimals: Hex | null; is721: Hex | null; is1155: Hex | null };

/**
 * Facts of tokens read from the chain's node at its latest block: name, symbol and decimals of all of
 * them in one multicall, ERC-165 beside them for those whose logs do not say ERC-20, and after them for
 * the ERC-20-shaped ones whose decimals() did not answer (see the top). multicall.ts makes a few hundred
 * calls per eth_call and learns per chain what the node allows, a chain known only by its id included.
 * The facts are answered at once and written to evm_token after (`tokenFactsKept`).
 */
async function readManyFromNode(chainId: number, tokens: [string, TokenKind][]): Promise<Map<string, TokenFacts>> {
  const chain = chainOrCustom(chainId);
  const d = await db(); // taken now: the write after the answer goes to the database this read began with
  const seen = changes.get(chainId) ?? 0; // the chain as it was when these facts were read
  const first = tokens.map(([address, hint]) => [NAME_CALL, SYMBOL_CALL, DECIMALS_CALL, ...(hint === 'erc20' ? [] : NFT_CALLS)].map((callData) => ({ target: address as Hex, callData })));
  const outcomes = await multicall(chain, first.flat(), 'latest');
  let at = 0;
  const answers: Answers[] = first.map((calls) => {
    const got = outcomes.slice(at, (at += calls.length));
    return { name: data(got[0]), symbol: data(got[1]), decimals: data(got[2]), is721: data(got[3]), is1155: data(got[4]) };
  });
  return finishFacts(chainId, d, seen, tokens, answers);
}

const data = (o: { ok: boolean; data: Hex } | undefined) => (o?.ok ? o.data : null);

/**
 * Facts of tokens whose name, symbol and decimals another read brings (`answered`); a token it does not
 * hold is read from the node as above.
 */
async function factsFromAnswered(chainId: number, tokens: [string, TokenKind][], answered: Promise<ReadonlyMap<string, FactAnswers>>, seen: number): Promise<Map<string, TokenFacts>> {
  const d = await db();
  const got = await answered;
  // Only tokens whose logs say ERC-20: the others are asked ERC-165 beside their first answers.
  const taken = ([address, hint]: [string, TokenKind]) => hint === 'erc20' && got.has(address);
  const have = tokens.filter(taken);
  const rest = tokens.filter((t) => !taken(t));
  // Written out key by key: a spread with keys added after it cost V8 ~3 µs a token (wallet-logs.ts's classifyLog).
  const answers: Answers[] = have.map(([address]) => {
    const { name, symbol, decimals } = got.get(address)!;
    return { name, symbol, decimals, is721: null, is1155: null };
  });
  const [a, b] = await Promise.all([finishFacts(chainId, d, seen, have, answers), rest.length > 0 ? readManyFromNode(chainId, rest) : new Map<string, TokenFacts>()]);
  return new Map([...a, ...b]);
}

/**
 * The facts from a token's first answers: ERC-165 asked of the ERC-20-shaped ones whose decimals() gave
 * no number (see the top), the spam rule, memory, and the write to evm_token after the answer.
 */
async function finishFacts(chainId: number, d: Queryable, seen: number, tokens: [string, TokenKind][], answers: Answers[]): Promise<Map<string, TokenFacts>> {
  const chain = chainOrCustom(chainId);
  // ERC-20-shaped contracts whose decimals() gave no number from 0 to 255: an NFT after all?
  const ask = tokens.flatMap(([, hint], i) => (hint === 'erc20' && decodeUint(answers[i]!.decimals) === null ? [i] : []));
  if (ask.length > 0) {
    const nft = await multicall(chain, ask.flatMap((i) => NFT_CALLS.map((callData) => ({ target: tokens[i]![0] as Hex, callData }))), 'latest');
    ask.forEach((i, k) => Object.assign(answers[i]!, { is721: data(nft[k * 2]), is1155: data(nft[k * 2 + 1]) }));
  }
  // Facts are made at once; only a token whose name or symbol baits is awaited, for rule 2 of the spam
  // rule (a never-seen wallet of 500 honest tokens makes no promise per token).
  const facts = tokens.map(([address, hint], i) => factsOf(address, hint, answers[i]!));
  const baits = facts.filter((f) => baitText(f.name, f.symbol));
  if (baits.length > 0) await Promise.all(baits.map(async (f) => (f.possibleSpam = await distributedUnsolicited(chainId, f.address))));
  const memory = perChain(memories, chainId);
  for (const f of facts) memory.set(f.address, f);
  keepFactsLater(d, chainId, facts, seen);
  return new Map(facts.map((f) => [f.address, f]));
}

/** Queues the facts' write after the chain's pending ones; readers of evm_token await it (tokenFactsKept). */
function keepFactsLater(d: Queryable, chainId: number, facts: TokenFacts[], seen: number): void {
  if (facts.length === 0) return;
  // Written once the answer is sent (or a reader of evm_token asks for it), after the chain's pending writes.
  const write = Promise.all([writes.get(chainId), answerFirst(heldFacts(chainId))])
    // A chain change (reorg, another chain) since they were read: they may describe contracts the node no
    // longer has, and the change's clean-up has run already. Not kept; read again next time.
    .then(() => ((changes.get(chainId) ?? 0) === seen ? keepFacts(d, chainId, facts) : undefined))
    .catch((e: unknown) => log().warn({ chainId, tokens: facts.length, err: e instanceof Error ? e.message : String(e) }, 'token facts could not be kept; they are read again next time'));
  writes.set(chainId, write);
  void write.finally(() => {
    if (writes.get(chainId) === write) writes.delete(chainId);
  });
}

/** Kept in one statement: a wallet of hundreds of never-seen tokens is one round trip, not one per token. */
async function keepFacts(d: Queryable, chainId: number, facts: TokenFacts[]): Promise<void> {
  await d.query(
    `INSERT INTO evm_token (chain_id, address, kind, name, symbol, decimals, possible_spam)
     SELECT $1::integer, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::integer[], $7::boolean[])
     ON CONFLICT (chain_id, address) DO NOTHING`,
    [chainId, facts.map((f) => f.address), facts.map((f) => f.kind), facts.map((f) => f.name), facts.map((f) => f.symbol), facts.map((f) => f.decimals), facts.map((f) => f.possibleSpam)],
  );
}

/** A token's facts from its answers, `possibleSpam` false (the caller reads the spam rule of those whose text baits). */
function factsOf(address: string, hint: TokenKind, { name, symbol, decimals, is721, is1155 }: Answers): TokenFacts {
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
