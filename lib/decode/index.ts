import 'server-only';
import { parseAbiItem, toEventSelector, toFunctionSelector, type Abi, type AbiEvent, type AbiFunction, type Hex } from 'viem';
import type { Decoded } from '@/lib/interface/transaction';
import { decodeCallArgs, decodeLogArgs, itemText, signatureOf, type DecodedArg } from './abi';
import type { SignatureTable } from './table';

export type { DecodedArg } from './abi';
export { signatureTable, tableFrom, type SignatureTable } from './table';
import { signatureTable } from './table';
export { knownContractAbi, knownContractByCode, knownContractNames, type KnownContract } from './known';

/**
 * Names calls and logs, in an order of trust:
 *   1. an exact ABI of the contract (a devnet contract Lantern ships, a verified ABI from a
 *      Sourcify-compatible server), for a proxy its implementation's first (the caller resolves it);
 *   2. the signature table shipped in the repository;
 *   3. signatures from an online lookup, where one is configured and has answered;
 *   4. otherwise the selector or topic, marked unknown.
 * From the table and the lookup, a candidate counts only when its decoding round-trips exactly; two or
 * more left is "one of N", never a guess. Pure: the callers bring the ABIs and candidates.
 */

export type Trust = 'abi' | 'table' | 'lookup';

export interface NamedDecoding {
  kind: 'named';
  type: 'function' | 'event';
  name: string;
  /** Canonical: `transfer(address,uint256)`. */
  signature: string;
  /** With parameter names and `indexed`: `Transfer(address indexed from,address indexed to,uint256 value)`. */
  text: string;
  /** Null when the selector names it but the data does not decode as its arguments. */
  args: DecodedArg[] | null;
  trust: Trust;
  /** Where the name came from: `devnet:FixedRatePool`, `verified`, `@openzeppelin/contracts@5.7.0`, `lookup`. */
  source: string;
}

export interface AmbiguousDecoding {
  kind: 'ambiguous';
  type: 'function' | 'event';
  /** The 4-byte selector or the topic. */
  selector: string;
  /** Two or more candidates that each decode the data exactly. */
  candidates: NamedDecoding[];
}

export interface UnknownDecoding {
  kind: 'unknown';
  type: 'function' | 'event';
  /** Null for a log without topics (anonymous) or an input shorter than a selector. */
  selector: string | null;
}

export type Decoding = NamedDecoding | AmbiguousDecoding | UnknownDecoding;

/** An exact ABI for one contract, with where it came from. */
export interface ExactAbi {
  abi: Abi;
  source: string;
}

export interface DecodeLayers {
  /** Exact ABIs in the order they are tried (a proxy: its implementation's, then its own). */
  exact: ExactAbi[];
  table: SignatureTable | null;
  /** Text signatures an online lookup returned for this selector or topic (no names, no `indexed`). */
  lookup: string[];
}

/** An ABI's functions by selector and events by topic, computed once per ABI object. */
const indexes = new WeakMap<Abi, { functions: Map<string, AbiFunction>; events: Map<string, AbiEvent[]> }>();
function indexOf(abi: Abi) {
  let ix = indexes.get(abi);
  if (!ix) {
    ix = { functions: new Map(), events: new Map() };
    for (const i of abi) {
      if (i.type === 'function') ix.functions.set(toFunctionSelector(i), i);
      else if (i.type === 'event' && !i.anonymous) {
        const t = toEventSelector(i).toLowerCase();
        ix.events.set(t, [...(ix.events.get(t) ?? []), i]);
      }
    }
    indexes.set(abi, ix);
  }
  return ix;
}

const selectorOf = (input: string) => (input.length >= 10 ? input.slice(0, 10).toLowerCase() : null);

function named(type: 'function' | 'event', item: AbiFunction | AbiEvent, args: DecodedArg[] | null, trust: Trust, source: string): NamedDecoding {
  return { kind: 'named', type, name: item.name, signature: signatureOf(item), text: itemText(item), args, trust, source };
}

/**
 * The table's and the lookup's rule: the candidates whose decoding round-trips; one is named, several are
 * ambiguous; none that round-trips but every candidate has one name: named, arguments not decodable.
 */
