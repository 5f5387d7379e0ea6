import { describe, expect, it } from 'vitest';
import { encodeAbiParameters, encodeEventTopics, parseAbi, type Hex } from 'viem';
import { fromCallTrace, toFacts, type CallTrace, type RpcReceipt, type RpcTx } from '@/lib/sources/evm-node/tx-facts';

// A transaction's facts from the node's own answers: eth_getTransactionByHash and
// eth_getTransactionReceipt as geth/anvil return them (hex quantities), and callTracer trees as
// debug_traceTransaction returns them. Expected values are the JSON-RPC spec's decimal readings.
const ALICE = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const HASH = '0xABCDEF0000000000000000000000000000000000000000000000000000000001';

const tx = (over: Partial<RpcTx> = {}): RpcTx => ({
  hash: HASH, blockNumber: '0x1b4', blockHash: '0xbb00000000000000000000000000000000000000000000000000000000000000', transactionIndex: '0x3', type: '0x2',
  from: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', to: TOKEN, value: '0xde0b6b3a7640000', nonce: '0x11', gas: '0x186a0',
  gasPrice: '0x3b9aca00', input: '0xA9059CBB000000000000000000000000', ...over,
});
const receipt = (over: Partial<RpcReceipt> = {}): RpcReceipt => ({
  status: '0x1', gasUsed: '0xc350', cumulativeGasUsed: '0x1d4c0', effectiveGasPrice: '0x77359400', contractAddress: null, logs: [], ...over,
});

describe('toFacts', () => {
  it('reads quantities as decimals, addresses lower-case, the selector as the input\'s first four bytes', () => {
    const f = toFacts({ tx: tx(), receipt: receipt() }, 1_700_000_000, null);
    expect(f).toEqual({
      hash: HASH.toLowerCase(), blockNumber: 436, blockHash: tx().blockHash, timestamp: 1_700_000_000, txIndex: 3, type: '2',
      from: ALICE, to: TOKEN.toLowerCase(), value: '1000000000000000000', nonce: '17', gas: '100000',
      // The price paid is the receipt's effectiveGasPrice (EIP-1559), not the transaction's gasPrice.
      gasPrice: '2000000000', selector: '0xa9059cbb', status: 1, gasUsed: '50000', cumulativeGasUsed: '120000',
      contractAddress: null, erc20: [], nft: [], calls: null,
    });
  });

  it('a legacy receipt without effectiveGasPrice pays the transaction gasPrice; neither is 0', () => {
    expect(toFacts({ tx: tx(), receipt: receipt({ effectiveGasPrice: undefined }) }, 0, null).gasPrice).toBe('1000000000');
    expect(toFacts({ tx: tx({ gasPrice: undefined }), receipt: receipt({ effectiveGasPrice: undefined }) }, 0, null).gasPrice).toBe('0');
  });

  it('a failed creation: status 0, no recipient, the created address lower-case, no selector, no type when the node gives none', () => {
    const f = toFacts({ tx: tx({ to: null, input: '0x6080', type: undefined }), receipt: receipt({ status: '0x0', contractAddress: TOKEN }) }, 0, []);
    expect([f.status, f.to, f.contractAddress, f.selector, f.type, f.calls]).toEqual([0, null, TOKEN.toLowerCase(), null, null, []]);
    // Exactly four bytes of input is a selector; fewer is not.
    expect(toFacts({ tx: tx({ input: '0x12345678' }), receipt: receipt() }, 0, null).selector).toBe('0x12345678');
    expect(toFacts({ tx: tx({ input: '0x123456' }), receipt: receipt() }, 0, null).selector).toBeNull();
    expect(toFacts({ tx: tx({ type: '0x0' }), receipt: receipt() }, 0, null).type).toBe('0');
  });

  it("the receipt's Transfer logs become the transaction's token movements, in log order", () => {
    const abi = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)']);
    const topics = encodeEventTopics({ abi, eventName: 'Transfer', args: { from: ALICE, to: TOKEN } }) as Hex[];
    const raw = (logIndex: Hex, extra: Hex[] = []) => ({
      address: TOKEN, topics: [...topics, ...extra], data: encodeAbiParameters([{ type: 'uint256' }], [5n]),
      blockNumber: '0x1b4' as Hex, transactionHash: HASH as Hex, transactionIndex: '0x3' as Hex, logIndex,
    });
    const nftId = `0x${'0'.repeat(62)}2a` as Hex;
    const f = toFacts({ tx: tx(), receipt: receipt({ logs: [raw('0x0'), { ...raw('0x1', [nftId]), data: '0x' }, raw('0x2')] }) }, 0, null);
    expect(f.erc20.map((m) => [m.from, m.to, m.value, m.logIndex])).toEqual([
      [ALICE, TOKEN.toLowerCase(), '5', 0],
      [ALICE, TOKEN.toLowerCase(), '5', 2],
    ]);
    expect(f.nft.map((m) => [m.standard, m.tokenId, m.logIndex])).toEqual([['erc721', '42', 1]]);
  });
});

describe('fromCallTrace', () => {
  it('the frames below the top one, in execution order, with their depth; a failed frame reverts its subtree', () => {
    const root: CallTrace = {
      type: 'CALL', from: ALICE, to: TOKEN, value: '0x0', gas: '0x5208', gasUsed: '0x5208', input: '0x',
      calls: [
        {
          type: 'call', from: TOKEN, to: '0x00000000000000000000000000000000000000Aa', value: '0xa', gas: '0x10', gasUsed: '0x8', input: '0x01', output: '0x02', error: 'execution reverted',
          calls: [{ type: 'CREATE2', from: '0x00000000000000000000000000000000000000aa', to: '0x00000000000000000000000000000000000000cc', value: '0x1' }],
        },
        { type: 'SELFDESTRUCT', from: TOKEN, to: ALICE, value: '0x64' },
        { type: 'STATICCALL', from: TOKEN, input: '0x' },
      ],
    };
    expect(fromCallTrace(root)).toEqual([
      { type: 'CALL', from: TOKEN.toLowerCase(), to: '0x00000000000000000000000000000000000000aa', value: '10', gas: '16', gasUsed: '8', input: '0x01', output: '0x02', depth: 1, reverted: true },
      { type: 'CREATE2', from: '0x00000000000000000000000000000000000000aa', to: '0x00000000000000000000000000000000000000cc', value: '1', gas: null, gasUsed: null, input: '0x', output: null, depth: 2, reverted: true },
      { type: 'SELFDESTRUCT', from: TOKEN.toLowerCase(), to: ALICE, value: '100', gas: null, gasUsed: null, input: '0x', output: null, depth: 1, reverted: false },
      { type: 'STATICCALL', from: TOKEN.toLowerCase(), to: null, value: '0', gas: null, gasUsed: null, input: '0x', output: null, depth: 1, reverted: false },
    ]);
  });

  it('a top frame that failed reverts every frame below it; a plain transfer has none', () => {
    const frames = fromCallTrace({ type: 'CALL', from: ALICE, to: TOKEN, error: 'out of gas', calls: [{ type: 'CALL', from: TOKEN, to: ALICE, value: '0x1' }] });
    expect(frames.map((f) => f.reverted)).toEqual([true]);
    expect(fromCallTrace({ type: 'CALL', from: ALICE, to: TOKEN, value: '0x1' })).toEqual([]);
  });
});
