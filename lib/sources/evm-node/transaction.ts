import 'server-only';
import { decodeEventLog, decodeFunctionData, parseAbi, type Hex } from 'viem';
import type { Chain } from '@/lib/chains';
import { LanternError } from '@/lib/errors';
import type { Decoded, TransactionDetail, TxLog } from '@/lib/interface/transaction';
import type { RawLog } from './logs';
import { headBlock, reorgDepth, rpc } from './rpc';
import { blockTimestamp, txFactsMany } from './tx-facts';

/**
 * One transaction in the hosted API's transaction shape, read from the node: eth_getTransactionByHash,
 * its receipt and block time; the call tree from the facts the history keeps (tx-facts: callTracer or
 * trace_transaction). `verbose` decodes the call and the logs of the standard token interfaces (ERC-20,
 * ERC-721, ERC-1155): a log is decoded only when its topics and data fit one of them exactly.
 */

const TOKEN_EVENTS = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
  'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
  'event ApprovalForAll(address indexed owner, address indexed operator, bool approved)',
]);
const NFT_EVENTS = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
  'event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId)',
]);
const TOKEN_CALLS = parseAbi([
  'function transfer(address to, uint256 value)',
  'function approve(address spender, uint256 value)',
  'function transferFrom(address from, address to, uint256 value)',
  'function safeTransferFrom(address from, address to, uint256 tokenId)',
  'function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes data)',
  'function safeBatchTransferFrom(address from, address to, uint256[] ids, uint256[] values, bytes data)',
  'function setApprovalForAll(address operator, bool approved)',
  'function mint(address to, uint256 value)',
  'function burn(uint256 value)',
]);

interface RpcTx {
  hash: string; blockNumber: Hex | null; blockHash: string | null; transactionIndex: Hex | null; from: string; to: string | null;
  value: Hex; nonce: Hex; gas: Hex; gasPrice?: Hex; input: Hex;
}
interface RpcReceipt {
  status: Hex; gasUsed: Hex; cumulativeGasUsed: Hex; effectiveGasPrice?: Hex; contractAddress: string | null; root?: string; logs: RawLog[];
}

const dec = (h: Hex | string | null | undefined) => (h ? BigInt(h).toString() : '0');
const show = (v: unknown): string => (Array.isArray(v) ? `[${v.map(show).join(',')}]` : String(v));

function decoded(kind: 'event' | 'function', name: string, inputs: readonly { name?: string; type: string }[], args: unknown): Decoded {
  const values = Array.isArray(args) ? args : inputs.map((i) => (args as Record<string, unknown>)[i.name ?? '']);
  return {
    signature: `${name}(${inputs.map((i) => i.type).join(',')})`,
    label: name,
    type: kind,
    params: inputs.map((input, i) => ({ name: input.name ?? String(i), value: show(values[i]), type: input.type })),
  };
}

export function decodeLog(log: Pick<RawLog, 'topics' | 'data'>): Decoded | null {
  for (const abi of [TOKEN_EVENTS, NFT_EVENTS]) {
    try {
      const e = decodeEventLog({ abi, topics: log.topics as [Hex, ...Hex[]], data: log.data, strict: true });
      const item = abi.find((x) => x.name === e.eventName && x.inputs.filter((i) => (i as { indexed?: boolean }).indexed).length === log.topics.length - 1);
      if (!item) continue;
      return decoded('event', e.eventName, item.inputs, e.args);
    } catch {
      // not this interface
    }
  }
  return null;
}

export function decodeCall(input: Hex): Decoded | null {
  if (input.length < 10) return null;
  try {
    const c = decodeFunctionData({ abi: TOKEN_CALLS, data: input });
    const item = TOKEN_CALLS.find((x) => x.name === c.functionName && x.inputs.length === (c.args?.length ?? 0))!;
    return decoded('function', c.functionName, item.inputs, c.args ?? []);
  } catch {
    return null;
  }
}

export async function nodeTransaction(hash: string, chain: Chain, opts: { verbose: boolean; internal: boolean }): Promise<{ tx: TransactionDetail; final: boolean }> {
  const tx = await rpc<RpcTx | null>(chain.id, 'eth_getTransactionByHash', [hash]);
  if (!tx) throw new LanternError(404, 'transaction_not_found', `No transaction ${hash} on ${chain.label}: the node does not know this hash.`);
  if (!tx.blockNumber || !tx.blockHash) {
    throw new LanternError(404, 'transaction_pending', `Transaction ${hash} is pending on ${chain.label}: it is not in a block yet.`);
  }
  const receipt = await rpc<RpcReceipt | null>(chain.id, 'eth_getTransactionReceipt', [hash]);
  if (!receipt) throw new LanternError(404, 'transaction_pending', `Transaction ${hash} is pending on ${chain.label}: it has no receipt yet.`);
  const blockNumber = Number(tx.blockNumber);
  const head = await headBlock(chain.id);
  const finalBlock = head - reorgDepth();
  const time = new Date((await blockTimestamp(chain.id, blockNumber)) * 1000).toISOString();
  const logs: TxLog[] = receipt.logs.map((l) => ({
    log_index: dec(l.logIndex),
    transaction_hash: tx.hash.toLowerCase(),
    transaction_index: dec(tx.transactionIndex),
    address: l.address.toLowerCase(),
    data: l.data,
    topic0: l.topics[0] ?? null,
    topic1: l.topics[1] ?? null,
    topic2: l.topics[2] ?? null,
    topic3: l.topics[3] ?? null,
    block_timestamp: time,
    block_number: String(blockNumber),
    block_hash: tx.blockHash!,
    transaction_value: dec(tx.value),
    ...(opts.verbose ? { decoded_event: decodeLog(l) } : {}),
  }));
  const detail: TransactionDetail = {
    hash: tx.hash.toLowerCase(),
    nonce: dec(tx.nonce),
    transaction_index: dec(tx.transactionIndex),
    from_address: tx.from.toLowerCase(),
    from_address_label: null,
    to_address: tx.to ? tx.to.toLowerCase() : null,
    to_address_label: null,
    value: dec(tx.value),
    gas: dec(tx.gas),
    gas_price: dec(receipt.effectiveGasPrice ?? tx.gasPrice),
    input: tx.input,
    receipt_cumulative_gas_used: dec(receipt.cumulativeGasUsed),
    receipt_gas_used: dec(receipt.gasUsed),
    receipt_contract_address: receipt.contractAddress ? receipt.contractAddress.toLowerCase() : null,
    receipt_root: receipt.root ?? null,
    receipt_status: String(Number(receipt.status)),
    block_timestamp: time,
    block_number: String(blockNumber),
    block_hash: tx.blockHash,
    logs,
    ...(opts.verbose ? { decoded_call: decodeCall(tx.input) } : {}),
  };
  if (opts.internal) {
    const facts = (await txFactsMany(chain.id, [detail.hash], finalBlock)).get(detail.hash);
    detail.internal_transactions = (facts?.calls ?? []).map((c) => ({
      transaction_hash: detail.hash,
      block_number: detail.block_number,
      block_hash: detail.block_hash,
      type: c.type,
      from: c.from,
      to: c.to,
      value: c.value,
      gas: c.gas,
      gas_used: c.gasUsed,
      input: c.input,
      output: c.output,
      depth: c.depth,
      reverted: c.reverted,
    }));
  }
  return { tx: detail, final: blockNumber <= finalBlock };
}