function choose(
  type: 'function' | 'event',
  selector: string,
  tried: { item: AbiFunction | AbiEvent; source: string; decoded: { args: DecodedArg[]; exact: boolean } | null }[],
  trust: Trust,
): Decoding | null {
  if (tried.length === 0) return null;
  const exact = tried.filter((t) => t.decoded?.exact);
  if (exact.length === 1) return named(type, exact[0].item, exact[0].decoded!.args, trust, exact[0].source);
  if (exact.length > 1) return { kind: 'ambiguous', type, selector, candidates: exact.map((t) => named(type, t.item, t.decoded!.args, trust, t.source)) };
  const names = new Set(tried.map((t) => t.item.name));
  if (names.size === 1) return named(type, tried[0].item, null, trust, tried[0].source);
  return null;
}

/** Items of a lookup's text signatures that could be this call (its selector, parseable). */
function lookupFunctions(signatures: string[], selector: string): AbiFunction[] {
  const out: AbiFunction[] = [];
  for (const s of signatures) {
    try {
      const item = parseAbiItem(`function ${s}`) as AbiFunction;
      if (toFunctionSelector(item) === selector) out.push(item);
    } catch {
      // not a signature viem can read
    }
  }
  return out;
}

/** At most this many ways of choosing which parameters of a looked-up event are indexed. */
const MAX_INDEXINGS = 64;

/** A looked-up event signature says nothing of indexing: every way of indexing `indexedCount` of its parameters. */
function lookupEvents(signatures: string[], topic0: string, indexedCount: number): AbiEvent[] {
  const out: AbiEvent[] = [];
  for (const s of signatures) {
    let base: AbiEvent;
    try {
      base = parseAbiItem(`event ${s}`) as AbiEvent;
      if (toEventSelector(base).toLowerCase() !== topic0) continue;
    } catch {
      continue;
    }
    const n = base.inputs.length;
    if (indexedCount > n || indexedCount > 3) continue;
    const pick = (start: number, left: number, chosen: number[]) => {
      if (out.length >= MAX_INDEXINGS) return;
      if (left === 0) {
        out.push({ ...base, inputs: base.inputs.map((p, i) => ({ ...p, indexed: chosen.includes(i) })) });
        return;
      }
      for (let i = start; i <= n - left; i++) pick(i + 1, left - 1, [...chosen, i]);
    };
    pick(0, indexedCount, []);
  }
  return out;
}

export function decodeCall(input: Hex | string, layers: DecodeLayers): Decoding {
  const selector = selectorOf(input);
  if (!selector) return { kind: 'unknown', type: 'function', selector: null };
  const data = input as Hex;
  for (const exact of layers.exact) {
    const item = indexOf(exact.abi).functions.get(selector);
    if (item) return named('function', item, decodeCallArgs(item, data)?.args ?? null, 'abi', exact.source);
  }
  const fromTable = choose(
    'function',
    selector,
    (layers.table?.functions(selector) ?? []).map((c) => ({ ...c, decoded: decodeCallArgs(c.item, data) })),
    'table',
  );
  if (fromTable) return fromTable;
  const fromLookup = choose(
    'function',
    selector,
    lookupFunctions(layers.lookup, selector).map((item) => ({ item, source: 'lookup', decoded: decodeCallArgs(item, data) })),
    'lookup',
  );
  return fromLookup ?? { kind: 'unknown', type: 'function', selector };
}

export interface LogInput {
  topics: readonly (Hex | string)[];
  data: Hex | string;
}

