import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import {
  encodeAbiParameters,
  encodeFunctionData,
  keccak256,
  pad,
  parseAbi,
  toEventSelector,
  toFunctionSelector,
  toHex,
  type Hex,
} from 'viem';
import { describe, expect, it } from 'vitest';
import { decodeCall, decodeLog, knownContractAbi, knownContractByCode, methodNameOf, signatureTable, tableFrom, toInterfaceDecoded } from '@/lib/decode';
import { readReference } from '../interface/reference';
// The generator itself: the committed data must be what it writes today.
import { buildDevnetContracts, buildSignatures } from '@/scripts/signatures.mjs';

const A = '0x1111111111111111111111111111111111111111';
const B = '0x2222222222222222222222222222222222222222';
const word = (a: string) => pad(a as Hex, { size: 32 });

// Two crafted collisions (found by brute force): same argument types, and different ones.
const SAME = ['lantern_699(uint256)', 'lantern_1nfa(uint256)'];
/** A one-function ABI from a signature (the test's own strings are not literal types). */
const fn = (sig: string) => parseAbi([`function ${sig}`] as string[]);
const CROSS = ['lantern_n4d(address)', 'lantern_1f9v(uint256)'];

function crafted(functions: string[]) {
  const table: Record<string, string[]> = {};
  for (const f of functions) (table[toFunctionSelector(f).slice(2)] ??= []).push(`0|${f}`);
  return tableFrom({ sources: [{ package: 'crafted', version: '0', what: 'test' }], functions: table, events: {} });
}

