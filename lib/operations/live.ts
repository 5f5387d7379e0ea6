import 'server-only';
import { chainOrCustom, type Chain } from '@/lib/chains';
import { config } from '@/lib/config';
import { historyQuerySchema, serializeTransaction, type HistoryPageWire, type HistoryQuery } from '@/lib/interface/history';
import { formatId, planChanges, type PageRow, type Position } from '@/lib/view/live-protocol';
import { sources, type CheckedHead } from '@/lib/sources';
import type { LiveEvent, LiveHello } from '@/lib/view/live';
import { historyApiQuery, type HistoryView } from '@/lib/view/search-params';
import { defaultChain, requestChain } from './chains';
import { getWalletHistory } from './wallet-history';

/**
 * What live pages ask of the sources (lib/live runs the streams): a source that reads chains itself
 * (node) is followed head by head; one that does not (hosted) is polled, its first pages at most every
 * LIVE_HOSTED_POLL_S. A wallet's changes are always read through the history operation, as the wallet
 * page reads its first page, so the stream's rows are the page's rows (and share its cache).
 */

export type { CheckedHead } from '@/lib/sources';

/**
 * The chain a stream names (or the default), refused with a 400 naming `chain` as the history API refuses
 * it, and where Lantern follows heads, one this node serves (before the stream opens: once it has, the
 * answer is a 200).
 */
export async function liveChain(value: string | undefined): Promise<Chain> {
  const chain = await requestChain(value, 'history');
  await followOf(chain.id)?.current(chain.id);
  return chain;
}

/** Who follows a chain's heads: its node; null where the hosted API answers for it (polled instead). */
function followOf(chainId: number) {
  return sources().evm(chainOrCustom(chainId)).follow;
}

/** How streams learn of changes here: following heads, or polling the hosted API's first pages. */
export function liveHello(chain: Chain): LiveHello {
  const follows = followOf(chain.id) !== null;
  return { follows, interval_s: follows ? null : config().liveHostedPollS, chain: chain.name };
}

/** Whether this chain's heads can be followed here (a node serves it), rather than its wallets polled. */
export function liveFollows(chainId: number): boolean {
  return followOf(chainId) !== null;
}

/** Follows a chain's heads until `signal` aborts (the lease holder's job; see lib/live/follower.ts). */
export function followChain(chainId: number, onHead: (h: CheckedHead) => Promise<void>, signal: AbortSignal, onTransport?: (t: 'websocket' | 'polling') => void): Promise<void> {
  const follow = followOf(chainId);
  if (!follow) throw new Error(`No node follows chain ${chainId} here`);
  return follow.follow(chainId, onHead, signal, onTransport);
}

/** A head another instance followed: this instance reads pages at it from now on. */
export async function heardHead(head: CheckedHead): Promise<void> {
  await followOf(head.chainId)?.heard(head);
}

/** The wallet page's first page (newest first, the page's size), as the page asks for it: the stream's rows are its rows. */
async function liveQuery(chain: Chain): Promise<HistoryQuery> {
  const byDefault = await defaultChain('history');
  const view: HistoryView = { chain: byDefault.id === chain.id ? null : chain.name, order: 'desc', from_date: null, to_date: null, from_block: null, to_block: null, internal: false, spam: false, token: [], cursor: [] };
  return historyQuerySchema.parse(historyApiQuery(view));
}

async function newestPage(chain: Chain, address: string): Promise<{ rows: PageRow[]; more: boolean }> {
  const page = await getWalletHistory(address, await liveQuery(chain));
  return {
    rows: page.result.map((tx) => ({ block: Number(tx.block_number), index: Number(tx.transaction_index ?? 0), tx: serializeTransaction(tx) })),
    more: page.cursor !== null,
  };
}

/**
 * What a stream of `address` at `since` is to be sent now (lib/view/live-protocol.ts planChanges), read at
 * the chain's checked head: the rows a reorg took away, the new rows, the head. Null `since`: a new
 * stream, sent only the head (node) or nothing (hosted).
 */
export async function walletChangesSince(chain: Chain, address: string, since: Position | null): Promise<{ events: LiveEvent[]; position: Position }> {
  const follow = followOf(chain.id);
  if (!follow) return planChanges({ since, now: null, page: await newestPage(chain, address) });
  for (let attempt = 0; ; attempt++) {
    const now = await follow.current(chain.id);
    const reorgs = since && since.epoch < now.epoch ? await follow.reorgsBetween(chain.id, address, since.epoch, now.epoch) : undefined;
    const page = since === null ? { rows: [], more: false } : await newestPage(chain, address);
    // The page was read at this head or a later one of the same chain; a reorg meanwhile: read again.
    if (attempt < 2 && (await follow.current(chain.id)).epoch !== now.epoch) continue;
    return planChanges({ since, now: { chain: chain.hex, epoch: now.epoch, head: now.number, hash: now.hash }, reorgs, page });
  }
}

/**
 * Where the stream of a page rendered now starts, read before the page's rows so none is missed: the
 * checked head (node). Null where there is no head (hosted: liveStartAfter, from the page's own rows) or
 * the chain cannot be followed here.
 */
export async function liveStart(chainName: string): Promise<string | null> {
  const chain = await liveChain(chainName);
  const follow = followOf(chain.id);
  if (!follow) return null;
  const now = await follow.current(chain.id);
  return formatId({ epoch: now.epoch, block: now.number, index: Number.POSITIVE_INFINITY });
}

/** Hosted mode: the stream of a page starts after the newest row the page shows. */
export function liveStartAfter(page: HistoryPageWire): string {
  const newest = page.result[0];
  return formatId({ epoch: 0, block: newest ? Number(newest.block_number) : 0, index: newest ? Number(newest.transaction_index ?? 0) : 0 });
}

/** The head event of a chain now (head-only streams: a pending transaction's page). */
export async function headNow(chain: Chain): Promise<{ events: LiveEvent[]; position: Position } | null> {
  const follow = followOf(chain.id);
  if (!follow) return null;
  const now = await follow.current(chain.id);
  return planChanges({ since: null, now: { chain: chain.hex, epoch: now.epoch, head: now.number, hash: now.hash }, page: { rows: [], more: false } });
}
