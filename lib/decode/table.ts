import 'server-only';
import { parseAbiItem, type AbiEvent, type AbiFunction } from 'viem';

/**
 * The signature table shipped in the repository (lib/decode/data/signatures.json, written by
 * `npm run signatures` from the ABIs of well-known audited packages). Loaded once per process, on the
 * first decode (never into a browser bundle: this module is server-only); each selector's entries are
 * parsed into ABI items only when first asked for.
 */

interface TableFile {
  sources: { package: string; version: string; what: string }[];
  functions: Record<string, string[]>;
  events: Record<string, string[]>;
}

export interface TableCandidate<T extends AbiFunction | AbiEvent> {
  item: T;
  /** `package@version` the entry came from. */
  source: string;
}

export interface SignatureTable {
  functions(selector: string): TableCandidate<AbiFunction>[];
  events(topic0: string): TableCandidate<AbiEvent>[];
  sources: { package: string; version: string; what: string }[];
}

export function tableFrom(file: TableFile): SignatureTable {
  const sources = file.sources.map((s) => `${s.package}@${s.version}`);
  const fnMemo = new Map<string, TableCandidate<AbiFunction>[]>();
  const evMemo = new Map<string, TableCandidate<AbiEvent>[]>();
  const parse = <T extends AbiFunction | AbiEvent>(kind: 'function' | 'event', entries: string[] | undefined): TableCandidate<T>[] =>
    (entries ?? []).map((e) => {
      const bar = e.indexOf('|');
      return { item: parseAbiItem(`${kind} ${e.slice(bar + 1)}`) as T, source: sources[Number(e.slice(0, bar))] ?? 'unknown' };
    });
  const key = (h: string) => h.toLowerCase().replace(/^0x/, '');
  return {
    sources: file.sources,
    functions(selector) {
      const k = key(selector);
      let v = fnMemo.get(k);
      if (!v) fnMemo.set(k, (v = Object.hasOwn(file.functions, k) ? parse<AbiFunction>('function', file.functions[k]) : []));
      return v;
    },
    events(topic0) {
      const k = key(topic0);
      let v = evMemo.get(k);
      if (!v) evMemo.set(k, (v = Object.hasOwn(file.events, k) ? parse<AbiEvent>('event', file.events[k]) : []));
      return v;
    },
  };
}

let loading: Promise<SignatureTable> | undefined;

/** The shipped table (loaded on first use, then shared). */
export function signatureTable(): Promise<SignatureTable> {
  loading ??= import('./data/signatures.json').then((m) => tableFrom((m.default ?? m) as unknown as TableFile));
  return loading;
}