describe('the decoder', async () => {
  const table = await signatureTable();
  const layers = { exact: [], table, lookup: [] };

  it('crafted collisions are one of N, never a guess; the round trip keeps only what fits', () => {
    expect(toFunctionSelector(SAME[0])).toBe(toFunctionSelector(SAME[1]));
    expect(toFunctionSelector(CROSS[0])).toBe(toFunctionSelector(CROSS[1]));
    const t = crafted([...SAME, ...CROSS]);
    const same = decodeCall(encodeFunctionData({ abi: fn(SAME[0]), args: [7n] }), { exact: [], table: t, lookup: [] });
    expect(same).toMatchObject({ kind: 'ambiguous', selector: toFunctionSelector(SAME[0]) });
    expect(same.kind === 'ambiguous' && same.candidates.map((c) => c.name).sort()).toEqual(['lantern_1nfa', 'lantern_699']);
    expect(methodNameOf(toFunctionSelector(SAME[0]), { exact: [], table: t })).toEqual({ name: null, needsData: true });
    // A word with high bits set is no address: only the uint256 reading round-trips.
    fc.assert(
      fc.property(fc.bigInt(2n ** 160n, 2n ** 256n - 1n), (n) => {
        const d = decodeCall(encodeFunctionData({ abi: fn(CROSS[1]), args: [n] }), { exact: [], table: t, lookup: [] });
        expect(d).toMatchObject({ kind: 'named', name: 'lantern_1f9v', args: [{ value: n.toString() }] });
      }),
    );
    // An address-sized word fits both.
    const both = decodeCall(encodeFunctionData({ abi: fn(CROSS[0]), args: [A] }), { exact: [], table: t, lookup: [] });
    expect(both.kind === 'ambiguous' && both.candidates.length).toBe(2);
    // The same collision served by an online lookup instead of the table.
    const looked = decodeCall(encodeFunctionData({ abi: fn(SAME[1]), args: [1n] }), { exact: [], table, lookup: SAME });
    expect(looked).toMatchObject({ kind: 'ambiguous', candidates: [{ trust: 'lookup' }, { trust: 'lookup' }] });
  });

  it('an exact ABI comes first: its names, its source; a proxy lists its implementation first', () => {
    const impl = { abi: parseAbi(['function transfer(address recipient, uint256 amount)']), source: 'verified' };
    const proxy = { abi: parseAbi(['function transfer(address a, uint256 b)', 'function upgradeTo(address)']), source: 'devnet:Proxy' };
    const input = encodeFunctionData({ abi: impl.abi, args: [A, 5n] });
    expect(decodeCall(input, { exact: [impl, proxy], table, lookup: [] })).toMatchObject({
      kind: 'named', trust: 'abi', source: 'verified', args: [{ name: 'recipient' }, { name: 'amount', value: '5' }],
    });
    expect(decodeCall(input, layers)).toMatchObject({ kind: 'named', trust: 'table', source: '@openzeppelin/contracts@5.7.0', args: [{ name: 'to' }, { name: 'value' }] });
    expect(decodeCall(encodeFunctionData({ abi: proxy.abi, functionName: 'upgradeTo', args: [B] }), { exact: [impl, proxy], table: null, lookup: [] })).toMatchObject({
      name: 'upgradeTo', source: 'devnet:Proxy',
    });
  });

  it('one topic, other indexing: ERC-20 and ERC-721 Transfer, Safe 1.3 and 1.4 events', () => {
    const transfer = toEventSelector('Transfer(address,address,uint256)');
    const erc20 = decodeLog({ topics: [transfer, word(A), word(B)], data: encodeAbiParameters([{ type: 'uint256' }], [10n]) }, layers);
    expect(erc20).toMatchObject({ kind: 'named', args: [{ name: 'from' }, { name: 'to' }, { name: 'value', value: '10', indexed: false }] });
    const erc721 = decodeLog({ topics: [transfer, word(A), word(B), pad('0x7')], data: '0x' }, layers);
    expect(erc721).toMatchObject({ kind: 'named', args: [{ name: 'from' }, { name: 'to' }, { name: 'tokenId', value: '7', indexed: true }] });
    const success = toEventSelector('ExecutionSuccess(bytes32,uint256)');
    const h = keccak256('0x01');
    expect(decodeLog({ topics: [success], data: encodeAbiParameters([{ type: 'bytes32' }, { type: 'uint256' }], [h, 3n]) }, layers)).toMatchObject({
      kind: 'named', args: [{ name: 'txHash', value: h, indexed: false }, { name: 'payment', value: '3' }],
    });
    expect(decodeLog({ topics: [success, h], data: encodeAbiParameters([{ type: 'uint256' }], [3n]) }, layers)).toMatchObject({
      kind: 'named', args: [{ name: 'txHash', value: h, indexed: true }, { name: 'payment', value: '3' }],
    });
  });

  it('a looked-up event (no indexing known) is tried every way; several that fit are one of N', () => {
    const sig = 'Moved(address,address,uint256)';
    const topic = toEventSelector(sig);
    // Value in a topic and an address-sized word in data: both readings round-trip.
    const two = decodeLog({ topics: [topic, word(A), word(B)], data: encodeAbiParameters([{ type: 'uint256' }], [1n]) }, { exact: [], table, lookup: [sig] });
    expect(two.kind).toBe('ambiguous');
    // A value above 2^160 in data can only be the uint256.
    const one = decodeLog({ topics: [topic, word(A), word(B)], data: encodeAbiParameters([{ type: 'uint256' }], [2n ** 200n]) }, { exact: [], table, lookup: [sig] });
    expect(one).toMatchObject({ kind: 'named', trust: 'lookup', name: 'Moved', args: [{ indexed: true }, { indexed: true }, { value: (2n ** 200n).toString(), indexed: false }] });
  });

  it('unknown selectors and topics stay marked unknown; trailing bytes are not an exact fit', () => {
    expect(decodeCall('0xdeadbeef', layers)).toEqual({ kind: 'unknown', type: 'function', selector: '0xdeadbeef' });
    expect(decodeCall('0x', layers)).toEqual({ kind: 'unknown', type: 'function', selector: null });
    expect(decodeLog({ topics: [keccak256('0x99')], data: '0x' }, layers)).toMatchObject({ kind: 'unknown', selector: keccak256('0x99') });
    expect(decodeLog({ topics: [], data: '0x' }, layers)).toMatchObject({ kind: 'unknown', selector: null });
    // One table candidate that does not round-trip: its name, its arguments not shown.
    const extra = `${encodeFunctionData({ abi: parseAbi(['function approve(address,uint256)']), args: [A, 1n] })}ff` as Hex;
    expect(decodeCall(extra, layers)).toMatchObject({ kind: 'named', name: 'approve', args: null });
    expect(toInterfaceDecoded(decodeCall(extra, layers))).toBeNull();
  });

  it('writes the interface shape the provider sends (reference verbose transaction)', () => {
    const tx = readReference<Record<string, any>>('transaction-verbose-jssdk-mock.json').response.body; // eslint-disable-line @typescript-eslint/no-explicit-any
    const call = toInterfaceDecoded(decodeCall(tx.input, layers))!;
    expect(call).toMatchObject({ signature: tx.decoded_call.signature, label: 'transfer', type: 'function' });
    expect(call.params.map((p) => [p.value.toLowerCase(), p.type])).toEqual(tx.decoded_call.params.map((p: { value: string; type: string }) => [p.value.toLowerCase(), p.type]));
    const l = tx.logs[0];
    const ev = toInterfaceDecoded(decodeLog({ topics: [l.topic0, l.topic1, l.topic2], data: l.data }, layers))!;
    expect(ev).toEqual({ ...l.decoded_event, params: l.decoded_event.params.map((p: { value: string }) => ({ ...p, value: expect.stringMatching(new RegExp(`^${p.value}$`, 'i')) })) });
  });
});

