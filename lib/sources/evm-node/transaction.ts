import 'server-only';
import type { Hex } from 'viem';
import type { Chain } from '@/lib/chains';
import { toInterfaceDecoded } from '@/lib/decode';
import { LanternError } from '@/lib/errors';
import type { TransactionDetail, TxLog } from '@/lib/interface/transaction';
import { decodeTransaction } from './decode';
import type { RawLog } from './logs';
import { headBlock, reorgDepth, rpc } from './rpc';
import { blockTimestamp, txFactsMany } from './tx-facts';
import { devnetLabel } from '@/lib/devnet/scenario-labels';

/**
 * One transaction in the hosted API's transaction shape, read from the node: eth_getTransactionByHash,
 * its receipt and block time; the call tree from the facts the history keeps (tx-facts: callTracer or
 * trace_transaction). `verbose` names the call and the logs with the decoder (./decode.ts: exact ABIs,
 * proxies resolved, the shipped signature table, looked-up signatures); what it cannot name exactly is
 * `null`. While a verified ABI or a signature is still being fetched the answer is not final (cached 5 s).
 */

interface RpcTx {
  hash: string; blockNumber: Hex | null; blockHash: string | null; transactionIndex: Hex | null; from: string; to: string | null;
  value: Hex; nonce: Hex; gas: Hex; gasPrice?: Hex; input: Hex;
}
interface RpcReceipt {
  status: Hex; gasUsed: Hex; cumulativeGasUsed: Hex; effectiveGasPrice?: Hex; contractAddress: string | null; root?: string; logs: RawLog[];
}

const dec = (h: Hex | string | null | undefined) => (h ? BigInt(h).toString() : '0');
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
  const decoding = opts.verbose ? await decodeTransaction(chain.id, { to: tx.to?.toLowerCase() ?? null, input: tx.input, logs: receipt.logs }) : null;
  const logs: TxLog[] = receipt.logs.map((l, i) => ({
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
    ...(decoding ? { decoded_event: toInterfaceDecoded(decoding.logs[i]) } : {}),
  }));
  const detail: TransactionDetail = {
    hash: tx.hash.toLowerCase(),
    nonce: dec(tx.nonce),
    transaction_index: dec(tx.transactionIndex),
    from_address: tx.from.toLowerCase(),
    from_address_label: devnetLabel(chain.id, tx.from),
    to_address: tx.to ? tx.to.toLowerCase() : null,
    to_address_label: devnetLabel(chain.id, tx.to),
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
    ...(decoding ? { decoded_call: toInterfaceDecoded(decoding.call) } : {}),
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
  return { tx: detail, final: blockNumber <= finalBlock && !decoding?.pending };
}
