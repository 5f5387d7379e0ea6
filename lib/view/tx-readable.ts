import type { ContractView, DecodedArg, Decoding, NamedDecoding, TransactionDecoding } from '@/lib/decode';
import type { Decoded, TransactionDetail } from '@/lib/interface/transaction';

/**
 * What the transaction page shows of a transaction's meaning, from the transaction answer and the
 * source's decodings (lib/decode): the method with named, typed arguments; each log as
 * `Event(name: value, ...)` with the contract that emitted it; each internal call's method. Pure and
 * serialisable (plain objects and strings), so a server component can hand it to any view.
 */

export interface ReadableArg {
  name: string;
  type: string;
  value: string;
  indexed?: boolean;
  components?: ReadableArg[];
}

export interface ReadableCandidate {
  name: string;
  signature: string;
  args: ReadableArg[] | null;
}

export interface ReadableName {
  /**
   * `named`: one name (args null when the data does not decode as its arguments); `ambiguous`: several
   * candidates each fit exactly ("one of N"); `unknown`: only the selector or topic; `transfer`: a plain
   * value transfer (no input); `creation`: a contract creation.
   */
  state: 'named' | 'ambiguous' | 'unknown' | 'transfer' | 'creation';
  /** What to show in one line: `swapBForA`, `one of 2: claim, transfer`, `0xdeadbeef`, `Transfer`, `Contract creation`. */
  text: string;
  name: string | null;
  /** 4-byte selector or event topic, when there is one. */
  selector: string | null;
  signature: string | null;
  args: ReadableArg[] | null;
  candidates: ReadableCandidate[];
  /**
   * Where the name came from: `abi` (the contract's exact ABI), `table` (the shipped signature table),
   * `lookup`, `source` (the answer's own decoded_call / decoded_event: a hosted provider's).
   */
  trust: 'abi' | 'table' | 'lookup' | 'source' | null;
  /** `devnet:FixedRatePool`, `verified`, `@uniswap/v2-core@1.0.1`, `lookup`, `source`. */
  source: string | null;
}

export interface ReadableLog {
  logIndex: string;
  address: string;
  contract: ContractView | null;
  event: ReadableName;
  /** `Transfer(from: 0x…, to: 0x…, value: 5)`; unknown: the topic; ambiguous: `one of N: A(...) | B(...)`. */
  text: string;
}

export interface ReadableCall {
  /** Position in the answer's internal_transactions. */
  index: number;
  depth: number | null;
  type: string | null;
  from: string;
  to: string | null;
  contract: ContractView | null;
  method: ReadableName;
}

export interface ReadableTransaction {
  method: ReadableName;
  /** The contract called (proxy and implementation where Lantern resolved one). */
  contract: ContractView | null;
  logs: ReadableLog[];
  calls: ReadableCall[];
  /** A verified ABI or a signature is still being fetched: the page may name more shortly. */
  pending: boolean;
}

const args = (list: DecodedArg[] | null): ReadableArg[] | null =>
  list?.map((a) => ({ name: a.name, type: a.type, value: a.value, ...(a.indexed !== undefined ? { indexed: a.indexed } : {}), ...(a.components ? { components: args(a.components)! } : {}) })) ?? null;

const candidate = (d: NamedDecoding): ReadableCandidate => ({ name: d.name, signature: d.signature, args: args(d.args) });

export function readableName(d: Decoding): ReadableName {
  const base = { candidates: [] as ReadableCandidate[], trust: null, source: null };
  if (d.kind === 'named') {
    return { ...base, state: 'named', text: d.name, name: d.name, selector: null, signature: d.signature, args: args(d.args), trust: d.trust, source: d.source };
  }
  if (d.kind === 'ambiguous') {
    const names = [...new Set(d.candidates.map((c) => c.name))];
    return {
      ...base,
      state: 'ambiguous',
      text: `one of ${d.candidates.length}: ${names.join(', ')}`,
      name: null,
      selector: d.selector,
      signature: null,
      args: null,
      candidates: d.candidates.map(candidate),
      trust: d.candidates[0].trust,
    };
  }
  return { ...base, state: 'unknown', text: d.selector ?? 'unknown', name: null, selector: d.selector, signature: null, args: null };
}

