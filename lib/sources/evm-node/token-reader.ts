import 'server-only';
import type { Address, Hex } from 'viem';
import type { Chain } from '@/lib/chains';
import { log } from '@/lib/log';
import { isPruned, multicall, multicallMode, overridesRefused, statePruned, type BlockRef, type CallOutcome, type ViewCall } from './multicall';
import { callNode } from './node-seam';
import { hexNum, RpcMethodError } from './rpc';
import { TOKEN_READER_CODE } from './token-reader-code';

/**
 * A wallet's tokens read in few eth_calls: contracts/TokenReader.sol, placed by an eth_call state override
 * at TOKEN_READER_ADDRESS (nothing is deployed), makes per token the view calls a mask names (balanceOf the
 * wallet, totalSupply, name, symbol, decimals) exactly as Multicall3's aggregate3 would, but is asked in
 * 21 bytes per token and answers each call's raw return data behind a 5-byte head. For 500 never-seen
 * tokens that is ~10 KB asked and ~150 KB answered, where aggregate3 took ~1.1 MB and ~930 KB, all of it
 * hex through the node's JSON and Lantern's decoding.
 *
 * Every outcome is the one aggregate3 would give for the same call (`ok` when the call succeeded and
 * returned data; the data either way), so what reads them cannot tell the paths apart. Where the reader
 * cannot be used, the same calls go through multicall.ts: a node that refuses state overrides (then
 * every later read of the chain does), and a chunk whose eth_call fails as a whole or answers something
 * that does not decode (multicall.ts splits it down to the call that failed it).
 */

/** Where the reader's code is placed for the call: an address no one holds a key to, chosen for it. */
export const TOKEN_READER_ADDRESS: Address = '0x000000000000000000000000000000004c746e52';

/** The calls a mask bit asks for, in the order they are made and answered. */
export const READS = ['balanceOf', 'totalSupply', 'name', 'symbol', 'decimals'] as const;
export type Read = (typeof READS)[number];
const SELECTORS: Record<Read, string> = { balanceOf: '70a08231', totalSupply: '18160ddd', name: '06fdde03', symbol: '95d89b41', decimals: '313ce567' };

/** Tokens per eth_call: a call of 5 view calls per token stays well under nodes' gas caps at this size. */
export const TOKEN_READER_CHUNK = 250;

