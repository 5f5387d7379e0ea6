import { describe, expect, it } from 'vitest';
import { encodeAbiParameters, encodeEventTopics, parseAbi, type Hex } from 'viem';
import { getLogsRange, getLogsWindow, transferFilters } from '@/lib/sources/evm-node/logs';
import { FakeChain, freshChainId, NODE_TIMEOUT, onChain, RpcError, type FakeLog } from '../../support/fake-evm-node';

// eth_getLogs in block spans against a node (tests/support/fake-evm-node.ts) that filters logs as the
// JSON-RPC spec says (block range inclusive, topics by position, null matches any, a list any of) and
// refuses ranges wider than a limit in a hosted provider's words. The logs expected are the ERC-20
// Transfer events naming the wallet as `from` or `to`; the spans asked are read from the node's call log.
const WALLET = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const OTHER = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc';
const TOKEN = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const erc20 = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)']);
const transfer = (from: string, to: string, value: bigint): FakeLog => ({
  address: TOKEN,
  topics: encodeEventTopics({ abi: erc20, eventName: 'Transfer', args: { from: from as Hex, to: to as Hex } }) as Hex[],
  data: encodeAbiParameters([{ type: 'uint256' }], [value]),
});


async function onNode(build: (c: FakeChain) => void, fn: (c: FakeChain) => Promise<void>) {
  const c = new FakeChain(freshChainId());
  build(c);
  await onChain(c, fn);
}
const ranges = (c: FakeChain) => [...new Set(c.calls.filter((x) => x.method === 'eth_getLogs').map((x) => { const f = x.params[0] as { fromBlock: Hex; toBlock: Hex }; return `${Number(f.fromBlock)}-${Number(f.toBlock)}`; }))];
const summary = (logs: { blockNumber: Hex; logIndex: Hex; transactionHash: string }[]) => logs.map((l) => `${Number(l.blockNumber)}:${Number(l.logIndex)}`).sort();

/** Transfers in blocks 3 (to the wallet), 5 (from it to itself, and one between others), 9 (from it); 20 blocks. */
function wallet(c: FakeChain) {
  c.mineTo(2);
  c.mine([{ from: OTHER, to: TOKEN, logs: [transfer(OTHER, WALLET, 5n)] }]);
  c.mine();
  c.mine([{ from: WALLET, to: TOKEN, logs: [transfer(OTHER, TOKEN, 1n), transfer(WALLET, WALLET, 2n)] }]);
  c.mineTo(8);
  c.mine([{ from: WALLET, to: TOKEN, logs: [transfer(WALLET, OTHER, 3n)] }]);
  c.mineTo(20);
}

