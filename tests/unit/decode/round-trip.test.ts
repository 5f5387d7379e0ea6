import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { encodeAbiParameters, encodeFunctionData, getAddress, parseAbiItem, toEventSelector, toHex, type AbiEvent, type AbiFunction, type AbiParameter, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { showValue } from '@/lib/decode/abi';
import { decodeCall, decodeLog, signatureTable, type Decoding } from '@/lib/decode';

/**
 * Every function and event of the generated table's source ABIs (the table holds each once), with
 * random arguments encoded by viem, decodes back to the same name and values through the decoder
 * (signature-table layer, no ABI of the contract, no network).
 */

type Table = { functions: Record<string, string[]>; events: Record<string, string[]> };
const file = JSON.parse(readFileSync('lib/decode/data/signatures.json', 'utf8')) as Table;

const entries = (kind: 'function' | 'event', t: Record<string, string[]>) =>
  Object.values(t)
    .flat()
    .map((e) => parseAbiItem(`${kind} ${e.slice(e.indexOf('|') + 1)}`));

const FUNCTIONS = entries('function', file.functions) as AbiFunction[];
const EVENTS = entries('event', file.events) as AbiEvent[];

function valueOf(p: AbiParameter): fc.Arbitrary<unknown> {
  const array = /^(.*)\[(\d*)\]$/.exec(p.type);
  if (array) {
    const inner = { ...p, type: array[1] } as AbiParameter;
    const n = array[2] === '' ? undefined : Number(array[2]);
    return fc.array(valueOf(inner), n === undefined ? { maxLength: 3 } : { minLength: n, maxLength: n });
  }
  if (p.type === 'tuple') return fc.tuple(...(p as unknown as { components: AbiParameter[] }).components.map(valueOf));
  if (p.type === 'address') return fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => getAddress(toHex(b)));
  if (p.type === 'bool') return fc.boolean();
  if (p.type === 'string') return fc.string({ maxLength: 12 });
  if (p.type === 'bytes') return fc.uint8Array({ maxLength: 40 }).map((b) => toHex(b));
  const fixed = /^bytes(\d+)$/.exec(p.type);
  if (fixed) return fc.uint8Array({ minLength: Number(fixed[1]), maxLength: Number(fixed[1]) }).map((b) => toHex(b));
  const int = /^(u?)int(\d*)$/.exec(p.type);
  if (int) {
    const bits = BigInt(int[2] || 256);
    // viem reads integers of up to 48 bits as numbers: compare by their decimal text.
    return int[1] ? fc.bigInt(0n, 2n ** bits - 1n) : fc.bigInt(-(2n ** (bits - 1n)), 2n ** (bits - 1n) - 1n);
  }
  throw new Error(`no arbitrary for ${p.type}`);
}

const hashedInTopic = (p: AbiParameter) => p.type === 'string' || p.type === 'bytes' || p.type.startsWith('tuple') || /\]$/.test(p.type);

function named(d: Decoding, signature: string) {
  if (d.kind === 'named') return d;
  if (d.kind === 'ambiguous') return d.candidates.find((c) => c.signature === signature) ?? null;
  return null;
}

describe('the signature table names what it was generated from', async () => {
  const table = await signatureTable();
  const layers = { exact: [], table, lookup: [] };

  it(`every one of the ${FUNCTIONS.length} functions, with random arguments`, () => {
    for (const item of FUNCTIONS) {
      fc.assert(
        fc.property(fc.tuple(...item.inputs.map(valueOf)), (args) => {
          const input = encodeFunctionData({ abi: [item], args } as never);
          const d = decodeCall(input, layers);
          // A true 4-byte collision inside the table would be "one of N" with this item among them.
          const hit = named(d, `${item.name}(${item.inputs.map(canonical).join(',')})`);
          expect(hit, `${item.name}: ${JSON.stringify(d).slice(0, 200)}`).not.toBeNull();
          expect(hit!.name).toBe(item.name);
          expect(hit!.args!.map((a) => a.value)).toEqual(item.inputs.map((p, i) => showValue(args[i], p)));
        }),
        { numRuns: 3 },
      );
    }
  }, 60_000); // ~3 s alone; a loaded 2-core machine takes several times that

  it(`every one of the ${EVENTS.length} events (each indexing apart), with random arguments`, () => {
    for (const item of EVENTS) {
      const hash = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => toHex(b));
      fc.assert(
        fc.property(fc.tuple(...item.inputs.map((p) => (p.indexed && hashedInTopic(p) ? hash : valueOf(p)))), (args) => {
          const topics: Hex[] = [toEventSelector(item)];
          item.inputs.forEach((p, i) => {
            if (!p.indexed) return;
            topics.push(hashedInTopic(p) ? (args[i] as Hex) : encodeAbiParameters([p], [args[i]]));
          });
          const plain = item.inputs.map((p, i) => [p, args[i]] as const).filter(([p]) => !p.indexed);
          const data = encodeAbiParameters(plain.map(([p]) => p), plain.map(([, v]) => v));
          const d = decodeLog({ topics, data }, layers);
          const hit = named(d, `${item.name}(${item.inputs.map(canonical).join(',')})`);
          expect(hit, `${item.name}: ${JSON.stringify(d).slice(0, 200)}`).not.toBeNull();
          expect(hit!.name).toBe(item.name);
          expect(hit!.args!.map((a) => a.value)).toEqual(item.inputs.map((p, i) => (p.indexed && hashedInTopic(p) ? String(args[i]) : showValue(args[i], p))));
        }),
        { numRuns: 2 },
      );
    }
  }, 60_000);
});

function canonical(p: AbiParameter): string {
  const c = (p as { components?: AbiParameter[] }).components;
  return p.type.startsWith('tuple') && c ? `(${c.map(canonical).join(',')})${p.type.slice(5)}` : p.type;
}
