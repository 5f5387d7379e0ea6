import { afterEach, describe, expect, it } from 'vitest';
import { afterRefusal } from '@/lib/sources/evm-node/logs';
import { RpcMethodError } from '@/lib/sources/evm-node/rpc';
import { LanternError } from '@/lib/errors';

// How a refused eth_getLogs range is split, from the providers' own wording (see docs/evm-node.md).
const refused = (code: number, message: string) => new RpcMethodError('eth_getLogs', code, message);
const CHAIN = 137;
const caps = () => (globalThis as unknown as { __lanternLogSpanCaps: Map<number, number> }).__lanternLogSpanCaps;
afterEach(() => caps().clear());

describe('afterRefusal', () => {
  it('Infura result count: halves, not retried as transient, no lasting cap', () => {
    const e = refused(-32005, 'query returned more than 10000 results');
    expect(e.sizeRefusal).toBe(true);
    expect(afterRefusal(CHAIN, e, 1000)).toBe(500);
    expect(caps().get(CHAIN)).toBeUndefined();
  });

  it('a stated range limit is used at once and kept for later queries', () => {
    const e = refused(-32602, 'range 5437 exceeds limit of 2000');
    expect(e.sizeRefusal).toBe(true);
    expect(afterRefusal(CHAIN, e, 5437)).toBe(2000);
    expect(caps().get(CHAIN)).toBe(2000);
    // Another chain's node has its own limits: this one is not its.
    expect(caps().get(1)).toBeUndefined();
    expect(afterRefusal(1, refused(-32000, 'block range is too wide'), 5000)).toBe(1250);
    // A later result-count refusal inside the limit still halves.
    expect(afterRefusal(CHAIN, refused(-32005, 'query returned more than 10000 results'), 2000)).toBe(1000);
  });

  it("Alchemy: the suggested range past the 200 characters the message keeps, and its 2K limit", () => {
    const e = refused(
      -32602,
      'Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the response size, or you can request any block range with a cap of 10K logs in the response. Based on your parameters and the response size limit, this block range should work: [0x10, 0x4f]',
    );
    expect(e.sizeRefusal).toBe(true);
    expect(e.message).not.toContain('[0x10, 0x4f]');
    expect(afterRefusal(CHAIN, e, 1500)).toBe(64);
    expect(caps().get(CHAIN)).toBe(2000);
  });

  it('an unknown refusal quarters; one block refused, or a method the node lacks, is not split', () => {
    expect(afterRefusal(CHAIN, refused(-32000, 'block range is too wide'), 400)).toBe(100);
    expect(afterRefusal(CHAIN, refused(-32000, 'query returned more than 10000 results'), 1)).toBeNull();
    expect(afterRefusal(CHAIN, refused(-32601, 'the method eth_getLogs does not exist/is not available'), 400)).toBeNull();
    expect(afterRefusal(CHAIN, new LanternError(503, 'upstream_unavailable', 'down'), 400)).toBeNull();
    expect(afterRefusal(CHAIN, new LanternError(504, 'upstream_timeout', 'slow'), 400)).toBe(100);
  });

  it("the providers' other wordings of a range limit, each read to its number", () => {
    const cap = (message: string, tried = 100_000) => {
      caps().clear();
      afterRefusal(CHAIN, refused(-32000, message), tried);
      return caps().get(CHAIN);
    };
    expect(cap('exceed maximum block range: 5000')).toBe(5000);
    expect(cap('max block range 3000 exceeded')).toBe(3000);
    expect(cap('exceeds maximum range:4000')).toBe(4000);
    expect(cap('block range limited to 300 blocks')).toBe(300);
    expect(cap('you can make eth_getLogs requests with up to a 10K block range')).toBe(10_000);
    expect(cap('you can make eth_getLogs requests with up to a 2000 block range')).toBe(2000);
    expect(cap('range 5000 exceeds limit of 1')).toBe(1);
    // A limit of 0 is no limit to keep.
    expect(cap('range 5000 exceeds limit of 0')).toBeUndefined();
  });

  it('a later, larger stated limit keeps the smaller one', () => {
    afterRefusal(CHAIN, refused(-32602, 'range 5437 exceeds limit of 2000'), 5437);
    afterRefusal(CHAIN, refused(-32602, 'range 9000 exceeds limit of 5000'), 9000);
    expect(caps().get(CHAIN)).toBe(2000);
  });

  it('a suggested range: spaces inside the brackets, one block, and one no smaller than what was tried', () => {
    expect(afterRefusal(CHAIN, refused(-32602, 'this block range should work: [ 0x10 , 0x4f ]'), 1500)).toBe(64);
    expect(afterRefusal(CHAIN, refused(-32602, 'this block range should work: [0x10, 0x10]'), 1500)).toBe(1);
    // No spaces at all.
    expect(afterRefusal(CHAIN, refused(-32602, 'Try with this block range [0x10,0x4f]'), 1500)).toBe(64);
    // Not smaller than the span tried: no help, the span is quartered instead.
    expect(afterRefusal(CHAIN, refused(-32602, 'Try with this block range [0x0, 0x1000]'), 400)).toBe(100);
    expect(afterRefusal(CHAIN, refused(-32602, 'Try with this block range [0x1, 0x190]'), 400)).toBe(100);
  });
});