describe('getLogsRange', NODE_TIMEOUT, () => {
  it("finds every Transfer naming the wallet once (a self-transfer matches two filters), with the node's whole range in one span", () =>
    onNode(wallet, async (c) => {
      const logs = await getLogsRange(c.chainId, transferFilters(WALLET), 0, 20);
      expect(summary(logs)).toEqual(['3:0', '5:1', '9:0']);
      expect(ranges(c)).toEqual(['0-20']);
      expect(c.count('eth_getLogs')).toBe(3); // one scan per topic position the wallet can take
      // A range inside: the ends are inclusive.
      expect(summary(await getLogsRange(c.chainId, transferFilters(WALLET), 5, 9))).toEqual(['5:1', '9:0']);
      expect(summary(await getLogsRange(c.chainId, transferFilters(WALLET), 6, 8))).toEqual([]);
      // An empty range asks nothing.
      c.calls.length = 0;
      expect(await getLogsRange(c.chainId, transferFilters(WALLET), 10, 9)).toEqual([]);
      expect(c.calls).toEqual([]);
    }));

  it('the contract filter is passed to the node', () =>
    onNode(wallet, async (c) => {
      expect(summary(await getLogsRange(c.chainId, [[null]], 0, 20, { address: TOKEN }))).toEqual(['3:0', '5:0', '5:1', '9:0']);
      expect(await getLogsRange(c.chainId, [[null]], 0, 20, { address: OTHER })).toEqual([]);
      expect((c.calls[c.calls.length - 1]!.params[0] as { address?: string }).address).toBe(OTHER);
    }));

  it('a stated range limit splits the range to it, and holds for later calls on that chain', () =>
    onNode(wallet, async (c) => {
      c.logRangeLimit = 6;
      const logs = await getLogsRange(c.chainId, transferFilters(WALLET), 0, 20);
      expect(summary(logs)).toEqual(['3:0', '5:1', '9:0']);
      expect(ranges(c)).toEqual(['0-20', '0-5', '6-11', '12-17', '18-20']);
      c.calls.length = 0;
      await getLogsRange(c.chainId, transferFilters(WALLET), 0, 13);
      expect(ranges(c)).toEqual(['0-5', '6-11', '12-13']);
    }));

  it('a refusal without a limit quarters the span, and a span that succeeds lets the next double', () =>
    onNode(wallet, async (c) => {
      c.overrides.set('eth_getLogs', (params) => {
        const f = params[0] as { fromBlock: Hex; toBlock: Hex };
        if (Number(f.toBlock) - Number(f.fromBlock) + 1 > 5) throw new RpcError(-32000, 'block range is too wide');
        return c.model('eth_getLogs', params);
      });
      const logs = await getLogsRange(c.chainId, transferFilters(WALLET), 0, 20);
      expect(summary(logs)).toEqual(['3:0', '5:1', '9:0']);
      // More than 5 blocks refused. 21 refused: a quarter, 5; served, so 10: refused, 2; served, 4; served, 8: refused, 2; 4; 8 (4 left).
      expect(ranges(c)).toEqual(['0-20', '0-4', '5-14', '5-6', '7-10', '11-18', '11-12', '13-16', '17-20']);
    }));

  it('a result-count refusal halves the span', () =>
    onNode(wallet, async (c) => {
      let refused = false;
      c.overrides.set('eth_getLogs', (params) => {
        if (!refused) {
          refused = true;
          throw new RpcError(-32005, 'query returned more than 10000 results');
        }
        return c.model('eth_getLogs', params);
      });
      expect(summary(await getLogsRange(c.chainId, transferFilters(WALLET), 0, 19))).toEqual(['3:0', '5:1', '9:0']);
      expect(ranges(c)).toEqual(['0-19', '0-9', '10-19']);
    }));

  it('logs the node marks removed (a reorg) are left out', () =>
    onNode(wallet, async (c) => {
      c.overrides.set('eth_getLogs', (params) => (c.model('eth_getLogs', params) as { blockNumber: Hex; removed: boolean }[]).map((l) => ({ ...l, removed: Number(l.blockNumber) === 3 })));
      expect(summary(await getLogsRange(c.chainId, transferFilters(WALLET), 0, 20))).toEqual(['5:1', '9:0']);
    }));

  it('a single block refused, or an error that is not a refusal, fails the call', () =>
    onNode(wallet, async (c) => {
      c.logRangeLimit = 0;
      await expect(getLogsRange(c.chainId, transferFilters(WALLET), 4, 4)).rejects.toThrow(/exceeds limit of 0/);
      c.overrides.set('eth_getLogs', () => {
        throw new RpcError(-32601, 'the method eth_getLogs does not exist/is not available');
      });
      await expect(getLogsRange(c.chainId, transferFilters(WALLET), 0, 20)).rejects.toThrow(/does not exist/);
      expect(ranges(c)).toEqual(['4-4', '0-20']);
    }));
});

