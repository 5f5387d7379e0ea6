import 'server-only';
import { decodeAbiParameters, encodeAbiParameters, type AbiEvent, type AbiFunction, type AbiParameter, type Hex } from 'viem';

/**
 * Decoding one call or one log against candidate ABI items, and the exact round trip that decides
 * between candidates: data decodes as a candidate only when encoding the decoded values again gives
 * back the same bytes (so trailing bytes, dirty padding, a bool of 2 or a uint8 of 258 rule it out).
 * Pure: no I/O.
 */

/** One decoded argument: its name (or its position), its canonical type, its value written out. */
export interface DecodedArg {
  name: string;
  type: string;
  /** Addresses checksummed, integers in decimal, bytes in hex, arrays `[a,b]`, tuples `(a,b)`. */
  value: string;
  indexed?: boolean;
  /** The fields of a tuple argument, named. */
  components?: DecodedArg[];
}

export interface DecodedItem {
  name: string;
  /** Canonical: `transfer(address,uint256)`. */
  signature: string;
  /** Null when the selector names this item but the data does not decode as its arguments. */
  args: DecodedArg[] | null;
  /** The item as the table writes it: `Transfer(address indexed from,address indexed to,uint256 value)`. */
  text: string;
}

export function canonicalType(p: AbiParameter): string {
  const c = (p as { components?: readonly AbiParameter[] }).components;
  return p.type.startsWith('tuple') && c ? `(${c.map(canonicalType).join(',')})${p.type.slice(5)}` : p.type;
}

export function signatureOf(item: AbiFunction | AbiEvent): string {
  return `${item.name}(${item.inputs.map(canonicalType).join(',')})`;
}

function paramText(p: AbiParameter): string {
  const c = (p as { components?: readonly AbiParameter[] }).components;
  const type = p.type.startsWith('tuple') && c ? `(${c.map(paramText).join(',')})${p.type.slice(5)}` : p.type;
  return `${type}${(p as { indexed?: boolean }).indexed ? ' indexed' : ''}${p.name ? ` ${p.name}` : ''}`;
}

export function itemText(item: AbiFunction | AbiEvent): string {
  return `${item.name}(${item.inputs.map(paramText).join(',')})`;
}

export function showValue(v: unknown, p?: AbiParameter): string {
  const c = (p as { components?: readonly AbiParameter[] } | undefined)?.components;
  if (Array.isArray(v) && p && /\]$/.test(p.type)) {
    const inner = { ...p, type: p.type.replace(/\[\d*\]$/, '') } as AbiParameter;
    return `[${v.map((x) => showValue(x, inner)).join(',')}]`;
  }
  if (c && p?.type === 'tuple' && v && typeof v === 'object') {
    const values = Array.isArray(v) ? v : c.map((x, i) => (v as Record<string, unknown>)[x.name ?? ''] ?? (v as unknown[])[i]);
    return `(${c.map((x, i) => showValue(values[i], x)).join(',')})`;
  }
  if (Array.isArray(v)) return `[${v.map((x) => showValue(x)).join(',')}]`;
  return String(v);
}

function arg(p: AbiParameter, i: number, value: unknown, indexed?: boolean): DecodedArg {
  const out: DecodedArg = { name: p.name || String(i), type: canonicalType(p), value: showValue(value, p) };
  if (indexed !== undefined) out.indexed = indexed;
  const c = (p as { components?: readonly AbiParameter[] }).components;
  if (p.type === 'tuple' && c && value && typeof value === 'object') {
    const values = Array.isArray(value) ? value : c.map((x) => (value as Record<string, unknown>)[x.name ?? '']);
    out.components = c.map((x, j) => arg(x, j, values[j]));
  }
  return out;
}

const lower = (h: string) => h.toLowerCase();

/** Arguments of a call to `item` (input = selector + arguments), and whether they round-trip exactly. */
export function decodeCallArgs(item: AbiFunction, input: Hex): { args: DecodedArg[]; exact: boolean } | null {
  const body = `0x${input.slice(10)}` as Hex;
  let values: readonly unknown[];
  try {
    values = decodeAbiParameters(item.inputs, body);
  } catch {
    return null;
  }
  let exact = false;
  try {
    exact = lower(encodeAbiParameters(item.inputs, values as unknown[])) === lower(body);
  } catch {
    exact = false;
  }
  return { args: item.inputs.map((p, i) => arg(p, i, values[i])), exact };
}

/** Types whose indexed value is the keccak hash of the value, not the value. */
const hashedInTopic = (p: AbiParameter) => p.type === 'string' || p.type === 'bytes' || p.type.startsWith('tuple') || /\]$/.test(p.type);

/** Arguments of a log of `event` (topic0 = its selector), and whether they round-trip exactly. */
export function decodeLogArgs(event: AbiEvent, topics: readonly Hex[], data: Hex): { args: DecodedArg[]; exact: boolean } | null {
  const indexed = event.inputs.filter((p) => p.indexed);
  if (indexed.length !== topics.length - 1) return null;
  const plain = event.inputs.filter((p) => !p.indexed);
  let exact = true;
  const topicValues: unknown[] = [];
  try {
    indexed.forEach((p, k) => {
      const topic = topics[k + 1];
      if (hashedInTopic(p)) {
        topicValues.push(topic);
        return;
      }
      const [v] = decodeAbiParameters([p], topic);
      topicValues.push(v);
      try {
        if (lower(encodeAbiParameters([p], [v])) !== lower(topic)) exact = false;
      } catch {
        exact = false;
      }
    });
  } catch {
    return null;
  }
  let dataValues: readonly unknown[] = [];
  if (plain.length > 0 || data !== '0x') {
    try {
      dataValues = decodeAbiParameters(plain, data);
    } catch {
      return null;
    }
    try {
      if (lower(encodeAbiParameters(plain, dataValues as unknown[])) !== lower(data)) exact = false;
    } catch {
      exact = false;
    }
  }
  let ti = 0;
  let di = 0;
  const args = event.inputs.map((p, i) => {
    if (p.indexed) {
      const v = topicValues[ti++];
      // A hashed value is shown as the hash it is.
      return hashedInTopic(p) ? { name: p.name || String(i), type: canonicalType(p), value: String(v), indexed: true } : arg(p, i, v, true);
    }
    return arg(p, i, dataValues[di++], false);
  });
  return { args, exact };
}