describe('the devnet contracts Lantern ships exact ABIs for', () => {
  const artifact = (name: string) => JSON.parse(readFileSync(`devnet/evm/artifacts/${name}.json`, 'utf8')) as { deployedBytecode: string };

  it('are recognised by runtime code whatever their immutables hold, and nothing else is', () => {
    const pool = artifact('FixedRatePool').deployedBytecode;
    const windows = buildDevnetContracts().contracts.find((c: { name: string }) => c.name === 'FixedRatePool')!.immutables as number[];
    expect(windows.length).toBeGreaterThan(0);
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ minLength: 32, maxLength: 32 }), { minLength: windows.length, maxLength: windows.length }), (fills) => {
        const bytes = Buffer.from(pool.slice(2), 'hex');
        windows.forEach((at, i) => bytes.set(fills[i], at));
        expect(knownContractByCode(toHex(bytes))?.name).toBe('FixedRatePool');
        bytes[0] ^= 1; // one byte outside a window
        expect(knownContractByCode(toHex(bytes))).toBeNull();
      }),
      { numRuns: 20 },
    );
    expect(knownContractByCode(artifact('Token').deployedBytecode)?.name).toBe('Token');
    expect(knownContractByCode('0x')).toBeNull();
  });

  it("are found by name with the artifact's own ABI, parsed once and shared with the lookup by code", () => {
    const names = (abi: readonly { type: string; name?: string }[]) => abi.filter((x) => x.type === 'function').map((x) => x.name).sort();
    const raw = JSON.parse(readFileSync('devnet/evm/artifacts/MultiSend.json', 'utf8')) as { abi: { type: string; name?: string }[] };
    const abi = knownContractAbi('MultiSend');
    expect(abi).not.toBeNull();
    expect(names(abi!)).toEqual(names(raw.abi));
    expect(knownContractByCode(artifact('MultiSend').deployedBytecode)?.abi).toBe(abi);
    expect(knownContractAbi('Token')).not.toBe(abi);
    expect(knownContractAbi('NoSuchContract')).toBeNull();
  });

  it('the committed data is what `npm run signatures` writes today', { timeout: 60_000 }, () => {
    expect(JSON.parse(readFileSync('lib/decode/data/devnet-contracts.json', 'utf8')), 'devnet artifacts changed: run npm run signatures').toEqual(buildDevnetContracts());
    expect(JSON.parse(readFileSync('lib/decode/data/signatures.json', 'utf8')), 'a source package changed: run npm run signatures').toEqual(buildSignatures());
  });
});

describe('the signature table', () => {
  it("parses a selector's or a topic's entries once, upper- or lower-case, with or without 0x; unknown ones are empty", () => {
    const t = tableFrom({
      sources: [{ package: 'crafted', version: '0', what: 'test' }],
      functions: { a9059cbb: ['0|transfer(address to, uint256 amount)'] },
      events: { ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef: ['0|Transfer(address indexed from, address indexed to, uint256 value)'] },
    });
    const fn = t.functions('0xA9059CBB');
    expect(fn.map((c) => [c.item.name, c.source])).toEqual([['transfer', 'crafted@0']]);
    expect(t.functions('a9059cbb')).toBe(fn);
    const ev = t.events('0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef');
    expect(ev.map((c) => c.item.name)).toEqual(['Transfer']);
    expect(t.events('DDF252AD1BE2C89B69C2B068FC378DAA952BA7F163C4A11628F55A4DF523B3EF')).toBe(ev);
    expect(t.functions('0x12345678')).toEqual([]);
    expect(t.events('0x00')).toEqual([]);
  });
});
