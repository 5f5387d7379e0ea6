import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import type { InternalTx, TransactionDetail, TxLog } from '../../../lib/interface/transaction';
import { callTree, fee, nativeMoves, tokenMoves, type CallNode } from '../../../lib/view/tx-page';

// The transaction page's derived views (lib/view/tx-page.ts): what it lists as calls, token and native
// movements, and the fee, from the transaction answer alone.

const A = '0x' + 'aa'.repeat(20);
const B = '0x' + 'bb'.repeat(20);
const C = '0x' + 'cc'.repeat(20);
const TOKEN = '0x' + '11'.repeat(20);
const H = '0x' + '99'.repeat(32);

const call = (over: Partial<InternalTx> = {}): InternalTx => ({
  transaction_hash: H,
  block_number: '7',
  block_hash: H,
  type: 'CALL',
  from: A,
  to: B,
  value: '0',
  ...over,
});

function tx(over: Partial<TransactionDetail> = {}): TransactionDetail {
  return {
    hash: H,
    nonce: '0',
    transaction_index: '0',
    from_address: A,
    from_address_label: null,
    to_address: B,
    to_address_label: null,
    value: '0',
    gas: '21000',
    gas_price: '1',
    input: '0x',
    receipt_cumulative_gas_used: '21000',
    receipt_gas_used: '21000',
    receipt_contract_address: null,
    receipt_root: null,
    receipt_status: '1',
    block_timestamp: '2026-01-01T00:00:00.000Z',
    block_number: '7',
    block_hash: H,
    logs: [],
    ...over,
  };
}

const log = (index: number, decoded: TxLog['decoded_event'], address = TOKEN): TxLog => ({
  log_index: String(index),
  transaction_hash: H,
  transaction_index: '0',
  address,
  data: '0x',
  topic0: null,
  topic1: null,
  topic2: null,
  topic3: null,
  block_timestamp: '2026-01-01T00:00:00.000Z',
  block_number: '7',
  block_hash: H,
  decoded_event: decoded,
});
const ev = (label: string, params: [string, string, string][]) => ({
  signature: `${label}(...)`,
  label,
  type: 'event',
  params: params.map(([name, type, value]) => ({ name, type, value })),
});

/** Pre-order walk: each node with the depth the tree gives it. */
function walk(nodes: CallNode[], depth = 1, out: [InternalTx, number][] = []): [InternalTx, number][] {
  for (const n of nodes) {
    out.push([n.call, depth]);
    walk(n.children, depth + 1, out);
  }
  return out;
}

/** A valid pre-order depth sequence: starts at 1, each next at most one deeper than the last. */
const depths = fc
  .array(fc.integer({ min: 0, max: 6 }), { maxLength: 40 })
  .map((steps) => steps.reduce<number[]>((acc, s, i) => [...acc, i === 0 ? 1 : Math.max(1, Math.min(acc[i - 1] + 1, s + 1))], []));

describe('callTree', () => {
  test.prop([depths])('with every depth known, the tree puts each call at its depth, in the source order', (ds) => {
    const calls = ds.map((depth, i) => call({ depth, value: String(i) }));
    const t = callTree(calls);
    expect(t.nested).toBe(true);
    expect(walk(t.nodes).map(([c, d]) => [c.value, d])).toEqual(calls.map((c) => [c.value, c.depth]));
  });

  it('a fan-out under one call, and a call made by a nested call', () => {
    const t = callTree([call({ depth: 1, to: B }), call({ depth: 2, from: B, to: C }), call({ depth: 2, from: B, to: A }), call({ depth: 3, from: A, to: C }), call({ depth: 1, to: C })]);
    expect(t.nested).toBe(true);
    expect(t.nodes.map((n) => [n.call.to, n.children.map((c) => [c.call.to, c.children.length])])).toEqual([
      [B, [[C, 0], [A, 1]]],
      [C, []],
    ]);
  });

  test.prop([fc.array(fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }), { minLength: 1, maxLength: 30 })])(
    'when any call lacks a depth (the hosted provider sends none), a flat list in the source order: no nesting is guessed',
    (ds) => {
      fc.pre(ds.some((d) => d === undefined));
      const calls = ds.map((depth, i) => call({ depth, value: String(i) }));
      const t = callTree(calls);
      expect(t.nested).toBe(false);
      expect(t.nodes.map((n) => [n.call.value, n.children.length])).toEqual(calls.map((c) => [c.value, 0]));
    },
  );

  it('no calls: an empty tree', () => {
    expect(callTree([])).toEqual({ nested: true, nodes: [] });
  });
});

