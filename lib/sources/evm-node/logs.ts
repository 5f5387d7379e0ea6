import 'server-only';
import { decodeAbiParameters, keccak256, toHex, type Hex } from 'viem';
import { LanternError } from '@/lib/errors';
import { RpcMethodError, hexNum, rpc } from './rpc';

/** Transfer events of ERC-20/721 (same topic; 721 indexes the token id, so it has 4 topics) and ERC-1155. */
export const TOPIC_TRANSFER = keccak256(toHex('Transfer(address,address,uint256)'));
export const TOPIC_SINGLE = keccak256(toHex('TransferSingle(address,address,address,uint256,uint256)'));
export const TOPIC_BATCH = keccak256(toHex('TransferBatch(address,address,address,uint256[],uint256[])'));
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
 * The filters that find every transfer log touching `address`: Transfer (ERC-20 and ERC-721) with the
 * address as sender (topic 1) or recipient (topic 2), TransferSingle/TransferBatch likewise (their sender
 * and recipient are topics 2 and 3; topic 1 is the operator). One filter per topic position: a node scans
 * the range once per filter (anvil ~30 ms a filter over 61,000 transactions), so Transfer's recipient and
 * ERC-1155's sender, both topic 2, share one.
 */
export function transferFilters(address: string): (Hex | Hex[] | null)[][] {
  const a = addressTopic(address);
  const both: Hex[] = [TOPIC_SINGLE, TOPIC_BATCH];
  return [
    [TOPIC_TRANSFER, a],
    [[TOPIC_TRANSFER, ...both], null, a],
    [both, null, null, a],
  ];
}

const INITIAL_SPAN = 100_000;
/** Per chain, the widest block range its node accepts, once it has said so (a provider's range limit); shared by the server's bundles. */
const capHolder = globalThis as unknown as { __lanternLogSpanCaps?: Map<number, number> };
const caps = (capHolder.__lanternLogSpanCaps ??= new Map());

/**
 * eth_getLogs over [from, to] for each filter, in block spans. A refused span (hosted providers limit the
 * block range and the number of results) is split: to the range the refusal names when it names one,
 * else in halves (result count) or quarters, down to a single block; a span that succeeds lets the next
 * one double again, up to a range limit the node stated. Only a single block refused, or an error that
 * is not a refusal (node unreachable, breaker open), fails the call. Deduplicated by (tx hash, log index).
 */
export async function getLogsRange(chainId: number, filters: (Hex | Hex[] | null)[][], from: number, to: number, extra: { address?: string } = {}): Promise<RawLog[]> {
  const seen = new Map<string, RawLog>();
  let span = caps.get(chainId) ?? INITIAL_SPAN;
  for (let start = from; start <= to; ) {
    const end = Math.min(to, start + span - 1);
    let batch: RawLog[][];
    try {
      batch = await Promise.all(
        filters.map((topics) => rpc<RawLog[]>(chainId, 'eth_getLogs', [{ ...extra, fromBlock: hexNum(start), toBlock: hexNum(end), topics }])),
      );
    } catch (e) {
      const next = afterRefusal(chainId, e, end - start + 1);
      if (next === null) throw e;
      span = next;
      continue;
    }
    for (const logs of batch) for (const l of logs) if (!l.removed) seen.set(`${l.transactionHash}:${l.logIndex}`, l);
    start = end + 1;
    span = Math.min(caps.get(chainId) ?? INITIAL_SPAN, span * 2);
  }
  return [...seen.values()];
}

/** Blocks in the first eth_getLogs call of a window (then 4 times more per call while it finds too little). */
const WINDOW_FIRST_SPAN = 2_000;

/**
 * eth_getLogs over [lo, hi] for each filter, walked from one end (`desc`: from hi down, `asc`: from lo up)
 * in growing spans, stopping once `enough(reached, txs)` says so: `reached` is the last block scanned
 * (every block between it and the starting end is done) and `txs` the transactions found so far. So a
 * window of a wallet with thousands of token transfers reads only as far as its page needs. Refusals
 * are split as in getLogsRange. Deduplicated by (tx hash, log index).
 */
export async function getLogsWindow(
  chainId: number,
  filters: (Hex | Hex[] | null)[][],
  lo: number,
  hi: number,
  dir: 'asc' | 'desc',
  enough: (reached: number, txs: ReadonlySet<string>) => boolean,
): Promise<{ logs: RawLog[]; reached: number }> {
  const seen = new Map<string, RawLog>();
  const txs = new Set<string>();
  let span = Math.min(caps.get(chainId) ?? INITIAL_SPAN, WINDOW_FIRST_SPAN);
  let reached = dir === 'desc' ? hi + 1 : lo - 1;
  while (dir === 'desc' ? reached > lo : reached < hi) {
    const [start, end] = dir === 'desc' ? [Math.max(lo, reached - span), reached - 1] : [reached + 1, Math.min(hi, reached + span)];
    let batch: RawLog[][];
    try {
      batch = await Promise.all(filters.map((topics) => rpc<RawLog[]>(chainId, 'eth_getLogs', [{ fromBlock: hexNum(start), toBlock: hexNum(end), topics }])));
    } catch (e) {
      const next = afterRefusal(chainId, e, end - start + 1);
      if (next === null) throw e;
      span = next;
      continue;
    }
    for (const logs of batch) {
      for (const l of logs) {
        if (l.removed) continue;
        seen.set(`${l.transactionHash}:${l.logIndex}`, l);
        txs.add(l.transactionHash.toLowerCase());
      }
    }
    reached = dir === 'desc' ? start : end;
    if (enough(reached, txs)) break;
    span = Math.min(caps.get(chainId) ?? INITIAL_SPAN, span * 4);
  }
  return { logs: [...seen.values()], reached: dir === 'desc' ? Math.max(lo, reached) : Math.min(hi, reached) };
}

/** The span to try after `tried` blocks were refused by the chain's node, or null when this error is not a refusal to split. */
export function afterRefusal(chainId: number, e: unknown, tried: number): number | null {
  const timedOut = e instanceof LanternError && e.code === 'upstream_timeout';
  if (tried <= 1 || !((e instanceof RpcMethodError && !e.unsupported) || timedOut)) return null;
  const text = e instanceof RpcMethodError ? e.detail : '';
  // A stated range limit ("limit of 2000", "maximum block range: 5000", "up to a 2K block range") holds for every later query.
  const stated = /limit of (\d+)|max(?:imum)? (?:block )?range:? ?(\d+)|limited to (\d+)|up to a (\d+)(K?) block range/i.exec(text);
  if (stated) {
    const n = Number(stated[1] ?? stated[2] ?? stated[3] ?? stated[4]) * (stated[5] ? 1000 : 1);
    if (n >= 1) caps.set(chainId, Math.min(caps.get(chainId) ?? n, n));
  }
  const spanCap = caps.get(chainId);
  // A suggested range ("this block range should work: [0x10, 0x7cf]", "Try with this block range [0x10, 0x20]").
  const hint = /\[\s*(0x[0-9a-f]+)\s*,\s*(0x[0-9a-f]+)\s*\]/i.exec(text);
  const suggested = hint ? Number(BigInt(hint[2]!) - BigInt(hint[1]!)) + 1 : 0;
  if (suggested >= 1 && suggested < tried) return suggested;
  if (spanCap !== undefined && spanCap < tried) return spanCap;
  return Math.max(1, Math.floor(tried / (/results|response size|too many/i.test(text) ? 2 : 4)));
}
