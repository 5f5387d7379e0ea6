import type { TransactionDetail, InternalTx } from '@/lib/interface/transaction';

/**
 * What the transaction page shows, derived from the transaction answer alone (so node and hosted mode
 * show the same): the token and NFT movements read from its decoded standard-token logs, the native
 * movements (top-level value and internal calls that moved value and did not revert), and the call tree.
 */

export interface TokenMove {
  kind: 'erc20' | 'erc721' | 'erc1155';
  token: string;
  from: string;
  to: string;
  /** Raw amount (ERC-20 base units, ERC-1155 count; 1 for ERC-721). */
  amount: string;
  tokenId: string | null;
  logIndex: string;
}

export interface NativeMove {
  from: string;
  to: string;
  value: string;
  internal: boolean;
}

export interface CallNode {
  call: InternalTx;
  children: CallNode[];
}

const lower = (s: string) => s.toLowerCase();

/**
 * Token movements read from decoded standard-token logs by name, types and position, not by parameter
 * name: a verified ABI may call them `src`, `dst`, `wad` (WETH9). An ERC-721 Transfer is the one with its
 * token id in a topic (or, where a source sends no topics, a third parameter named so).
 */
export function tokenMoves(tx: TransactionDetail): TokenMove[] {
  const out: TokenMove[] = [];
  for (const log of tx.logs) {
    const e = log.decoded_event;
    if (!e) continue;
    const v = (i: number) => e.params[i]?.value ?? '';
    const shape = `${e.label}(${e.params.map((p) => p.type).join(',')})`;
    const base = { token: lower(log.address), logIndex: log.log_index };
    if (shape === 'Transfer(address,address,uint256)' && (log.topic3 || /^(tokenId|id)$/.test(e.params[2].name))) {
      out.push({ ...base, kind: 'erc721', from: lower(v(0)), to: lower(v(1)), amount: '1', tokenId: v(2) });
    } else if (shape === 'Transfer(address,address,uint256)') {
      out.push({ ...base, kind: 'erc20', from: lower(v(0)), to: lower(v(1)), amount: v(2), tokenId: null });
    } else if (shape === 'TransferSingle(address,address,address,uint256,uint256)') {
      out.push({ ...base, kind: 'erc1155', from: lower(v(1)), to: lower(v(2)), amount: v(4), tokenId: v(3) });
    } else if (shape === 'TransferBatch(address,address,address,uint256[],uint256[])') {
      const ids = v(3).replace(/^\[|\]$/g, '').split(',').filter(Boolean);
      const values = v(4).replace(/^\[|\]$/g, '').split(',').filter(Boolean);
      ids.forEach((id, i) => out.push({ ...base, kind: 'erc1155', from: lower(v(1)), to: lower(v(2)), amount: values[i] ?? '0', tokenId: id }));
    }
  }
  return out;
}

export function nativeMoves(tx: TransactionDetail): NativeMove[] {
  if (tx.receipt_status === '0') return []; // a reverted transaction moved no value
  const out: NativeMove[] = [];
  if (tx.value !== '0' && tx.to_address) out.push({ from: tx.from_address, to: tx.to_address, value: tx.value, internal: false });
  if (tx.value !== '0' && !tx.to_address && tx.receipt_contract_address) out.push({ from: tx.from_address, to: tx.receipt_contract_address, value: tx.value, internal: false });
  for (const c of tx.internal_transactions ?? []) {
    if (c.value !== '0' && !c.reverted && c.to && c.type !== 'DELEGATECALL') out.push({ from: lower(c.from), to: lower(c.to), value: c.value, internal: true });
  }
  return out;
}

export interface CallTree {
  /**
   * True when every call says its depth (Lantern's own sources do: 1 = called by the transaction), so the
   * nesting is the chain's. False when any does not (the hosted provider's internal_transactions carry
   * no depth): the calls are then a flat list in the source's order, and the page says so rather than
   * guess which call made which.
   */
  nested: boolean;
  nodes: CallNode[];
}

/** The internal calls as a tree when their depths are known, else as a flat list (see CallTree). */
export function callTree(calls: InternalTx[]): CallTree {
  if (!calls.every((c) => typeof c.depth === 'number' && c.depth >= 1)) {
    return { nested: false, nodes: calls.map((call) => ({ call, children: [] })) };
  }
  const roots: CallNode[] = [];
  const stack: CallNode[] = [];
  for (const call of calls) {
    const depth = call.depth!;
    const node: CallNode = { call, children: [] };
    while (stack.length >= depth) stack.pop();
    (stack.length ? stack[stack.length - 1].children : roots).push(node);
    stack.push(node);
  }
  return { nested: true, nodes: roots };
}

export function fee(tx: TransactionDetail): string {
  return (BigInt(tx.receipt_gas_used) * BigInt(tx.gas_price)).toString();
}

