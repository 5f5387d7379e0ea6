import 'server-only';
import {
  createClient,
  custom,
  decodeAbiParameters,
  deploylessCallViaBytecodeBytecode,
  erc20Abi,
  getAbiItem,
  multicall3Abi,
  toFunctionSelector,
  type Address,
  type Hex,
} from 'viem';
import { multicall as viemMulticall } from 'viem/actions';
import type { Chain } from '@/lib/chains';
import { LanternError } from '@/lib/errors';
import { log } from '@/lib/log';
import { hexNum, RpcMethodError } from './rpc';
import { callNode } from './node-seam';

/**
 * Many view calls in one eth_call: Multicall3's `aggregate3` with `allowFailure` on every call, so one
 * reverting token does not fail the others. All calls of a read are pinned to one block.
 *
 * Where the code comes from, per chain (remembered per process):
 *  - `deployed`: Multicall3 is at its canonical address (it is on most public chains): called there;
 *  - `override`: it is not (the devnet): the same call with an eth_call state override that places
 *    Multicall3's runtime code at that address for this one call; nothing is deployed;
 *  - `single`: the node refused the override: each call is its own eth_call (JSON-RPC batched).
 * A chunk whose aggregate3 fails as a whole (a call that burns all the gas) is split in halves, down to
 * single calls. A node that no longer keeps the block's state answers a 410 saying so.
 */

/** Multicall3's address on every chain it is deployed to (the same deployer key and nonce everywhere). */
export const MULTICALL3_ADDRESS: Address = '0xcA11bde05977b3631167028862bE2a173976CA11';

/** Calls per aggregate3 eth_call: a few hundred keeps each call well under nodes' gas and size caps. */
export const MULTICALL_CHUNK = 300;

export interface ViewCall {
  target: Address;
  callData: Hex;
}

/** A call's outcome: `ok` with its return data, or failed (reverted, or returned nothing) with what it returned. */
export type CallOutcome = { ok: true; data: Hex } | { ok: false; data: Hex };

// ---------------------------------------------------------------------------------------------------
// The codec (pure).

// Written by hand rather than with viem's ABI codec: a never-seen wallet of hundreds of tokens sends and
// reads thousands of calls, and viem's generic codec (a byte array and a hex string per word, a bool
// trimmed byte by byte) was most of Lantern's own time answering it. The layout is aggregate3's, fixed;
// tests/unit/evm-node/multicall.test.ts checks both directions against viem's codec.

/** aggregate3's selector, from Multicall3's ABI. */
const AGGREGATE3 = toFunctionSelector(getAbiItem({ abi: multicall3Abi, name: 'aggregate3' }));
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const NOT_HEX = /[^0-9a-fA-F]/;
/** `0x` then an even number of hex digits. */
const isHexBytes = (h: string) => h.startsWith('0x') && h.length % 2 === 0 && !NOT_HEX.test(h.slice(2));
const HIGH_ZEROS = '0'.repeat(52);
const word = (n: number) => n.toString(16).padStart(64, '0');

/** aggregate3 calldata for `calls`, every one allowed to fail. */
export function encodeAggregate3(calls: readonly ViewCall[]): Hex {
  const heads: string[] = [];
  const tails: string[] = [];
  let offset = calls.length * 32; // the first tuple follows the array's offsets
  for (const c of calls) {
    if (!ADDRESS.test(c.target)) throw new Error(`aggregate3: ${String(c.target).slice(0, 50)} is not an address`);
    if (!isHexBytes(c.callData)) throw new Error(`aggregate3: the call data for ${c.target} is not hex bytes`);
    const body = c.callData.slice(2);
    // (address target, bool allowFailure = true, bytes callData): the bytes' offset is 3 words into the tuple.
    const tuple = `${'0'.repeat(24)}${c.target.slice(2).toLowerCase()}${word(1)}${word(0x60)}${word(body.length / 2)}${body}${'0'.repeat((64 - (body.length % 64)) % 64)}`;
    heads.push(word(offset));
    tails.push(tuple);
    offset += tuple.length / 2;
  }
  return `${AGGREGATE3}${word(32)}${word(calls.length)}${heads.join('')}${tails.join('')}`;
}

/**
 * aggregate3's return data as one outcome per call, in order. A call that succeeded but returned no
 * data (a call to an address without code does) is a failure: no view function answers nothing.
 * Throws when the data does not decode or holds another number of results than `expected`.
 */
