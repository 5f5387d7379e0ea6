import fc from 'fast-check';
import { getAddress, type Address, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnAnvil } from '../../devnet/evm/anvil.mjs';
import { decodeAggregate3, encodeAggregate3, multicall3RuntimeCode, MULTICALL3_ADDRESS } from '../../lib/sources/evm-node/multicall';
import { decodeTokenRead, encodeTokenRead, READS, TOKEN_READER_ADDRESS, tokenReadCalls, type Read, type TokenRead } from '../../lib/sources/evm-node/token-reader';
import { TOKEN_READER_CODE } from '../../lib/sources/evm-node/token-reader-code';
import { freePort } from '../support/ports';
import { rpcClient, type Rpc } from '../support/rpc';

// contracts/TokenReader.sol run by a node (its code placed by a state override, as Lantern places it),
// against the path it stands in for: Multicall3's aggregate3 of the same calls, placed the same way. For
// any set of tokens where each of balanceOf, totalSupply, name, symbol and decimals returns or reverts
// with any data (nothing, a number, a bytes32 name, a string, a decimals above 255, any bytes), and
// addresses with no code at all, the outcomes decoded from the reader's answer equal aggregate3's.

const SELECTOR: Record<Read, string> = { balanceOf: '70a08231', totalSupply: '18160ddd', name: '06fdde03', symbol: '95d89b41', decimals: '313ce567' };

type Behaviour = { revert: boolean; data: Hex };

/**
 * Code that answers each of the five calls as told (any other selector reverts with nothing): a dispatch
 * on the selector, then per call CODECOPY of its data from the end of the code and RETURN or REVERT.
 */
function tokenCode(answers: Record<Read, Behaviour>): Hex {
  const hex2 = (n: number) => n.toString(16).padStart(4, '0');
  const header = 6 + READS.length * 11 + 4;
  let dataAt = header + READS.length * 16;
  let dispatch = '6000' + '35' + '60e0' + '1c'; // selector = calldataload(0) >> 224
  let bodies = '';
  let blobs = '';
  READS.forEach((r, j) => {
    const { revert, data } = answers[r];
    const len = (data.length - 2) / 2;
    dispatch += `8063${SELECTOR[r]}1461${hex2(header + j * 16)}57`; // DUP1 PUSH4 sel EQ PUSH2 dest JUMPI (11 bytes)
    bodies += `5b61${hex2(len)}61${hex2(dataAt)}60003961${hex2(len)}6000${revert ? 'fd' : 'f3'}`;
    blobs += data.slice(2);
    dataAt += len;
  });
  dispatch += '600080fd'; // anything else: revert(0, 0)
  return `0x${dispatch}${bodies}${blobs}`;
}

const hexBytes = (min: number, max: number) => fc.uint8Array({ minLength: min, maxLength: max }).map((b) => `0x${Buffer.from(b).toString('hex')}` as Hex);
const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}` as Hex;
const text = (s: string) => {
  const b = Buffer.from(s, 'utf8');
  return `0x${word(32n).slice(2)}${word(BigInt(b.length)).slice(2)}${b.toString('hex').padEnd(Math.ceil(b.length / 32) * 64, '0')}` as Hex;
};
const data = fc.oneof(
  fc.constant('0x' as Hex),
  hexBytes(32, 32), // a number, or a bytes32 name
  fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }).map(word), // a decimals above 255, a balance
  fc.string({ maxLength: 40 }).map(text), // a string name
  hexBytes(0, 120), // anything
);
const behaviour: fc.Arbitrary<Behaviour> = fc.record({ revert: fc.boolean(), data });
const token = fc.oneof(
  { weight: 1, arbitrary: fc.constant(null) }, // an address with no code
  { weight: 5, arbitrary: fc.record({ balanceOf: behaviour, totalSupply: behaviour, name: behaviour, symbol: behaviour, decimals: behaviour }) },
);
const reads = fc.subarray([...READS], { minLength: 1 });

let anvil: Awaited<ReturnType<typeof spawnAnvil>>;
let rpc: Rpc;
let multicall3: Hex;
let next = 0x1000;

beforeAll(async () => {
  anvil = await spawnAnvil({ port: await freePort() });
  rpc = rpcClient(anvil.url);
  multicall3 = await multicall3RuntimeCode();
});
afterAll(async () => {
  await anvil?.stop();
});

describe('TokenReader on a node', () => {
  it('answers every call as aggregate3 does, for any mix of tokens', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(token, reads), { minLength: 1, maxLength: 6 }), hexBytes(20, 20), async (tokens, walletHex) => {
        const wallet = getAddress(walletHex) as Address;
        const items: TokenRead[] = [];
        for (const [answers, asked] of tokens) {
          const address = getAddress(`0x${(next++).toString(16).padStart(40, 'a')}`) as Address;
          if (answers) await rpc.call('anvil_setCode', [address, tokenCode(answers)]);
          items.push({ token: address, reads: asked });
        }
        const calls = tokenReadCalls(wallet, items);
        const [viaReader, viaAggregate3] = await Promise.all([
          rpc.call<Hex>('eth_call', [{ to: TOKEN_READER_ADDRESS, data: encodeTokenRead(wallet, items) }, 'latest', { [TOKEN_READER_ADDRESS]: { code: TOKEN_READER_CODE } }]),
          rpc.call<Hex>('eth_call', [{ to: MULTICALL3_ADDRESS, data: encodeAggregate3(calls) }, 'latest', { [MULTICALL3_ADDRESS]: { code: multicall3 } }]),
        ]);
        const expected = decodeAggregate3(viaAggregate3, calls.length);
        expect(decodeTokenRead(viaReader, calls.length)).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });

  it('the generated tokens answer as told (the property above tests something)', async () => {
    const address = getAddress(`0x${(next++).toString(16).padStart(40, 'b')}`) as Address;
    const name = text('Maker');
    await rpc.call('anvil_setCode', [
      address,
      tokenCode({
        balanceOf: { revert: true, data: '0x08c379a0' },
        totalSupply: { revert: false, data: word(7n) },
        name: { revert: false, data: name },
        symbol: { revert: false, data: '0x' },
        decimals: { revert: true, data: '0x' },
      }),
    ]);
    const wallet = '0x00000000000000000000000000000000000000aa' as Address;
    const items: TokenRead[] = [{ token: address, reads: [...READS] }];
    const answer = await rpc.call<Hex>('eth_call', [{ to: TOKEN_READER_ADDRESS, data: encodeTokenRead(wallet, items) }, 'latest', { [TOKEN_READER_ADDRESS]: { code: TOKEN_READER_CODE } }]);
    expect(decodeTokenRead(answer, 5)).toEqual([
      { ok: false, data: '0x08c379a0' },
      { ok: true, data: word(7n) },
      { ok: true, data: name },
      { ok: false, data: '0x' },
      { ok: false, data: '0x' },
    ]);
  });
});