describe('tokenMoves', () => {
  it('ERC-20 Transfer, ERC-721 Transfer, TransferSingle and TransferBatch, lowercased, in log order; undecoded logs skipped', () => {
    const t = tx({
      logs: [
        log(0, ev('Transfer', [['from', 'address', A.toUpperCase().replace('0X', '0x')], ['to', 'address', B], ['value', 'uint256', '1500']])),
        log(1, null),
        log(2, ev('Transfer', [['from', 'address', B], ['to', 'address', C], ['tokenId', 'uint256', '42']])),
        log(3, ev('TransferSingle', [['operator', 'address', A], ['from', 'address', A], ['to', 'address', C], ['id', 'uint256', '5'], ['value', 'uint256', '3']])),
        log(4, ev('TransferBatch', [['operator', 'address', A], ['from', 'address', C], ['to', 'address', B], ['ids', 'uint256[]', '[1,2]'], ['values', 'uint256[]', '[10,20]']])),
        log(5, ev('Approval', [['owner', 'address', A], ['spender', 'address', B], ['value', 'uint256', '9']])),
      ],
    });
    expect(tokenMoves(t).map((m) => [m.kind, m.from, m.to, m.amount, m.tokenId, m.logIndex])).toEqual([
      ['erc20', A, B, '1500', null, '0'],
      ['erc721', B, C, '1', '42', '2'],
      ['erc1155', A, C, '3', '5', '3'],
      ['erc1155', C, B, '10', '1', '4'],
      ['erc1155', C, B, '20', '2', '4'],
    ]);
  });

  it("by types and position, whatever an ABI calls the parameters (WETH9's src, dst, wad); a token id in topic 3 is an NFT", () => {
    const weth = log(0, ev('Transfer', [['src', 'address', A], ['dst', 'address', B], ['wad', 'uint256', '7']]));
    const nft = { ...log(1, ev('Transfer', [['a', 'address', B], ['b', 'address', C], ['c', 'uint256', '9']])), topic3: `0x${'0'.repeat(63)}9` };
    expect(tokenMoves(tx({ logs: [weth, nft] })).map((m) => [m.kind, m.from, m.to, m.amount, m.tokenId])).toEqual([
      ['erc20', A, B, '7', null],
      ['erc721', B, C, '1', '9'],
    ]);
  });

  test.prop([fc.array(fc.tuple(fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }), fc.bigInt({ min: 0n, max: 2n ** 256n - 1n })), { maxLength: 12 })])(
    'a TransferBatch of n ids is n moves, each id with its value',
    (pairs) => {
      const t = tx({
        logs: [log(0, ev('TransferBatch', [['operator', 'address', A], ['from', 'address', A], ['to', 'address', B], ['ids', 'uint256[]', `[${pairs.map((p) => p[0]).join(',')}]`], ['values', 'uint256[]', `[${pairs.map((p) => p[1]).join(',')}]`]]))],
      });
      expect(tokenMoves(t).map((m) => [m.tokenId, m.amount])).toEqual(pairs.map(([id, v]) => [String(id), String(v)]));
    },
  );
});

describe('nativeMoves', () => {
  it('the top-level value and every internal call that moved value and did not revert; DELEGATECALL moves nothing', () => {
    const t = tx({
      value: '100',
      internal_transactions: [
        call({ depth: 1, from: B, to: C, value: '60' }),
        call({ depth: 1, from: B, to: A, value: '5', reverted: true }),
        call({ depth: 1, from: B, to: C, value: '7', type: 'DELEGATECALL' }),
        call({ depth: 1, from: B, to: C, value: '0' }),
        call({ depth: 1, from: B, to: null, value: '3', type: 'CREATE' }),
      ],
    });
    expect(nativeMoves(t)).toEqual([
      { from: A, to: B, value: '100', internal: false },
      { from: B, to: C, value: '60', internal: true },
    ]);
  });

  it('a contract creation with value moves it to the created contract; a reverted transaction moves nothing', () => {
    expect(nativeMoves(tx({ to_address: null, receipt_contract_address: C, value: '9' }))).toEqual([{ from: A, to: C, value: '9', internal: false }]);
    expect(nativeMoves(tx({ value: '9', receipt_status: '0', internal_transactions: [call({ value: '1' })] }))).toEqual([]);
  });
});

describe('fee', () => {
  test.prop([fc.bigInt({ min: 0n, max: 30_000_000n }), fc.bigInt({ min: 0n, max: 10n ** 15n })])('fee is gas used times the price paid, exactly', (used, price) => {
    expect(fee(tx({ receipt_gas_used: String(used), gas_price: String(price) }))).toBe(String(used * price));
  });
});
