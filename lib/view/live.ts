import type { HistoryPageWire } from '@/lib/interface/history';

/**
 * What a live stream (`GET /api/live/wallets/{address}`, `GET /api/live/heads`; lib/live) sends, as the
 * browser reads it. Lantern's own, outside the published interface. Server-Sent Events:
 *
 * - `hello`: how this stream learns of changes (`follows`: the chain's heads; else the hosted API's first
 *   page, every `interval_s` seconds). First, without an id.
 * - `tx`: one new transaction of the wallet, in the published history's row shape, oldest first.
 * - `removed`: transactions a chain reorganisation took away (by hash), and the block it forked after.
 * - `head`: the chain's new head (number, hash, epoch), once the wallet's changes up to it are sent.
 * - `gap`: more new transactions than one page: show the first page again instead.
 * - `reset`: the chain changed beyond what can be described (another genesis, a reorg older than a day):
 *   show the first page again.
 *
 * Each event but `hello` has an id; a stream reopened with `Last-Event-ID` (or `since=`) carries on after
 * it with nothing missed and nothing repeated.
 */
export type LiveEventName = 'hello' | 'tx' | 'removed' | 'head' | 'gap' | 'reset';

export interface LiveHello {
  /** Lantern follows the chain's heads (node); else it polls the hosted API's first pages. */
  follows: boolean;
  /** Seconds between polls, when it polls; else null. */
  interval_s: number | null;
  chain: string;
}

export interface LiveHead {
  chain: string;
  number: number;
  hash: string;
  epoch: number;
}

export interface LiveRemoved {
  hashes: string[];
  fork_block: number;
}

export interface LiveNotice {
  message: string;
}

/** A history row as the published API serialises it. */
export type LiveTx = HistoryPageWire['result'][number];

export type LiveEvent =
  | { event: 'tx'; id: string; data: LiveTx }
  | { event: 'removed'; id: string; data: LiveRemoved }
  | { event: 'head'; id: string; data: LiveHead }
  | { event: 'gap'; id: string; data: LiveNotice }
  | { event: 'reset'; id: string; data: LiveNotice };

/** New rows inserted at the top of the first page at once; past this many, "N new transactions, show". */
export const LIVE_INSERT_CAP = 10;

/** The history view a stream's rows slide into: the first page, newest first, no range, the row shape the stream sends. */
export function isLiveHistoryView(search: URLSearchParams): boolean {
  return (
    search.getAll('cursor').length === 0 &&
    (search.get('order') ?? 'desc') === 'desc' &&
    !['from_date', 'to_date', 'from_block', 'to_block', 'token'].some((k) => search.has(k)) &&
    search.get('internal') !== 'true'
  );
}

/** "3 new transactions" */
export function countWords(n: number, what = 'new transaction'): string {
  return `${n} ${what}${n === 1 ? '' : 's'}`;
}