describe('getLogsWindow', NODE_TIMEOUT, () => {
  const never = () => false;

  it('desc: from the top down, the reached block and the transactions found; stops once enough', () =>
    onNode(wallet, async (c) => {
      const all = await getLogsWindow(c.chainId, transferFilters(WALLET), 1, 20, 'desc', never);
      expect(summary(all.logs)).toEqual(['3:0', '5:1', '9:0']);
      expect(all.reached).toBe(1);
      expect(ranges(c)).toEqual(['1-20']);
      // Enough once two transactions are found, with spans a node limit of 4 blocks makes small.
      c.calls.length = 0;
      c.logRangeLimit = 4;
      const seen: [number, number][] = [];
      const part = await getLogsWindow(c.chainId, transferFilters(WALLET), 1, 20, 'desc', (reached, txs) => {
        seen.push([reached, txs.size]);
        return txs.size >= 2;
      });
      expect(seen).toEqual([[17, 0], [13, 0], [9, 1], [5, 2]]);
      expect(part.reached).toBe(5);
      expect(summary(part.logs)).toEqual(['5:1', '9:0']);
      expect(ranges(c)).toEqual(['1-20', '17-20', '13-16', '9-12', '5-8']);
    }));

  it('asc: from the bottom up, the mirror', () =>
    onNode(wallet, async (c) => {
      c.logRangeLimit = 4;
      const seen: number[] = [];
      const part = await getLogsWindow(c.chainId, transferFilters(WALLET), 2, 20, 'asc', (reached, txs) => {
        seen.push(reached);
        return txs.size >= 3;
      });
      expect(seen).toEqual([5, 9]);
      expect(part.reached).toBe(9);
      expect(summary(part.logs)).toEqual(['3:0', '5:1', '9:0']);
      expect(ranges(c)).toEqual(['2-20', '2-5', '6-9']);
      const whole = await getLogsWindow(c.chainId, transferFilters(WALLET), 2, 20, 'asc', never);
      expect(whole.reached).toBe(20);
      expect(summary(whole.logs)).toEqual(['3:0', '5:1', '9:0']);
    }));

  it('spans start at 2,000 blocks and grow four times per call, up to the whole window', () =>
    onNode((c) => c.mineTo(20_000), async (c) => {
      const down = await getLogsWindow(c.chainId, transferFilters(WALLET), 1, 20_000, 'desc', never);
      expect(down).toEqual({ logs: [], reached: 1 });
      expect(ranges(c)).toEqual(['18001-20000', '10001-18000', '1-10000']);
      c.calls.length = 0;
      await getLogsWindow(c.chainId, transferFilters(WALLET), 1, 20_000, 'asc', never);
      expect(ranges(c)).toEqual(['1-2000', '2001-10000', '10001-20000']);
      // A window of one block, and an empty one.
      c.calls.length = 0;
      expect(await getLogsWindow(c.chainId, transferFilters(WALLET), 7, 7, 'desc', never)).toEqual({ logs: [], reached: 7 });
      expect(await getLogsWindow(c.chainId, transferFilters(WALLET), 8, 7, 'asc', never)).toEqual({ logs: [], reached: 7 });
      // An empty window reports the end it would have started from, each way.
      expect(await getLogsWindow(c.chainId, transferFilters(WALLET), 8, 7, 'desc', never)).toEqual({ logs: [], reached: 8 });
      expect(ranges(c)).toEqual(['7-7']);
    }));

  it('a refusal without a stated limit, far from block 0: the span refused is quartered, then grows again', () =>
    onNode((c) => c.mineTo(20_000), async (c) => {
      c.overrides.set('eth_getLogs', (params) => {
        const f = params[0] as { fromBlock: Hex; toBlock: Hex };
        if (Number(f.toBlock) - Number(f.fromBlock) + 1 > 500) throw new RpcError(-32000, 'block range is too wide');
        return c.model('eth_getLogs', params);
      });
      let reads = 0;
      const w = await getLogsWindow(c.chainId, transferFilters(WALLET), 1, 20_000, 'desc', () => ++reads >= 3);
      // 2,000 refused: a quarter, 500, served; 2,000 refused again, 500; and once more.
      expect(ranges(c)).toEqual(['18001-20000', '19501-20000', '17501-19500', '19001-19500', '17001-19000', '18501-19000']);
      expect(w.reached).toBe(18501);
    }));

  it('removed logs are left out; a transaction counts once however many of its logs match', () =>
    onNode(wallet, async (c) => {
      c.overrides.set('eth_getLogs', (params) => (c.model('eth_getLogs', params) as { blockNumber: Hex; removed: boolean }[]).map((l) => ({ ...l, removed: Number(l.blockNumber) === 9 })));
      const sizes: number[] = [];
      const w = await getLogsWindow(c.chainId, [[null]], 1, 20, 'desc', (_, txs) => (sizes.push(txs.size), false));
      expect(summary(w.logs)).toEqual(['3:0', '5:0', '5:1']);
      expect(sizes).toEqual([2]);
    }));

  it('a refusal that cannot be split fails the window', () =>
    onNode(wallet, async (c) => {
      c.overrides.set('eth_getLogs', () => {
        throw new RpcError(-32601, 'the method eth_getLogs does not exist/is not available');
      });
      await expect(getLogsWindow(c.chainId, transferFilters(WALLET), 1, 20, 'desc', never)).rejects.toThrow(/does not exist/);
    }));
});
