import 'server-only';
import { cachedFor, type KeptText } from '@/lib/cache';
import { markStill } from './sources';
import { serializeHistoryPage, type HistoryPage, type HistoryQuery } from '@/lib/interface/history';
import { sources } from '@/lib/sources';
import { requestChain } from './chains';

/**
 * Cached history pages. The rule: a cached page is reused only while it is certain to be the same page.
 *
 * A page is *closed* when new blocks cannot change it: a DESC page after a cursor (anchored below the
 * position the first page saw; nothing is added below), or an ASC page that has a next cursor (rows
 * after its last row exist, so new transactions land after them, on a later page). In node mode it must
 * also hold only final blocks (at or below head - reorg depth). Closed pages are kept CLOSED_TTL_S under
 * a key without the head. Every other page is *open*: a DESC first page starts at the head, and an ASC
 * page without a next cursor ends at it, so the next block may add rows to it. In node mode an open page
 * is kept under a key holding the head block it was computed at, so the first request after a new block
 * computes it again and sees the new transactions; the head itself is shared for at most one second
 * (EVM_HEAD_TTL_MS, lib/sources/evm-node/rpc.ts). The hosted API does not tell Lantern its head, so there
 * an open page is kept OPEN_HOSTED_TTL_S only.
 *
 * Node mode: every key also holds the chain's epoch (lib/sources/evm-node/chain.ts), which grows when the
 * node is found on another chain or fork than the one indexed, so no page of the old chain, closed or
 * open, is served again, by this instance or any other sharing Redis, once it has seen the new head.
 */
const CLOSED_TTL_S = 300;
const OPEN_NODE_TTL_S = 60; // per head block: bounds memory, never freshness
const OPEN_HOSTED_TTL_S = 5;

async function plan(address: string, query: HistoryQuery) {
  const chain = await requestChain(query.chain, 'history');
  const s = sources().evm(chain);
  // A source that follows its chain (node): keys carry the chain's epoch, so pages of a chain the node left are never served.
  const mark = await s.chain.mark();
  const base = `history:${s.kind}:${chain.hex}:${mark ? `${mark.epoch}:` : ''}${address}:${stableKey(query)}`;
  const desc = query.order === 'DESC';
  const closed = async (page: HistoryPage): Promise<boolean> => {
    if (!(desc ? !!query.cursor : page.cursor !== null)) return false;
    const head = await s.chain.head();
    if (head === null) return true; // the source does not say its head: it answers final rows only
    const final = head - (s.chain.reorgDepth() ?? 0);
    return page.result.every((t) => Number(t.block_number) <= final);
  };
  const load = () => s.history.history(address, chain, query);
  /**
   * The page (or a value made of it, e.g. its JSON text) under the rule above, and until when (Lantern's
   * clock, ms; 0: not kept) this instance hands back the same value while the chain's mark holds.
   */
  const serve = async <T>(suffix: string, make: (page: HistoryPage) => T): Promise<{ value: T; expires: number }> => {
    const outer = await cachedFor(`${base}${suffix}`, { ttl: (v: { closed: boolean }) => (v.closed ? CLOSED_TTL_S : 0) }, async () => {
      const openKey = mark ? `${base}@${mark.head}${suffix}` : `${base}~open${suffix}`;
      let isClosed = false;
      const inner = await cachedFor(openKey, { ttl: mark === null ? OPEN_HOSTED_TTL_S : OPEN_NODE_TTL_S }, async () => {
        const page = await load();
        isClosed = await closed(page);
        return make(page);
      });
      return { closed: isClosed, value: inner.value, expires: inner.expires };
    });
    return { value: outer.value.value, expires: outer.expires > 0 ? outer.expires : (outer.value.expires ?? 0) };
  };
  // A first sight (the wallet page), where the source can answer before it has read internal transfers.
  const quick = s.kind === 'node' ? () => s.history.history(address, chain, query, { traces: 'later' }) : null;
  return { serve, quick, fresh: markStill(s.chain, mark) };
}

