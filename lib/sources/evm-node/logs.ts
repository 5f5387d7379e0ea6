import 'server-only';
import { decodeAbiParameters, keccak256, toHex, type Hex } from 'viem';
import { hexNum, rpc } from './rpc';

/** Transfer events of ERC-20/721 (same topic; 721 indexes the token id, so it has 4 topics) and ERC-1155. */
export const TOPIC_TRANSFER = keccak256(toHex('Transfer(address,address,uint256)'));
export const TOPIC_SINGLE = keccak256(toHex('TransferSingle(address,address,address,uint256,uint256)'));
export const TOPIC_BATCH = keccak256(toHex('TransferBatch(address,address,address,uint256[],uint256[])'));
export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';
export const ZERO_TOPIC = `0x${'0'.repeat(64)}` as Hex;

export const topicAddress = (t: Hex | string) => `0x${t.slice(26)}`.toLowerCase();
export const addressTopic = (a: string) => `0x${'0'.repeat(24)}${a.slice(2).toLowerCase()}` as Hex;

export interface RawLog {
  address: string;
  topics: Hex[];
  data: Hex;
  blockNumber: Hex;
  transactionHash: Hex;
  transactionIndex: Hex;
  logIndex: Hex;
  removed?: boolean;
}

export interface Erc20Move {
  token: string;
  from: string;
  to: string;
  value: string;
  logIndex: number;
}

export interface NftMove {
  token: string;
  standard: 'erc721' | 'erc1155';
  operator: string | null;
  from: string;
  to: string;
  tokenId: string;
  amount: string;
  logIndex: number;
}

/** Token movements of one log (a batch gives several), or none when it is not a transfer. */
export function parseTransferLog(log: Pick<RawLog, 'address' | 'topics' | 'data' | 'logIndex'>): { erc20?: Erc20Move; nft?: NftMove[] } {
  const [t0, t1, t2, t3] = log.topics;
  const token = log.address.toLowerCase();
  const logIndex = Number(log.logIndex);
  try {
    if (t0 === TOPIC_TRANSFER && log.topics.length === 3) {
      return { erc20: { token, from: topicAddress(t1), to: topicAddress(t2), value: log.data === '0x' ? '0' : BigInt(log.data.slice(0, 66)).toString(), logIndex } };
    }
    if (t0 === TOPIC_TRANSFER && log.topics.length === 4) {
      return { nft: [{ token, standard: 'erc721', operator: null, from: topicAddress(t1), to: topicAddress(t2), tokenId: BigInt(t3).toString(), amount: '1', logIndex }] };
    }
    if (t0 === TOPIC_SINGLE && log.topics.length === 4) {
      const [id, value] = decodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], log.data);
      return { nft: [{ token, standard: 'erc1155', operator: topicAddress(t1), from: topicAddress(t2), to: topicAddress(t3), tokenId: id.toString(), amount: value.toString(), logIndex }] };
    }
    if (t0 === TOPIC_BATCH && log.topics.length === 4) {
      const [ids, values] = decodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint256[]' }], log.data);
      return {
        nft: ids.map((id, k) => ({
          token, standard: 'erc1155' as const, operator: topicAddress(t1), from: topicAddress(t2), to: topicAddress(t3),
          tokenId: id.toString(), amount: (values[k] ?? 0n).toString(), logIndex,
        })),
      };
    }
  } catch {
    // a malformed event from a contract that merely reuses the topic: not a transfer we can read
  }
  return {};
}

/**
 * The four filters that find every transfer log touching `address`: Transfer (ERC-20 and ERC-721)
 * with the address as sender or recipient, TransferSingle/TransferBatch likewise (their sender and
 * recipient are topics 2 and 3; topic 1 is the operator).
 */
export function transferFilters(address: string): (Hex | Hex[] | null)[][] {
  const a = addressTopic(address);
  const both: Hex[] = [TOPIC_SINGLE, TOPIC_BATCH];
  return [
    [TOPIC_TRANSFER, a],
    [TOPIC_TRANSFER, null, a],
    [both, null, a],
    [both, null, null, a],
  ];
}

const INITIAL_SPAN = 100_000;

/**
 * eth_getLogs over [from, to] for each filter, in block spans that halve when the node refuses a range
 * (result-size or range limits) and grow back after a success. Deduplicated by (tx hash, log index).
 */
export async function getLogsRange(filters: (Hex | Hex[] | null)[][], from: number, to: number, extra: { address?: string } = {}): Promise<RawLog[]> {
  const seen = new Map<string, RawLog>();
  let span = INITIAL_SPAN;
  for (let start = from; start <= to; ) {
    const end = Math.min(to, start + span - 1);
    let batch: RawLog[][];
    try {
      batch = await Promise.all(
        filters.map((topics) => rpc<RawLog[]>('eth_getLogs', [{ ...extra, fromBlock: hexNum(start), toBlock: hexNum(end), topics }])),
      );
    } catch (e) {
      if (span > 100) {
        span = Math.floor(span / 4);
        continue;
      }
      throw e;
    }
    for (const logs of batch) for (const l of logs) if (!l.removed) seen.set(`${l.transactionHash}:${l.logIndex}`, l);
    start = end + 1;
    span = Math.min(INITIAL_SPAN, span * 2);
  }
  return [...seen.values()];
}