export interface TokenRead {
  token: Address;
  reads: readonly Read[];
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** The mask of `reads` (the order they are listed in does not matter: they are made in READS order). */
function maskOf(reads: readonly Read[]): number {
  let mask = 0;
  for (const r of reads) mask |= 1 << READS.indexOf(r);
  return mask;
}

/** The calls of `items`, in the order the reader makes them: what aggregate3 is sent in its place. */
export function tokenReadCalls(wallet: Address, items: readonly TokenRead[]): ViewCall[] {
  const balanceOf = `0x${SELECTORS.balanceOf}${wallet.slice(2).toLowerCase().padStart(64, '0')}` as Hex;
  const calls: ViewCall[] = [];
  for (const { token, reads } of items) {
    const mask = maskOf(reads);
    READS.forEach((r, k) => {
      if (mask & (1 << k)) calls.push({ target: token, callData: r === 'balanceOf' ? balanceOf : (`0x${SELECTORS[r]}` as Hex) });
    });
  }
  return calls;
}

/** The reader's calldata: the wallet, then each token and its mask. */
export function encodeTokenRead(wallet: Address, items: readonly TokenRead[]): Hex {
  if (!ADDRESS.test(wallet)) throw new Error(`token reader: ${String(wallet).slice(0, 50)} is not an address`);
  let out = `0x${wallet.slice(2).toLowerCase()}`;
  for (const { token, reads } of items) {
    if (!ADDRESS.test(token)) throw new Error(`token reader: ${String(token).slice(0, 50)} is not an address`);
    out += token.slice(2).toLowerCase() + maskOf(reads).toString(16).padStart(2, '0');
  }
  return out as Hex;
}

/** How many calls the reader makes for `items`. */
export function callCount(items: readonly TokenRead[]): number {
  let n = 0;
  for (const { reads } of items) {
    const mask = maskOf(reads);
    for (let k = 0; k < READS.length; k++) if (mask & (1 << k)) n++;
  }
  return n;
}

const NOT_HEX = /[^0-9a-fA-F]/;
const NOT_LOWER_HEX = /[^0-9a-f]/;

/**
 * The reader's answer as one outcome per call, in order (as decodeAggregate3 gives them). Throws when the
 * data is not hex bytes, holds another number of answers than `expected`, or a head says more data than
 * there is.
 */
export function decodeTokenRead(data: Hex, expected: number): CallOutcome[] {
  if (typeof data !== 'string' || !data.startsWith('0x') || data.length % 2 !== 0) throw new Error('the token reader answered something that is not hex bytes');
  // Nodes answer lower-case hex: checked (0.2 ms for 500 tokens) rather than lower-cased (1.3 ms).
  const digits = data.slice(2);
  const lower = !NOT_LOWER_HEX.test(digits);
  if (!lower && NOT_HEX.test(digits)) throw new Error('the token reader answered something that is not hex bytes');
  const hex = lower ? data : data.toLowerCase();
  const end = hex.length;
  const out: CallOutcome[] = [];
  let p = 2;
  while (p < end) {
    if (out.length === expected) throw new Error(`the token reader answered more than ${expected} results`);
    if (p + 10 > end) throw new Error('the token reader answered a cut head');
    const flag = hex.slice(p, p + 2);
    if (flag !== '00' && flag !== '01') throw new Error('the token reader answered a success flag that is not 0 or 1');
    const length = Number.parseInt(hex.slice(p + 2, p + 10), 16);
    const from = p + 10;
    const to = from + length * 2;
    if (to > end) throw new Error('the token reader answered return data longer than the answer');
    out.push({ ok: flag === '01' && length > 0, data: length === 0 ? '0x' : `0x${hex.slice(from, to)}` } as CallOutcome);
    p = to;
  }
  if (out.length !== expected) throw new Error(`the token reader answered ${out.length} results for ${expected} calls`);
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Against the node.

/** Chains whose node refused the reader's state override (remembered per process, on globalThis). */
const g = globalThis as unknown as { __lanternTokenReaderRefused?: Set<number> };
const refused = (g.__lanternTokenReaderRefused ??= new Set());

/**
 * The outcome of every call of `items` at `block`, in tokenReadCalls order: through the reader where the
 * node takes state overrides, else through multicall.ts.
 */
export async function readTokens(chain: Chain, wallet: Address, items: readonly TokenRead[], block: BlockRef): Promise<CallOutcome[]> {
  if (items.length === 0) return [];
  if (refused.has(chain.id) || (await multicallMode(chain)) === 'single') return multicall(chain, tokenReadCalls(wallet, items), block);
  const chunks: TokenRead[][] = [];
  for (let i = 0; i < items.length; i += TOKEN_READER_CHUNK) chunks.push(items.slice(i, i + TOKEN_READER_CHUNK));
  const out = await Promise.all(chunks.map((c) => readChunk(chain, wallet, c, block)));
  return out.flat();
}

async function readChunk(chain: Chain, wallet: Address, items: TokenRead[], block: BlockRef): Promise<CallOutcome[]> {
  const expected = callCount(items);
  if (expected === 0) return [];
  const tag = block === 'latest' ? block : hexNum(block);
  const viaMulticall = () => multicall(chain, tokenReadCalls(wallet, items), block);
  let answer: Hex;
  try {
    answer = await callNode<Hex>(chain, 'eth_call', [{ to: TOKEN_READER_ADDRESS, data: encodeTokenRead(wallet, items) }, tag, { [TOKEN_READER_ADDRESS]: { code: TOKEN_READER_CODE } }]);
  } catch (e) {
    if (isPruned(e)) throw statePruned(block);
    if (!(e instanceof RpcMethodError)) throw e; // unreachable, timed out, breaker open: not the call's fault
    // Reverted or out of gas as a whole (a token that burns all the gas): multicall.ts finds the call.
    if (reverted(e)) return viaMulticall();
    return refuse(chain, e.detail, viaMulticall);
  }
  // A node that ignores the override calls an empty address: nothing comes back for calls that were made.
  if (answer === '0x') return refuse(chain, 'the state override was ignored', viaMulticall);
  try {
    return decodeTokenRead(answer, expected);
  } catch {
    return viaMulticall();
  }
}

const reverted = (e: RpcMethodError) => e.rpcCode === 3 || /revert|out of gas|invalid opcode/i.test(e.detail);

/**
 * The node refused the override. On a chain without Multicall3 that is every override (multicall.ts makes
 * single calls from now on, without trying its own); where Multicall3 is deployed, it is called there.
 */
function refuse(chain: Chain, reason: string, instead: () => Promise<CallOutcome[]>): Promise<CallOutcome[]> {
  if (!refused.has(chain.id)) {
    refused.add(chain.id);
    log().info({ chainId: chain.id, reason: reason.slice(0, 200) }, 'EVM node refused the token reader’s state override; reading tokens through Multicall3');
  }
  overridesRefused(chain, reason);
  return instead();
}
