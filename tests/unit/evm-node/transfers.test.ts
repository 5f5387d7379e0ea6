import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { fromParityTraces, movesValue, type ParityTrace } from '../../../lib/sources/evm-node/transfers';

const frame = (type: string, value = '5', reverted = false, to: string | null = '0xbb') => ({ type, from: '0xaa', to, value, reverted });

describe('which frames move ETH', () => {
  it('CALL, CREATE, CREATE2 and SELFDESTRUCT with a value that did not revert; nothing else', () => {
    expect(['CALL', 'CREATE', 'CREATE2', 'SELFDESTRUCT', 'call'].map((t) => movesValue(frame(t)))).toEqual([true, true, true, true, true]);
    expect(['DELEGATECALL', 'STATICCALL', 'CALLCODE'].map((t) => movesValue(frame(t)))).toEqual([false, false, false]);
    expect(movesValue(frame('CALL', '5', true))).toBe(false);
    expect(movesValue(frame('CALL', '0'))).toBe(false);
    expect(movesValue(frame('CREATE', '5', false, null))).toBe(false);
  });

  it('parity traces: suicide is a SELFDESTRUCT to the beneficiary, create2 is CREATE2, failures revert their subtree', () => {
    const traces: ParityTrace[] = [
      { type: 'call', action: { callType: 'call', from: '0xA0', to: '0xB0', value: '0x10' }, traceAddress: [] },
      { type: 'call', action: { callType: 'call', from: '0xB0', to: '0xC0', value: '0x5' }, error: 'Reverted', traceAddress: [0] },
      { type: 'call', action: { callType: 'call', from: '0xC0', to: '0xD0', value: '0x1' }, traceAddress: [0, 0] },
      { type: 'create', action: { creationMethod: 'create2', from: '0xB0', value: '0x2' }, result: { address: '0xE0' }, traceAddress: [1] },
      { type: 'suicide', action: { address: '0xE0', refundAddress: '0xF0', balance: '0x2' }, traceAddress: [1, 0] },
      { type: 'call', action: { callType: 'delegatecall', from: '0xB0', to: '0x10', value: '0x10' }, traceAddress: [2] },
      { type: 'call', action: { callType: 'call', from: '0xB0', to: '0xC0', value: '0x3' }, traceAddress: [10] },
    ];
    const frames = fromParityTraces(traces);
    expect(frames.map((f) => [f.type, f.from, f.to, f.value, f.reverted, f.depth])).toEqual([
      ['CALL', '0xb0', '0xc0', '5', true, 1],
      ['CALL', '0xc0', '0xd0', '1', true, 2],
      ['CREATE2', '0xb0', '0xe0', '2', false, 1],
      ['SELFDESTRUCT', '0xe0', '0xf0', '2', false, 2],
      ['DELEGATECALL', '0xb0', '0x10', '16', false, 1],
      // [10] is not under the failed [0]: a prefix match must not confuse 1 with 10
      ['CALL', '0xb0', '0xc0', '3', false, 1],
    ]);
    expect(frames.filter(movesValue).map((f) => `${f.from}>${f.to}:${f.value}`)).toEqual(['0xb0>0xe0:2', '0xe0>0xf0:2', '0xb0>0xc0:3']);
  });

  it('a plain create is CREATE, and a selfdestruct named as newer nodes name it is a SELFDESTRUCT', () => {
    const frames = fromParityTraces([
      { type: 'call', action: { callType: 'call', from: '0xA0', to: '0xB0', value: '0x0' }, traceAddress: [] },
      { type: 'create', action: { creationMethod: 'create', from: '0xB0', value: '0x7' }, result: { address: '0xE0' }, traceAddress: [0] },
      { type: 'create', action: { from: '0xB0', value: '0x0' }, result: { address: '0xE1' }, traceAddress: [1] },
      { type: 'selfdestruct', action: { address: '0xE0', refundAddress: '0xF0', balance: '0x7' }, traceAddress: [2] },
    ]);
    expect(frames.map((f) => [f.type, f.from, f.to, f.value])).toEqual([
      ['CREATE', '0xb0', '0xe0', '7'],
      ['CREATE', '0xb0', '0xe1', '0'],
      ['SELFDESTRUCT', '0xe0', '0xf0', '7'],
    ]);
  });

  it('a failure reverts its own subtree only: not its siblings, nor a sibling subtree of another failure', () => {
    const call = (traceAddress: number[], error?: string): ParityTrace => ({ type: 'call', action: { callType: 'call', from: '0x01', to: '0x02', value: '0x1' }, traceAddress, ...(error ? { error } : {}) });
    // The order nodes emit: depth first. [0, 0] and [1] fail; [0, 1] (the sibling of a failure), [2] and
    // [2, 0] do not sit under either.
    const traces = [call([0]), call([0, 0], 'Reverted'), call([0, 0, 0]), call([0, 1]), call([1], 'out of gas'), call([1, 0]), call([2]), call([2, 0])];
    expect(fromParityTraces(traces).map((f) => f.reverted)).toEqual([false, true, true, false, true, true, false, false]);
  });

  test.prop([fc.array(fc.tuple(fc.array(fc.nat(3), { maxLength: 4 }), fc.boolean()), { maxLength: 30 })])(
    'no frame under a failed trace moves value',
    (spec) => {
      // Unique trace addresses in parent-first order, as nodes emit them.
      const seen = new Set<string>();
      const traces: ParityTrace[] = spec
        .map(([addr, failed]) => ({ addr: [0, ...addr], failed }))
        .filter(({ addr }) => !seen.has(addr.join('.')) && !!seen.add(addr.join('.')))
        .sort((a, b) => a.addr.length - b.addr.length)
        .map(({ addr, failed }) => ({ type: 'call', action: { callType: 'call', from: '0x01', to: '0x02', value: '0x1' }, traceAddress: addr, ...(failed ? { error: 'x' } : {}) }));
      const frames = fromParityTraces(traces);
      traces.forEach((t, i) => {
        const underFailure = traces.some((u) => u.error && u.traceAddress.length <= t.traceAddress.length && u.traceAddress.every((x, k) => t.traceAddress[k] === x));
        expect(movesValue(frames[i]!)).toBe(!underFailure);
      });
    },
  );
});
