import 'server-only';
import type { Hex } from 'viem';
import {
  decodeCall,
  decodeLog,
  knownContractAbi,
  logTopics,
  methodNameOf,
  signatureTable,
  type ContractView,
  type DecodeParts,
  type Decoding,
  type ExactAbi,
  type SignatureTable,
  type TransactionDecoding,
} from '@/lib/decode';
import type { Abi } from 'viem';
import { lookedUpSignatures, verifiedAbis } from './abi-fetch';
import { contractFacts, nodeOf, type ContractFacts } from './contracts';

/**
 * Names a transaction's call, logs and internal calls with everything node mode knows, in the decoder's
 * order of trust (lib/decode): the exact ABIs of the contract (for a proxy its implementation's first,
 * then its own; a devnet contract's, then a verified one), the shipped table, looked-up signatures.
 * Reads the node (contract code, proxy slots; cached) and what the background fetchers kept; never
 * waits on Sourcify or the signature database.
 */

interface Known {
  facts: Map<string, ContractFacts>;
  verified: Map<string, { abi: Abi | null; pending: boolean }>;
  table: SignatureTable;
  pending: boolean;
}

async function knowledge(chainId: number, addresses: (string | null)[]): Promise<Known> {
  const [facts, table] = await Promise.all([contractFacts(chainId, addresses), signatureTable()]);
  const withImpl = [...facts.values()].flatMap((f) => (f.hasCode ? [f.address, ...(f.proxy ? [f.proxy.implementation] : [])] : []));
  const verified = await verifiedAbis(chainId, withImpl);
  return { facts, verified, table, pending: [...verified.values()].some((v) => v.pending) };
}

/** Exact ABIs for a call to or a log of `address`: the implementation's first, the shipped one before a verified one. */
function exactFor(address: string | null, k: Known): ExactAbi[] {
  if (!address) return [];
  const f = k.facts.get(address.toLowerCase());
  if (!f) return [];
  const out: ExactAbi[] = [];
  const add = (addr: string, known: string | null) => {
    const abi = known ? knownContractAbi(known) : null;
    if (abi) out.push({ abi, source: `devnet:${known}` });
    const v = k.verified.get(addr)?.abi;
    if (v) out.push({ abi: v, source: 'verified' });
  };
  if (f.proxy) add(f.proxy.implementation, f.proxy.known);
  add(f.address, f.known);
  return out;
}

function view(k: Known): Record<string, ContractView> {
  const out: Record<string, ContractView> = {};
  for (const f of k.facts.values()) {
    if (!f.hasCode) continue;
    out[f.address] = {
      address: f.address,
      known: f.known,
      verified: !!k.verified.get(f.address)?.abi,
      proxy: f.proxy ? { ...f.proxy, verified: !!k.verified.get(f.proxy.implementation)?.abi } : null,
    };
  }
  return out;
}

export async function decodeTransaction(chainId: number, parts: DecodeParts): Promise<TransactionDecoding> {
  const calls = parts.calls ?? [];
  const k = await knowledge(chainId, [parts.to, ...parts.logs.map((l) => l.address), ...calls.map((c) => c.to)]);
  const logInput = (l: DecodeParts['logs'][number]) => ({ topics: logTopics(l), data: l.data });
  const first = {
    call: parts.to === null ? ({ kind: 'unknown', type: 'function', selector: null } as const) : decodeCall(parts.input, { exact: exactFor(parts.to, k), table: k.table, lookup: [] }),
    logs: parts.logs.map((l) => decodeLog(logInput(l), { exact: exactFor(l.address, k), table: k.table, lookup: [] })),
    calls: calls.map((c) => decodeCall(c.input ?? '0x', { exact: exactFor(c.to, k), table: k.table, lookup: [] })),
  };
  // What is still unknown may be in the signature database, as far as it has answered.
  const unknownOf = (list: Decoding[]) => list.flatMap((d) => (d.kind === 'unknown' && d.selector ? [d.selector] : []));
  const unknownFns = unknownOf([first.call, ...first.calls]);
  const unknownEvents = unknownOf(first.logs);
  const [fns, events] = await Promise.all([lookedUpSignatures('function', unknownFns), lookedUpSignatures('event', unknownEvents)]);
  const pending = k.pending || [...fns.values(), ...events.values()].some((v) => v.pending);
  const again = (d: Decoding, redo: (lookup: string[]) => Decoding, found: Map<string, { signatures: string[] }>) =>
    d.kind === 'unknown' && d.selector && found.get(d.selector)?.signatures.length ? redo(found.get(d.selector)!.signatures) : d;
  return {
    call: again(first.call, (lookup) => decodeCall(parts.input, { exact: [], table: null, lookup }), fns),
    logs: first.logs.map((d, i) => again(d, (lookup) => decodeLog(logInput(parts.logs[i]), { exact: [], table: null, lookup }), events)),
    calls: first.calls.map((d, i) => again(d, (lookup) => decodeCall(calls[i].input ?? '0x', { exact: [], table: null, lookup }), fns)),
    contracts: view(k),
    pending,
  };
}

/**
 * History rows' method labels (transaction hash -> name or null), from the selector where that is
 * certain; where candidates differ in name the transaction's input is read and decoded. A name that is
 * "one of N" is no label: the row shows the selector.
 */
export async function methodLabels(chainId: number, txs: { hash: string; to: string | null; selector: string | null }[]): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  const calls = txs.filter((t) => t.selector && t.to);
  for (const t of txs) out.set(t.hash, null);
  if (calls.length === 0) return out;
  const k = await knowledge(chainId, calls.map((t) => t.to));
  const unsure: typeof calls = [];
  const unknown: typeof calls = [];
  for (const t of calls) {
    const { name, needsData } = methodNameOf(t.selector, { exact: exactFor(t.to, k), table: k.table });
    if (name) out.set(t.hash, name);
    else if (needsData) unsure.push(t);
    else unknown.push(t);
  }
  const looked = await lookedUpSignatures('function', unknown.map((t) => t.selector!));
  for (const t of unknown) {
    const { name, needsData } = methodNameOf(t.selector, { exact: [], table: null, lookup: looked.get(t.selector!)?.signatures ?? [] });
    if (name) out.set(t.hash, name);
    else if (needsData) unsure.push(t);
  }
  // Rare: a selector shared by differently named functions. Only the input's round trip can tell.
  await Promise.all(
    unsure.map(async (t) => {
      const tx = await nodeOf(chainId).call<{ input: Hex } | null>('eth_getTransactionByHash', [t.hash]).catch(() => null);
      if (!tx) return;
      const d = decodeCall(tx.input, { exact: exactFor(t.to, k), table: k.table, lookup: looked.get(t.selector!)?.signatures ?? [] });
      out.set(t.hash, d.kind === 'named' ? d.name : null);
    }),
  );
  return out;
}