export function decodeLog(log: LogInput, layers: DecodeLayers): Decoding {
  const topics = log.topics.map((t) => t.toLowerCase() as Hex);
  const topic0 = topics[0];
  if (!topic0) return { kind: 'unknown', type: 'event', selector: null };
  const data = log.data as Hex;
  for (const exact of layers.exact) {
    const item = indexOf(exact.abi).events.get(topic0)?.find((i) => i.inputs.filter((p) => p.indexed).length === topics.length - 1);
    if (item) return named('event', item, decodeLogArgs(item, topics, data)?.args ?? null, 'abi', exact.source);
  }
  // Only entries indexed as this log is: ERC-20 and ERC-721 Transfer share a topic, not a topic count.
  const fitting = (layers.table?.events(topic0) ?? []).filter((c) => c.item.inputs.filter((p) => p.indexed).length === topics.length - 1);
  const fromTable = choose('event', topic0, fitting.map((c) => ({ ...c, decoded: decodeLogArgs(c.item, topics, data) })), 'table');
  if (fromTable) return fromTable;
  const fromLookup = choose(
    'event',
    topic0,
    lookupEvents(layers.lookup, topic0, topics.length - 1).map((item) => ({ item, source: 'lookup', decoded: decodeLogArgs(item, topics, data) })),
    'lookup',
  );
  return fromLookup ?? { kind: 'unknown', type: 'event', selector: topic0 };
}

/**
 * The method's name from its selector alone (no input at hand: a history row), when that is certain:
 * the exact ABI has it, or every table candidate carries one name. `needsData` when the table's
 * candidates differ in name: only the input's round trip can tell (decodeCall).
 */
export function methodNameOf(selector: string | null, layers: Omit<DecodeLayers, 'lookup'> & { lookup?: string[] }): { name: string | null; needsData: boolean } {
  if (!selector) return { name: null, needsData: false };
  const s = selector.toLowerCase();
  for (const exact of layers.exact) {
    const item = indexOf(exact.abi).functions.get(s);
    if (item) return { name: item.name, needsData: false };
  }
  for (const names of [
    (layers.table?.functions(s) ?? []).map((c) => c.item.name),
    lookupFunctions(layers.lookup ?? [], s).map((i) => i.name),
  ]) {
    const distinct = new Set(names);
    if (distinct.size === 1) return { name: names[0], needsData: false };
    if (distinct.size > 1) return { name: null, needsData: true };
  }
  return { name: null, needsData: false };
}

/** The interface's `decoded_call` / `decoded_event`: only a named decoding whose arguments decoded. */
export function toInterfaceDecoded(d: Decoding): Decoded | null {
  if (d.kind !== 'named' || d.args === null) return null;
  return { signature: d.signature, label: d.name, type: d.type, params: d.args.map((a) => ({ name: a.name, value: a.value, type: a.type })) };
}

/** A method label for a history row or a summary: the name, "one of N" never (null: the row shows the selector). */
export function labelOf(d: Decoding): string | null {
  return d.kind === 'named' ? d.name : null;
}

// --- a transaction's decodings, as sources hand them to operations and views ----------------------

/** What Lantern knows of a contract a transaction touched. */
export interface ContractView {
  address: string;
  /** A devnet contract Lantern ships the exact ABI of, or null. */
  known: string | null;
  verified: boolean;
  proxy: { kind: 'eip1967' | 'beacon' | 'eip1167' | 'safe' | 'eip7702'; implementation: string; known: string | null; verified: boolean } | null;
}

export interface TransactionDecoding {
  call: Decoding;
  logs: Decoding[];
  /** One per internal call, in the order given. */
  calls: Decoding[];
  /** What is known of each contract involved (lower-case address); empty where nothing reads the chain. */
  contracts: Record<string, ContractView>;
  /** A verified ABI or a signature is being fetched in the background: a later decoding may name more. */
  pending: boolean;
}

export interface DecodeParts {
  to: string | null;
  input: string;
  logs: { address: string; topics: readonly (string | null | undefined)[]; data: string }[];
  calls?: { to: string | null; input: string | null | undefined }[];
}

export const logTopics = (l: DecodeParts['logs'][number]) => l.topics.filter((t): t is string => !!t);

/** With the shipped table alone (no node, no network): what a source that cannot read contracts offers. */
export async function decodeOffline(parts: DecodeParts): Promise<TransactionDecoding> {
  const table = await signatureTable();
  const layers = { exact: [], table, lookup: [] };
  return {
    call: parts.to === null ? { kind: 'unknown', type: 'function', selector: null } : decodeCall(parts.input, layers),
    logs: parts.logs.map((l) => decodeLog({ topics: logTopics(l), data: l.data }, layers)),
    calls: (parts.calls ?? []).map((c) => decodeCall(c.input ?? '0x', layers)),
    contracts: {},
    pending: false,
  };
}
