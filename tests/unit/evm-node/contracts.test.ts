import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readableAbi } from '@/lib/sources/evm-node/abi-fetch';
import { codeTarget, wordAddress } from '@/lib/sources/evm-node/contracts';

// The pure parts of proxy resolution and of reading a verified ABI someone else wrote.

const hex = (n: number) => fc.uint8Array({ minLength: n, maxLength: n }).map((b) => Buffer.from(b).toString('hex'));

describe('proxy slots and code', () => {
  it('a storage word holds an address only with its upper 12 bytes zero and not zero itself', () => {
    fc.assert(
      fc.property(hex(20), (a) => {
        fc.pre(!/^0+$/.test(a));
        expect(wordAddress(`0x${'0'.repeat(24)}${a}`)).toBe(`0x${a}`);
        expect(wordAddress(`0x01${'0'.repeat(22)}${a}`)).toBeNull();
      }),
    );
    expect(wordAddress(`0x${'0'.repeat(64)}`)).toBeNull();
    expect(wordAddress('0x')).toBeNull();
    expect(wordAddress(null)).toBeNull();
    expect(wordAddress('0x1234')).toBe(`0x${'0'.repeat(36)}1234`);
  });

  it('EIP-1167 clones and EIP-7702 delegations are read from the code alone; anything else is not', () => {
    fc.assert(
      fc.property(hex(20), (a) => {
        expect(codeTarget(`0x363d3d373d3d3d363d73${a}5af43d82803e903d91602b57fd5bf3`)).toEqual({ kind: 'eip1167', implementation: `0x${a}` });
        expect(codeTarget(`0xef0100${a}`)).toEqual({ kind: 'eip7702', implementation: `0x${a}` });
        expect(codeTarget(`0x363d3d373d3d3d363d73${a}5af43d82803e903d91602b57fd5bf300`)).toBeNull();
        expect(codeTarget(`0x6080${a}`)).toBeNull();
      }),
    );
  });
});

describe('a verified ABI from another server', () => {
  it('keeps the functions and events it can read, item by item, and nothing else', () => {
    const good = { type: 'function', name: 'ok', inputs: [{ type: 'uint256', name: 'x' }], outputs: [], stateMutability: 'nonpayable' };
    const event = { type: 'event', name: 'E', inputs: [{ type: 'address', name: 'a', indexed: true }] };
    const bad = { type: 'function', name: 'bad', inputs: [{ type: 'uint999' }] };
    expect(readableAbi([good, bad, event, { type: 'constructor', inputs: [] }, null, 'x', { type: 'function', name: 'noInputs' }])).toEqual([good, event]);
    expect(readableAbi({ abi: [] })).toBeNull();
    expect(readableAbi([bad])).toBeNull();
  });
});
