import fc from 'fast-check';
import { encodeFunctionResult, getAddress, multicall3Abi, type Address, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { decodeAggregate3, encodeAggregate3 } from '@/lib/sources/evm-node/multicall';
import { callCount, decodeTokenRead, encodeTokenRead, READS, tokenReadCalls, type TokenRead } from '@/lib/sources/evm-node/token-reader';
import { TOKEN_READER_CODE } from '@/lib/sources/evm-node/token-reader-code';
import { codeModule, compileTokenReader } from '../../../scripts/token-reader.mjs';

// The token reader's codec beside the aggregate3 path it stands in for: for any tokens and any mix of
// what their calls answer (reverting with or without data, returning nothing, a bytes32, a string, a
// number too big for decimals, anything), the outcomes decoded from the reader's answer are the ones
// decodeAggregate3 gives for aggregate3's answer to the same calls. The reader's answer is written here
// as contracts/TokenReader.sol writes it (tests/integration/token-reader.test.ts runs the contract itself).

const hexBytes = (min: number, max: number) => fc.uint8Array({ minLength: min, maxLength: max }).map((b) => `0x${Buffer.from(b).toString('hex')}` as Hex);
const address = hexBytes(20, 20).map((h) => getAddress(h) as Address);
const reads = fc.subarray([...READS]);
const item: fc.Arbitrary<TokenRead> = fc.record({ token: address, reads });
const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}` as Hex;
/** What one call may answer: every kind of token the holdings must survive. */
const answer = fc.record({
  success: fc.boolean(),
  returnData: fc.oneof(
    fc.constant('0x' as Hex), // no code, or a revert without reason
    hexBytes(32, 32), // a number, or a bytes32 name (MKR)
    fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }).map(word), // decimals that lie (> 255)
    fc.string({ maxLength: 40 }).map((s) => encodeFunctionResult({ abi: [{ type: 'function', name: 'f', inputs: [], outputs: [{ type: 'string' }], stateMutability: 'view' }], functionName: 'f', result: s })), // a string name
    hexBytes(0, 200), // anything
  ),
});

/** The reader's answer for these call results, as the contract writes it: 1 byte flag, 4 bytes length, the data. */
function readerAnswer(results: { success: boolean; returnData: Hex }[]): Hex {
  return `0x${results.map((r) => `${r.success ? '01' : '00'}${((r.returnData.length - 2) / 2).toString(16).padStart(8, '0')}${r.returnData.slice(2)}`).join('')}`;
}

describe('token reader codec', () => {
  it('asks 21 bytes per token: the wallet, then each token and the mask of its calls', () => {
    fc.assert(
      fc.property(address, fc.array(item, { maxLength: 20 }), (wallet, items) => {
        const data = encodeTokenRead(wallet, items);
        expect(data.length).toBe(2 + 40 + items.length * 42);
        items.forEach((it, i) => {
          const at = 42 + i * 42;
          expect(`0x${data.slice(at, at + 40)}`).toBe(it.token.toLowerCase());
          const mask = Number.parseInt(data.slice(at + 40, at + 42), 16);
          expect(READS.filter((_, k) => mask & (1 << k))).toEqual(READS.filter((r) => it.reads.includes(r)));
        });
      }),
    );
  });

  it('stands for the aggregate3 calls it replaces, in the same order', () => {
    fc.assert(
      fc.property(address, fc.array(item, { maxLength: 20 }), (wallet, items) => {
        const calls = tokenReadCalls(wallet, items);
        expect(calls.length).toBe(callCount(items));
        // The calls are what holdings and token facts sent before: balanceOf(wallet), totalSupply(), name(), symbol(), decimals().
        const expected = items.flatMap((it) =>
          READS.filter((r) => it.reads.includes(r)).map((r) => ({
            target: it.token,
            callData: { balanceOf: `0x70a08231${wallet.slice(2).toLowerCase().padStart(64, '0')}`, totalSupply: '0x18160ddd', name: '0x06fdde03', symbol: '0x95d89b41', decimals: '0x313ce567' }[r],
          })),
        );
        expect(calls).toEqual(expected);
        expect(() => encodeAggregate3(calls)).not.toThrow();
      }),
    );
  });

  it('decodes any mix of answers to the outcomes the aggregate3 path decodes', () => {
    fc.assert(
      fc.property(fc.array(answer, { maxLength: 40 }), (results) => {
        const viaAggregate3 = decodeAggregate3(encodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', result: results }), results.length);
        expect(decodeTokenRead(readerAnswer(results), results.length)).toEqual(viaAggregate3);
      }),
    );
  });

  it('reads an answer in any mix of letter cases as the lower-case one', () => {
    fc.assert(
      fc.property(fc.array(answer, { minLength: 1, maxLength: 20 }), fc.array(fc.boolean(), { minLength: 1 }), (results, upper) => {
        const lower = readerAnswer(results);
        const mixed = `0x${[...lower.slice(2)].map((c, i) => (upper[i % upper.length] ? c.toUpperCase() : c)).join('')}` as Hex;
        expect(decodeTokenRead(mixed, results.length)).toEqual(decodeTokenRead(lower, results.length));
      }),
    );
    expect(() => decodeTokenRead('0x01000000010G' as Hex, 1)).toThrow(); // not hex, whatever the case
  });

  it('refuses an answer with another number of results, a cut one, or one that is not its format', () => {
    fc.assert(
      fc.property(fc.array(answer, { minLength: 1, maxLength: 10 }), fc.integer({ min: 0, max: 20 }), (results, n) => {
        fc.pre(n !== results.length);
        expect(() => decodeTokenRead(readerAnswer(results), n)).toThrow();
      }),
    );
    fc.assert(
      fc.property(fc.array(answer, { minLength: 1, maxLength: 10 }), fc.nat(), (results, cut) => {
        const whole = readerAnswer(results);
        const at = 2 + 2 * (cut % ((whole.length - 2) / 2)); // a byte boundary short of the end
        fc.pre(at > 2);
        const head = decodeTokenRead.bind(null, whole.slice(0, at) as Hex, results.length);
        // Cut inside an answer, or after a whole one: fewer results than asked either way.
        expect(head).toThrow();
      }),
    );
    expect(() => decodeTokenRead('0x02000000200000' as Hex, 1)).toThrow(); // flag 2
    expect(() => decodeTokenRead('0x0100000001' as Hex, 1)).toThrow(); // says 1 byte, has none
    expect(() => decodeTokenRead('0x01000' as Hex, 1)).toThrow(); // odd length
    expect(() => decodeTokenRead('0xzz' as Hex, 1)).toThrow();
    expect(decodeTokenRead('0x' as Hex, 0)).toEqual([]);
  });

  it('refuses a wallet or token that is not an address', () => {
    const token = '0x0000000000000000000000000000000000000001' as Address;
    expect(() => encodeTokenRead('0x12' as Address, [])).toThrow();
    expect(() => encodeTokenRead(token, [{ token: '0x12' as Address, reads: ['balanceOf'] }])).toThrow();
  });
});

describe('token reader code', () => {
  it('is what the committed source compiles to, written as the module the script writes', async () => {
    const { readFileSync } = await import('node:fs');
    const compiled = compileTokenReader();
    expect(compiled.code).toBe(TOKEN_READER_CODE);
    expect(readFileSync('lib/sources/evm-node/token-reader-code.ts', 'utf8')).toBe(codeModule(compiled));
  }, 60_000);
});