export function decodeAggregate3(data: Hex, expected: number): CallOutcome[] {
  if (!isHexBytes(data)) throw new Error('aggregate3 answered something that is not hex bytes');
  const hex = data.toLowerCase();
  const size = (hex.length - 2) / 2;
  /** The word at byte `at` as an offset, length or bool: it must lie inside the data and fit a safe integer. */
  const num = (at: number): number => {
    if (at + 32 > size) throw new Error('aggregate3 answered data shorter than its offsets say');
    if (!hex.startsWith(HIGH_ZEROS, 2 + at * 2)) throw new Error('aggregate3 answered an offset or length beyond any data');
    return Number.parseInt(hex.slice(54 + at * 2, 66 + at * 2), 16);
  };
  const array = num(0);
  const n = num(array);
  if (n !== expected) throw new Error(`aggregate3 answered ${n} results for ${expected} calls`);
  const base = array + 32; // the tuples' offsets count from the word after the array's length
  const out: CallOutcome[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const tuple = base + num(base + i * 32);
    const success = num(tuple);
    if (success > 1) throw new Error('aggregate3 answered a success flag that is not a bool');
    const bytes = tuple + num(tuple + 32);
    const length = num(bytes);
    if (bytes + 32 + length > size) throw new Error('aggregate3 answered return data longer than the answer');
    const returnData: Hex = length === 0 ? '0x' : `0x${hex.slice(2 + (bytes + 32) * 2, 2 + (bytes + 32 + length) * 2)}`;
    out[i] = { ok: success === 1 && length > 0, data: returnData } as CallOutcome;
  }
  return out;
}

/**
 * Multicall3's runtime code from its creation code: the constructor is `CODECOPY(0, offset, length)`
 * then `RETURN(0, length)` (`61 <len> 80 61 <offset> 6000 39 6000 f3`), so the runtime code is that slice.
 */
export function runtimeFromCreation(creation: Hex): Hex {
  const m = /^0x(?:[0-9a-f]{2})*?61([0-9a-f]{4})8061([0-9a-f]{4})6000396000f3/i.exec(creation);
  if (!m) throw new Error('not a creation code of the CODECOPY/RETURN form');
  const length = Number.parseInt(m[1]!, 16);
  const offset = Number.parseInt(m[2]!, 16);
  const runtime = creation.slice(2 + offset * 2, 2 + (offset + length) * 2);
  if (runtime.length !== length * 2) throw new Error('creation code shorter than the runtime code it copies');
  return `0x${runtime}`;
}

let runtimeCode: Promise<Hex> | undefined;

/**
 * Multicall3's runtime code, as viem carries it (viem sends its creation code in a deployless
 * multicall; viem does not export the constant itself): taken from the one eth_call viem would make,
 * answered here without any network, then cut to the runtime code.
 */
export function multicall3RuntimeCode(): Promise<Hex> {
  runtimeCode ??= (async () => {
    let sent: Hex | undefined;
    const offline = createClient({
      transport: custom(
        {
          async request({ method, params }) {
            if (method === 'eth_call') sent = (params as [{ data: Hex }])[0].data;
            throw new Error('offline');
          },
        },
        { retryCount: 0 },
      ),
    });
    await viemMulticall(offline, {
      contracts: [{ address: MULTICALL3_ADDRESS, abi: erc20Abi, functionName: 'totalSupply' }],
      deployless: true,
      allowFailure: true,
    });
    if (!sent?.startsWith(deploylessCallViaBytecodeBytecode)) throw new Error('viem did not send a deployless multicall');
    const [creation] = decodeAbiParameters([{ type: 'bytes' }, { type: 'bytes' }], `0x${sent.slice(deploylessCallViaBytecodeBytecode.length)}`);
    return runtimeFromCreation(creation);
  })();
  return runtimeCode;
}
// Worked out as the module loads (a server's warm-up loads it): viem's codec takes ~10 ms over it, which
// the first never-seen wallet's multicall would otherwise wait for.
void multicall3RuntimeCode().catch(() => undefined);

// ---------------------------------------------------------------------------------------------------
// Against the node.

export type Mode = 'deployed' | 'override' | 'single';
const g = globalThis as unknown as { __lanternMulticallMode?: Map<number, Promise<Mode> | Mode> };
const modes = (g.__lanternMulticallMode ??= new Map());

/** What the node said when it no longer has a block's state (Geth, Erigon, Reth, Nethermind, anvil, providers). */
const PRUNED = /missing trie node|state (?:is )?not available|historical state|pruned|state .{0,40}(?:unavailable|not found)|BlockOutOfRange|required historical|not an archive/i;

/** The 410 for a read of a block whose state the node has dropped. */
export function statePruned(block: BlockRef): LanternError {
  return new LanternError(
    410,
    'block_pruned',
    `The EVM node no longer keeps the state of block ${block} (it has pruned it), so balances at that block cannot be read; ask for a later to_block, or point Lantern at an archive node.`,
  );
}

/** The node's error says it no longer has the state of the block asked for. */
export function isPruned(e: unknown): boolean {
  return e instanceof RpcMethodError && PRUNED.test(e.detail);
}

/**
 * Learns, ahead of the first multicall, how the chain's node takes one (its eth_getCode travels beside
 * whatever the caller asks first, instead of before the multicall). A failure is left to that multicall.
 */
export function prepareMulticall(chain: Chain): void {
  void modeOf(chain).catch(() => undefined);
}

/** How the chain's node takes a multicall (learnt once per process): the token reader asks whether overrides work. */
export function multicallMode(chain: Chain): Promise<Mode> {
  return modeOf(chain);
}