const call = (name: string, list: ReadableArg[] | null) => (list ? `${name}(${list.map((a) => `${a.name}: ${a.value}`).join(', ')})` : name);

/** One line for a log: `Event(name: value, ...)`. */
export function eventText(e: ReadableName): string {
  if (e.state === 'named') return call(e.name!, e.args);
  if (e.state === 'ambiguous') return `${e.text} (${e.candidates.map((c) => call(c.name, c.args)).join(' | ')})`;
  return `Unknown event ${e.selector ?? '(no topic)'}`;
}

/**
 * The answer's own decoding (a hosted provider's, from the contract's verified ABI) where Lantern found
 * nothing, found several, or has only the shipped table's or a lookup's guess at the parameter names and
 * the answer says otherwise: the provider read this contract's ABI, the table did not. An exact ABI's
 * naming stays (node mode's answer is Lantern's own, so it agrees with it anyway).
 */
function orSource(r: ReadableName, given: Decoded | null | undefined): ReadableName {
  if (!given || r.trust === 'abi') return r;
  const same = r.state === 'named' && r.name === given.label && r.args?.map((a) => a.name).join() === given.params.map((p) => p.name).join();
  if (same) return r;
  const args = given.params.map((p) => ({ name: p.name, type: p.type, value: p.value }));
  return { ...r, state: 'named', text: given.label, name: given.label, signature: given.signature, args, trust: 'source', source: 'source' };
}

function methodName(tx: { to: string | null; input: string | null | undefined }, d: Decoding): ReadableName {
  const none = { name: null, selector: null, signature: null, args: null, candidates: [], trust: null, source: null };
  if (!tx.to) return { ...none, state: 'creation', text: 'Contract creation' };
  if (!tx.input || tx.input === '0x') return { ...none, state: 'transfer', text: 'Transfer' };
  return readableName(d);
}

export function readableTransaction(tx: TransactionDetail, d: TransactionDecoding): ReadableTransaction {
  const contract = (a: string | null | undefined) => (a ? (d.contracts[a.toLowerCase()] ?? null) : null);
  return {
    method: orSource(methodName({ to: tx.to_address, input: tx.input }, d.call), tx.decoded_call),
    contract: contract(tx.to_address),
    logs: tx.logs.map((l, i) => {
      const event = orSource(readableName(d.logs[i] ?? { kind: 'unknown', type: 'event', selector: l.topic0 ?? null }), l.decoded_event);
      return { logIndex: l.log_index, address: l.address.toLowerCase(), contract: contract(l.address), event, text: eventText(event) };
    }),
    calls: (tx.internal_transactions ?? []).map((c, i) => ({
      index: i,
      depth: c.depth ?? null,
      type: c.type ?? null,
      from: c.from.toLowerCase(),
      to: c.to ? c.to.toLowerCase() : null,
      contract: contract(c.to),
      method: /^CREATE/.test(c.type ?? '')
        ? methodName({ to: null, input: c.input }, d.calls[i])
        : methodName({ to: c.to, input: c.input }, d.calls[i] ?? { kind: 'unknown', type: 'function', selector: null }),
    })),
    pending: d.pending,
  };
}

/** The pieces of a transaction answer the sources decode. */
export function decodeParts(tx: TransactionDetail) {
  return {
    to: tx.to_address,
    input: tx.input,
    logs: tx.logs.map((l) => ({ address: l.address, topics: [l.topic0, l.topic1, l.topic2, l.topic3], data: l.data })),
    calls: (tx.internal_transactions ?? []).map((c) => ({ to: /^CREATE/.test(c.type ?? '') ? null : c.to, input: c.input })),
  };
}