/** Wallet history from the source lib/sources picked (the hosted data API, or Lantern's own EVM node source). */
export async function getWalletHistory(address: string, query: HistoryQuery): Promise<HistoryPage> {
  return (await (await plan(address, query)).serve('', (page) => page)).value;
}

/**
 * The first page a wallet page shows: the complete page when it is cached or read as fast, else the rows
 * as soon as the node's cheapest reads give them (transactions, receipts, logs), each row whose internal
 * transfers are still being read marked `internal_pending`, while the complete page goes on being read
 * and cached for the browser's next request (issue 22: rows first, details after). `complete` says which.
 * Never for the published API: its callers cannot take partial rows.
 */
export async function getWalletHistoryFirstSight(address: string, query: HistoryQuery): Promise<{ page: HistoryPage; complete: boolean }> {
  const p = await plan(address, query);
  const full = p.serve('', (page) => page).then(({ value: page }) => ({ page, complete: true }));
  if (!p.quick) return full;
  full.catch(() => undefined);
  const quick = p.quick().then((page) => ({ page, complete: !page.result.some((t) => (t as { internal_pending?: unknown }).internal_pending === true) }));
  // A failed quick read leaves the answer to the complete one (which says what went wrong, if it fails too).
  return Promise.race([full, quick.catch(() => full)]);
}

/**
 * The published API's answer as the interface's JSON text, cached as text: a hit costs no serialisation.
 * `keep`: while the same request gets the same text (lib/api/answer-cache.ts).
 */
export async function getWalletHistoryBody(address: string, query: HistoryQuery): Promise<KeptText> {
  const p = await plan(address, query);
  const { value, expires } = await p.serve(':body', (page) => JSON.stringify(serializeHistoryPage(page)));
  return { text: value, keep: { until: expires, fresh: p.fresh } };
}

/** Which transactions wallet histories on `chain` can hold, known within `ms` (null: the source does not say). */
export async function historyCoverage(chainValue: string | undefined, ms = 1500) {
  const chain = await requestChain(chainValue, 'history');
  return sources().evm(chain).history.coverage(ms);
}

/**
 * Whether histories on `chain` can be filtered by token contract (`token_addresses`): node mode reads it
 * from the wallet's own logs; the hosted API has no such filter, so there it is a 400 naming it.
 */
export async function historyFiltersByToken(chainValue: string | undefined): Promise<boolean> {
  const chain = await requestChain(chainValue, 'history');
  return sources().evm(chain).kind === 'node';
}

export function stableKey(q: object): string {
  const rec = q as Record<string, unknown>;
  const names = Object.keys(rec).filter((k) => rec[k] !== undefined);
  return JSON.stringify(sortedNames(names).map((k) => [k, rec[k]]));
}

// The names of a query, in the order stableKey sorts them (localeCompare), kept by the names as given: a
// cached endpoint is asked with the same names over and over, and sorting them was a measurable part of a
// hit. Bounded: query names come from a schema's output, so there are few sets.
const SORTED_NAMES_MAX = 256;
const sortedNameSets = new Map<string, readonly string[]>();

function sortedNames(names: string[]): readonly string[] {
  const id = names.join('\u0000');
  let sorted = sortedNameSets.get(id);
  if (!sorted) {
    sorted = [...names].sort((a, b) => a.localeCompare(b));
    if (sortedNameSets.size >= SORTED_NAMES_MAX) sortedNameSets.clear();
    sortedNameSets.set(id, sorted);
  }
  return sorted;
}

/**
 * Whether the source is still reading this wallet's older transactions (node mode reads the newest
 * window first and the rest in the background): the page says so. False where the source does not say.
 */
export async function historyStillIndexing(address: string, chainValue: string | undefined): Promise<boolean> {
  const chain = await requestChain(chainValue, 'history');
  const activity = sources().evm(chain).activity;
  if (!activity) return false;
  return !(await activity.state(chain, address)).complete;
}