async function modeOf(chain: Chain): Promise<Mode> {
  const known = modes.get(chain.id);
  if (known) return known;
  const p = callNode<Hex>(chain, 'eth_getCode', [MULTICALL3_ADDRESS, 'latest']).then(
    (code): Mode => (code && code !== '0x' ? 'deployed' : 'override'),
    (e) => {
      modes.delete(chain.id);
      throw e;
    },
  );
  modes.set(chain.id, p);
  const mode = await p;
  modes.set(chain.id, mode);
  return mode;
}

/** A block number, or the node's latest block (for facts that do not depend on one). */
export type BlockRef = number | 'latest';

/** Each view call at `block`, in order: chunks of MULTICALL_CHUNK through aggregate3 (see above). */
export async function multicall(chain: Chain, calls: readonly ViewCall[], block: BlockRef): Promise<CallOutcome[]> {
  if (calls.length === 0) return [];
  const chunks: ViewCall[][] = [];
  for (let i = 0; i < calls.length; i += MULTICALL_CHUNK) chunks.push(calls.slice(i, i + MULTICALL_CHUNK));
  const out = await Promise.all(chunks.map((c) => runChunk(chain, c, block)));
  return out.flat();
}

async function runChunk(chain: Chain, calls: ViewCall[], block: BlockRef): Promise<CallOutcome[]> {
  const mode = await modeOf(chain);
  if (mode === 'single') return singles(chain, calls, block);
  const data = encodeAggregate3(calls);
  const tag = block === 'latest' ? block : hexNum(block);
  let answer: Hex;
  try {
    if (mode === 'deployed') {
      answer = await callNode<Hex>(chain, 'eth_call', [{ to: MULTICALL3_ADDRESS, data }, tag]);
      // Deployed after `block`: at that block the address holds no code yet.
      if (answer === '0x') answer = await callNode<Hex>(chain, 'eth_call', [{ to: MULTICALL3_ADDRESS, data }, tag, await override()]);
    } else {
      answer = await callNode<Hex>(chain, 'eth_call', [{ to: MULTICALL3_ADDRESS, data }, tag, await override()]);
      // A node that ignores the override runs the call against an empty address: nothing comes back.
      if (answer === '0x') return refusedOverride(chain, calls, block, 'the state override was ignored');
    }
  } catch (e) {
    if (isPruned(e)) throw statePruned(block);
    if (!(e instanceof RpcMethodError)) throw e; // unreachable, timed out, breaker open: not the call's fault
    if (mode === 'override' && !reverted(e)) return refusedOverride(chain, calls, block, e.detail);
    return split(chain, calls, block);
  }
  try {
    return decodeAggregate3(answer, calls.length);
  } catch {
    return split(chain, calls, block);
  }
}

/** The node does not take state overrides: this and every later read of the chain make single calls. */
function refusedOverride(chain: Chain, calls: ViewCall[], block: BlockRef, reason: string): Promise<CallOutcome[]> {
  overridesRefused(chain, reason);
  return singles(chain, calls, block);
}

/**
 * The chain's node refused (or ignored) an eth_call state override, here or in the token reader: on a
 * chain without Multicall3 every later multicall makes single calls rather than trying the override again.
 */
export function overridesRefused(chain: Chain, reason: string): void {
  if (modes.get(chain.id) === 'override') {
    log().info({ chainId: chain.id, reason: reason.slice(0, 200) }, 'EVM node refused an eth_call state override; reading view calls one by one');
    modes.set(chain.id, 'single');
  }
}

/** aggregate3 failed as a whole (a call used up the gas): each half on its own, down to single calls. */
async function split(chain: Chain, calls: ViewCall[], block: BlockRef): Promise<CallOutcome[]> {
  if (calls.length === 1) return singles(chain, calls, block);
  const mid = Math.ceil(calls.length / 2);
  const [a, b] = await Promise.all([runChunk(chain, calls.slice(0, mid), block), runChunk(chain, calls.slice(mid), block)]);
  return [...a, ...b];
}

const reverted = (e: RpcMethodError) => e.rpcCode === 3 || /revert|out of gas|invalid opcode/i.test(e.detail);

async function override(): Promise<Record<string, { code: Hex }>> {
  return { [MULTICALL3_ADDRESS]: { code: await multicall3RuntimeCode() } };
}

/** One eth_call per view call (batched into few HTTP requests by the RPC client); a node error fails the call only. */
function singles(chain: Chain, calls: ViewCall[], block: BlockRef): Promise<CallOutcome[]> {
  const tag = block === 'latest' ? block : hexNum(block);
  return Promise.all(
    calls.map(async (c): Promise<CallOutcome> => {
      try {
        const data = await callNode<Hex>(chain, 'eth_call', [{ to: c.target, data: c.callData }, tag]);
        return data && data !== '0x' ? { ok: true, data } : { ok: false, data: '0x' };
      } catch (e) {
        if (isPruned(e)) throw statePruned(block);
        if (e instanceof RpcMethodError) return { ok: false, data: '0x' };
        throw e;
      }
    }),
  );
}
