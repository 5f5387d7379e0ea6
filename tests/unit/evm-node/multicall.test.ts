import fc from 'fast-check';
import { decodeFunctionData, encodeFunctionData, encodeFunctionResult, getAddress, multicall3Abi, type Address, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { decodeAggregate3, encodeAggregate3, multicall3RuntimeCode, runtimeFromCreation, type ViewCall } from '@/lib/sources/evm-node/multicall';

// The aggregate3 codec: what Lantern sends is read back by viem's own decoder (with allowFailure on every
// call), and what a node answers, written by viem's encoder, is read back as one outcome per call.

const hexBytes = (min: number, max: number) => fc.uint8Array({ minLength: min, maxLength: max }).map((b) => `0x${Buffer.from(b).toString('hex')}` as Hex);
const address = hexBytes(20, 20).map((h) => getAddress(h) as Address);
const call: fc.Arbitrary<ViewCall> = fc.record({ target: address, callData: hexBytes(0, 100) });
/** What one call answered: success or not, and return data (empty, a word, a revert reason, anything). */
const result = fc.record({ success: fc.boolean(), returnData: fc.oneof(fc.constant('0x' as Hex), hexBytes(32, 32), hexBytes(0, 200)) });

describe('encodeAggregate3', () => {
  it('sends every call, in order, each allowed to fail', () => {
    fc.assert(
      fc.property(fc.array(call, { maxLength: 40 }), (calls) => {
        const { functionName, args } = decodeFunctionData({ abi: multicall3Abi, data: encodeAggregate3(calls) });
        expect(functionName).toBe('aggregate3');
        expect(args[0]).toEqual(calls.map((c) => ({ target: c.target, allowFailure: true, callData: c.callData })));
      }),
    );
  });

  it('writes what viem writes, byte for byte', () => {
    fc.assert(
      fc.property(fc.array(call, { maxLength: 40 }), (calls) => {
        const viem = encodeFunctionData({ abi: multicall3Abi, functionName: 'aggregate3', args: [calls.map((c) => ({ target: c.target, allowFailure: true, callData: c.callData }))] });
        expect(encodeAggregate3(calls)).toBe(viem);
      }),
    );
  });

  it('refuses a target that is not an address and call data that is not hex bytes', () => {
    const target = '0x0000000000000000000000000000000000000001' as Address;
    expect(() => encodeAggregate3([{ target: '0x1234' as Address, callData: '0x' }])).toThrow();
    expect(() => encodeAggregate3([{ target, callData: '0x123' as Hex }])).toThrow();
    expect(() => encodeAggregate3([{ target, callData: '0xzz' as Hex }])).toThrow();
  });
});

describe('decodeAggregate3', () => {
  it('round-trips any mix of succeeding and failing calls; a success with no data is a failure', () => {
    fc.assert(
      fc.property(fc.array(result, { maxLength: 40 }), (results) => {
        const data = encodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', result: results });
        const outcomes = decodeAggregate3(data, results.length);
        expect(outcomes).toEqual(results.map((r) => ({ ok: r.success && r.returnData !== '0x', data: r.returnData })));
      }),
    );
  });

  it('refuses an answer with another number of results, or one that is not aggregate3 data', () => {
    fc.assert(
      fc.property(fc.array(result, { minLength: 1, maxLength: 10 }), fc.integer({ min: 0, max: 20 }), (results, n) => {
        fc.pre(n !== results.length);
        const data = encodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', result: results });
        expect(() => decodeAggregate3(data, n)).toThrow();
      }),
    );
    expect(() => decodeAggregate3('0x', 1)).toThrow();
    expect(() => decodeAggregate3('0x1234', 1)).toThrow();
  });
});

describe('runtimeFromCreation', () => {
  it('cuts the runtime code a CODECOPY/RETURN constructor returns', () => {
    fc.assert(
      fc.property(hexBytes(0, 40), hexBytes(1, 300), (prefix, runtime) => {
        const len = (runtime.length - 2) / 2;
        // prefix, then PUSH2 len DUP1 PUSH2 offset PUSH1 0 CODECOPY PUSH1 0 RETURN INVALID, then the runtime code
        const head = `${prefix.slice(2)}61${len.toString(16).padStart(4, '0')}8061OFFS6000396000f3fe`;
        const offset = head.length / 2;
        const creation = `0x${head.replace('OFFS', offset.toString(16).padStart(4, '0'))}${runtime.slice(2)}` as Hex;
        expect(runtimeFromCreation(creation)).toBe(runtime);
      }),
    );
    expect(() => runtimeFromCreation('0x6080604052')).toThrow();
  });

  it("finds Multicall3's runtime code in what viem sends", async () => {
    const code = await multicall3RuntimeCode();
    // Multicall3's runtime code: 5561 bytes, starting with the free-memory-pointer prologue.
    expect((code.length - 2) / 2).toBe(0x15b9);
    expect(code.startsWith('0x6080604052')).toBe(true);
  });
});
