import type { LiveEvent, LiveTx } from '@/lib/view/live';

/**
 * The live streams' positions and what to send from one (pure: unit- and property-tested).
 *
 * A position says what a stream has delivered: every transaction of the wallet up to (block, index) on
 * the chain of `epoch` (chain.ts raises the epoch at each reorg it finds). `index` COMPLETE means the
 * whole block: a `head` event's position. It is each event's SSE id, `<epoch>.<block>.<index|h>`, so a
 * stream reopened with Last-Event-ID carries on from exactly there. Hosted mode knows no heads nor
 * epochs: its positions are rows' (epoch 0).
 */

export interface Position {
  epoch: number;
  block: number;
  /** Transaction index within the block, or COMPLETE: the block is delivered whole. */
  index: number;
}

export const COMPLETE = Number.POSITIVE_INFINITY;

export function formatId(p: Position): string {
  return `${p.epoch}.${p.block}.${p.index === COMPLETE ? 'h' : p.index}`;
}

const ID_RE = /^(\d{1,9})\.(\d{1,16})\.(\d{1,9}|h)$/;

/** A position from an event id, or null when it is not one. */
export function parseId(id: string): Position | null {
  const m = ID_RE.exec(id.trim());
  if (!m) return null;
  const [epoch, block] = [Number(m[1]), Number(m[2])];
  if (!Number.isSafeInteger(block)) return null;
  return { epoch, block, index: m[3] === 'h' ? COMPLETE : Number(m[3]) };
}

/** Within one epoch: is `a` strictly after `b`? */
export function isAfter(a: { block: number; index: number }, b: { block: number; index: number }): boolean {
  return a.block !== b.block ? a.block > b.block : a.index > b.index;
}

const earlier = (a: Position, b: Position): Position => (isAfter(a, b) ? b : a);

/** One SSE frame. JSON never holds a raw newline, so `data` is one line. */
export function sseFrame(event: string, data: unknown, id?: string): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A row of the wallet's newest page, with where it sits in the chain. */
export interface PageRow {
  block: number;
  index: number;
  tx: LiveTx;
}

export interface ChangeInput {
  /** What the stream has delivered; null for a new stream, which starts now. */
  since: Position | null;
  /** The chain now: its epoch and checked head (node); null where the source knows no head (hosted). */
  now: { chain: string; epoch: number; head: number; hash: string } | null;
  /**
   * Only when `since` is of an older epoch: what the reorgs between took (the lowest fork block, and the
   * wallet's dropped transactions), or null when that is no longer known.
   */
  reorgs?: { fork: number; removed: string[] } | null;
  /** The wallet's newest page (newest first) at `now`, and whether older rows exist beyond it. */
  page: { rows: PageRow[]; more: boolean };
}

/**
 * What a stream at `since` is sent to be at `now`, and where that leaves it: the transactions a reorg
 * took away (when it crossed one), the new rows oldest first, then the head. A new stream is sent only
 * the head (its page showed the rest). When every row of the page is new and more exist, the stream is
 * told to show the first page (`gap`) rather than sent part of them; when a reorg cannot be described
 * any more, to start over (`reset`).
 */
export function planChanges({ since, now, reorgs, page }: ChangeInput): { events: LiveEvent[]; position: Position } {
  const events: LiveEvent[] = [];
  const rowPos = (epoch: number, r: PageRow): Position => ({ epoch, block: r.block, index: r.index });
  if (now === null) return planPolled(since, page);

  const head: Position = { epoch: now.epoch, block: now.head, index: COMPLETE };
  const headEvent = (): LiveEvent => ({ event: 'head', id: formatId(head), data: { chain: now.chain, number: now.head, hash: now.hash, epoch: now.epoch } });
  if (since === null) return { events: [headEvent()], position: head };
  if (since.epoch > now.epoch || (since.epoch === now.epoch && since.block > now.head)) {
    // A stream ahead of this instance's view: nothing to send yet (its next head catches up), unless its
    // epoch is not one this chain had (a database started over): then it starts over.
    if (since.epoch > now.epoch) return { events: [{ event: 'reset', id: formatId(head), data: { message: 'The chain Lantern follows started over.' } }, headEvent()], position: head };
    return { events: [], position: since };
  }
  let base = since;
  if (since.epoch < now.epoch) {
    if (!reorgs) {
      return {
        events: [{ event: 'reset', id: formatId(head), data: { message: 'The chain was reorganised further than Lantern can describe.' } }, headEvent()],
        position: head,
      };
    }
    // Rows at or below the fork are the same on both sides of it: the stream keeps those.
    base = earlier({ ...since, epoch: now.epoch }, { epoch: now.epoch, block: reorgs.fork, index: COMPLETE });
    if (reorgs.removed.length > 0) events.push({ event: 'removed', id: formatId(base), data: { hashes: reorgs.removed, fork_block: reorgs.fork } });
  }
  const fresh = page.rows.filter((r) => r.block <= now.head && isAfter(r, base));
  if (beyondPage(page, base)) {
    events.push({ event: 'gap', id: formatId(head), data: { message: 'More new transactions than one page.' } });
  } else {
    for (const r of [...fresh].reverse()) events.push({ event: 'tx', id: formatId(rowPos(now.epoch, r)), data: r.tx });
  }
  events.push(headEvent());
  return { events, position: head };
}

/** New rows may lie beyond the page: its oldest row is new, and older ones exist. */
function beyondPage(page: ChangeInput['page'], base: Position): boolean {
  const oldest = page.rows[page.rows.length - 1];
  return page.more && oldest !== undefined && isAfter(oldest, base);
}

/** Hosted mode: rows newer than the stream's newest, no heads. */
function planPolled(since: Position | null, page: ChangeInput['page']): { events: LiveEvent[]; position: Position } {
  const newest = page.rows[0];
  const top: Position = newest ? { epoch: 0, block: newest.block, index: newest.index } : { epoch: 0, block: 0, index: 0 };
  if (since === null) return { events: [], position: top };
  const base = { ...since, epoch: 0 };
  const fresh = page.rows.filter((r) => isAfter(r, base));
  if (beyondPage(page, base)) {
    return { events: [{ event: 'gap', id: formatId(top), data: { message: 'More new transactions than one page.' } }], position: top };
  }
  const events: LiveEvent[] = [...fresh].reverse().map((r) => ({ event: 'tx' as const, id: formatId({ epoch: 0, block: r.block, index: r.index }), data: r.tx }));
  return { events, position: fresh.length > 0 ? top : base };
}
