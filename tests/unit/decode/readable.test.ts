import { encodeAbiParameters, encodeFunctionData, pad, parseAbi, toEventSelector, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { decodeOffline, tableFrom, decodeCall, type TransactionDecoding } from '@/lib/decode';
import type { TransactionDetail } from '@/lib/interface/transaction';
import { methodFromInput } from '@/lib/operations/transaction';
import { decodeParts, readableTransaction } from '@/lib/view/tx-readable';

const A = '0x1111111111111111111111111111111111111111';
const B = '0x2222222222222222222222222222222222222222';
const H = `0x${'ab'.repeat(32)}`;

function tx(over: Partial<TransactionDetail>): TransactionDetail {
  return {
    hash: H, nonce: '0', transaction_index: '0', from_address: A, from_address_label: null, to_address: B, to_address_label: null,
    value: '0', gas: '1', gas_price: '1', input: '0x', receipt_cumulative_gas_used: '1', receipt_gas_used: '1', receipt_contract_address: null,
    receipt_root: null, receipt_status: '1', block_timestamp: '2026-01-01T00:00:00.000Z', block_number: '1', block_hash: H, logs: [], ...over,
  } as TransactionDetail;
}

const log = (i: number, topics: Hex[], data: Hex) => ({
  log_index: String(i), transaction_hash: H, transaction_index: '0', address: B, data,
  topic0: topics[0] ?? null, topic1: topics[1] ?? null, topic2: topics[2] ?? null, topic3: topics[3] ?? null,
  block_timestamp: '2026-01-01T00:00:00.000Z', block_number: '1', block_hash: H,
});

describe('the readable transaction (view model of the transaction page)', () => {
  it('names the method with typed arguments, each log as Event(name: value), each internal call', async () => {
    const input = encodeFunctionData({ abi: parseAbi(['function transfer(address,uint256)']), args: [B, 5n] });
    const t = tx({
      input,
      logs: [
        log(0, [toEventSelector('Transfer(address,address,uint256)'), pad(A), pad(B)], encodeAbiParameters([{ type: 'uint256' }], [5n])),
        log(1, [`0x${'77'.repeat(32)}`], '0x'),
      ],
      internal_transactions: [
        { transaction_hash: H, block_number: '1', block_hash: H, type: 'CALL', from: B, to: A, value: '0', input: encodeFunctionData({ abi: parseAbi(['function approve(address,uint256)']), args: [A, 1n] }), depth: 1 },
        { transaction_hash: H, block_number: '1', block_hash: H, type: 'CALL', from: B, to: A, value: '9', input: '0x', depth: 1 },
        { transaction_hash: H, block_number: '1', block_hash: H, type: 'CREATE', from: B, to: A, value: '0', input: '0x6080', depth: 2 },
      ],
    });
    const r = readableTransaction(t, await decodeOffline(decodeParts(t)));
    expect(r.method).toMatchObject({ state: 'named', text: 'transfer', signature: 'transfer(address,uint256)', trust: 'table', args: [{ name: 'to', type: 'address' }, { name: 'value', type: 'uint256', value: '5' }] });
    expect(r.logs[0].text).toBe(`Transfer(from: ${A}, to: ${B}, value: 5)`);
    expect(r.logs[1]).toMatchObject({ event: { state: 'unknown', selector: `0x${'77'.repeat(32)}` }, text: `Unknown event 0x${'77'.repeat(32)}` });
    expect(r.calls.map((c) => [c.method.state, c.method.text])).toEqual([['named', 'approve'], ['transfer', 'Transfer'], ['creation', 'Contract creation']]);
    expect(JSON.parse(JSON.stringify(r))).toEqual(r); // plain data, handed to any view
  });

  it('several exact fits read "one of N", never one of them', () => {
    const sigs = ['lantern_699(uint256)', 'lantern_1nfa(uint256)'];
    const table = tableFrom({ sources: [{ package: 'crafted', version: '0', what: '' }], functions: { df28ab8e: sigs.map((s) => `0|${s}`) }, events: {} });
    const input = encodeFunctionData({ abi: parseAbi([`function ${sigs[0]}`] as string[]), args: [3n] });
    const d: TransactionDecoding = { call: decodeCall(input, { exact: [], table, lookup: [] }), logs: [], calls: [], contracts: {}, pending: false };
    const r = readableTransaction(tx({ input }), d);
    expect(r.method).toMatchObject({ state: 'ambiguous', text: 'one of 2: lantern_699, lantern_1nfa', name: null, selector: '0xdf28ab8e' });
    expect(r.method.candidates.map((c) => c.signature)).toEqual(sigs);
  });

  it("where Lantern knows nothing, the answer's own decoding (a hosted provider's) is shown as the source's", async () => {
    const t = tx({ input: '0xdeadbeef', decoded_call: { signature: 'mystery()', label: 'mystery', type: 'function', params: [] } });
    expect(readableTransaction(t, await decodeOffline(decodeParts(t))).method).toMatchObject({ state: 'named', text: 'mystery', trust: 'source' });
  });

  it("the answer's own decoding (a provider's, from the contract's ABI) over the table's parameter names; an agreeing one leaves the table's", async () => {
    const input = encodeFunctionData({ abi: parseAbi(['function transfer(address,uint256)']), args: [A, 5n] });
    const params = (names: [string, string]) => [
      { name: names[0], type: 'address', value: A },
      { name: names[1], type: 'uint256', value: '5' },
    ];
    const theirs = tx({ input, decoded_call: { signature: 'transfer(address,uint256)', label: 'transfer', type: 'function', params: params(['recipient', 'amount']) } });
    const r = readableTransaction(theirs, await decodeOffline(decodeParts(theirs))).method;
    expect(r).toMatchObject({ state: 'named', trust: 'source' });
    expect(r.args!.map((a) => a.name)).toEqual(['recipient', 'amount']);
    const table = readableTransaction(tx({ input }), await decodeOffline(decodeParts(tx({ input })))).method;
    const agreeing = tx({ input, decoded_call: { signature: 'transfer(address,uint256)', label: 'transfer', type: 'function', params: params(table.args!.map((a) => a.name) as [string, string]) } });
    expect(readableTransaction(agreeing, await decodeOffline(decodeParts(agreeing))).method).toMatchObject({ state: 'named', trust: 'table' });
  });

  it('plain transfers and creations say so; the CSV names a call from its input with the table', async () => {
    const empty = readableTransaction(tx({}), await decodeOffline(decodeParts(tx({}))));
    expect(empty.method.text).toBe('Transfer');
    const created = tx({ to_address: null, input: '0x6080' });
    expect(readableTransaction(created, await decodeOffline(decodeParts(created))).method.text).toBe('Contract creation');
    expect(await methodFromInput(encodeFunctionData({ abi: parseAbi(['function approve(address,uint256)']), args: [A, 1n] }))).toBe('approve');
    expect(await methodFromInput('0xdeadbeef')).toBeNull();
    expect(await methodFromInput(undefined)).toBeNull();
  });
});
