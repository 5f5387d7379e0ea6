import { encodeAbiParameters, encodeFunctionData, parseAbi, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { readReference } from './reference';
import { decodeCall as decodeAny, decodeLog as decodeAnyLog, signatureTable, toInterfaceDecoded, type LogInput } from '@/lib/decode';

// The published shape (decoded_call, decoded_event) as node mode writes it, from the shipped table.
const table = await signatureTable();
const decodeCall = (input: Hex) => toInterfaceDecoded(decodeAny(input, { exact: [], table, lookup: [] }));
const decodeLog = (log: LogInput) => toInterfaceDecoded(decodeAnyLog(log, { exact: [], table, lookup: [] }));

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('decoding calls and logs in the interface shape', () => {
  it('decodes the reference verbose transaction as the provider did', () => {
    const tx = readReference<Json>('transaction-verbose-jssdk-mock.json').response.body;
    const call = decodeCall(tx.input)!;
    expect(call).toMatchObject({ signature: tx.decoded_call.signature, label: 'transfer', type: 'function' });
    expect(call.params.map((p) => [p.value.toLowerCase(), p.type])).toEqual(tx.decoded_call.params.map((p: Json) => [p.value.toLowerCase(), p.type]));
    const l = tx.logs[0];
    const event = decodeLog({ topics: [l.topic0, l.topic1, l.topic2], data: l.data })!;
    expect(event).toMatchObject({ signature: 'Transfer(address,address,uint256)', label: 'Transfer' });
    expect(event.params.map((p) => p.value.toLowerCase())).toEqual(l.decoded_event.params.map((p: Json) => p.value.toLowerCase()));
  });

  it('an ERC-721 Transfer (token id indexed) and an ERC-1155 batch', () => {
    const topic = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef' as Hex;
    const a = `0x${'0'.repeat(24)}${'11'.repeat(20)}` as Hex;
    const b = `0x${'0'.repeat(24)}${'22'.repeat(20)}` as Hex;
    const id = `0x${'0'.repeat(63)}7` as Hex;
    expect(decodeLog({ topics: [topic, a, b, id], data: '0x' })).toMatchObject({ label: 'Transfer', params: [{ name: 'from' }, { name: 'to' }, { name: 'tokenId', value: '7' }] });
    const batch = '0x4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb' as Hex;
    const data = encodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint256[]' }], [[1n, 2n], [3n, 4n]]);
    expect(decodeLog({ topics: [batch, a, a, b], data })).toMatchObject({ label: 'TransferBatch', params: [{}, {}, {}, { value: '[1,2]' }, { value: '[3,4]' }] });
  });

  it('leaves what it does not know undecoded', () => {
    expect(decodeLog({ topics: [`0x${'12'.repeat(32)}` as Hex], data: '0x' })).toBeNull();
    expect(decodeCall('0x')).toBeNull();
    expect(decodeCall(encodeFunctionData({ abi: parseAbi(['function lantern_poke(uint256)']), args: [1n] }))).toBeNull();
  });
});
