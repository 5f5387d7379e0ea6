import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COMPLETE, formatId, isAfter, parseId, planChanges, sseFrame, type PageRow, type Position } from '@/lib/view/live-protocol';
import type { LiveEvent, LiveTx } from '@/lib/view/live';

// The live streams' resume rule (lib/view/live-protocol.ts). The oracle is a model chain: the wallet's rows as
// a list, a head that grows, reorgs that drop everything above a fork and mine other rows in its place,
// and a log of what each reorg took, as chain.ts keeps it. A client that reads any prefix of what it is
// sent, drops the connection and comes back with the id of the last event it read, ends up holding
// exactly the wallet's rows, and never receives a row it already holds.

describe('event ids', () => {
  it('read back the position they were written from', () => {
    const pos = fc.record({
      epoch: fc.integer({ min: 0, max: 999_999_999 }),
      block: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
      index: fc.oneof(fc.integer({ min: 0, max: 999_999_999 }), fc.constant(COMPLETE)),
    });
    fc.assert(
      fc.property(pos, (p) => {
        expect(parseId(formatId(p))).toEqual(p);
      }),
    );
  });

  it('refuse anything else', () => {
    for (const bad of ['', '1', '1.2', '1.2.3.4', '-1.2.3', '1.2.-3', '1.2.x', '1.2 .h', 'a.b.c', '1.99999999999999999.0', '1.9007199254740993.0', '1e3.2.3', '0x1.2.3']) {
      expect(parseId(bad), bad).toBeNull();
    }
    fc.assert(
      fc.property(fc.string(), (s) => {
        const p = parseId(s);
        // Whatever parses is a position that prints back to the same text (trimmed).
        if (p) expect(formatId(p)).toBe(s.trim());
      }),
    );
  });
});

describe('sseFrame', () => {
  it('is one event whatever the data holds: one data line, a blank line at its end', () => {
    fc.assert(
      fc.property(fc.string(), fc.jsonValue(), (name, data) => {
        const frame = sseFrame('tx', { name, data }, '1.2.3');
        expect(frame.endsWith('\n\n')).toBe(true);
        const lines = frame.slice(0, -2).split('\n');
        expect(lines).toHaveLength(3);
        expect(lines[0]).toBe('id: 1.2.3');
        expect(lines[1]).toBe('event: tx');
        expect(JSON.parse(lines[2]!.slice('data: '.length))).toEqual(JSON.parse(JSON.stringify({ name, data })));
      }),
    );
  });
});

// ---------------------------------------------------------------------------------------------------
// The model

interface Row {
  hash: string;
  block: number;
  index: number;
}

const PAGE = 4;

class Chain {
  epoch = 1;
  head = 0;
  rows: Row[] = [];
  /** epoch -> [fork block, hashes dropped] */
  forks = new Map<number, { fork: number; removed: string[] }>();
  private n = 0;

  private mineBlock(txs: number, reuse: string[] = []) {
    this.head++;
    for (let i = 0; i < txs; i++) this.rows.push({ hash: reuse.shift() ?? `0x${(++this.n).toString(16).padStart(4, '0')}`, block: this.head, index: i * 2 });
  }

  mine(blocks: number[]) {
    for (const txs of blocks) this.mineBlock(txs);
  }

  /** Replaces the newest `depth` blocks with as many others (some of the dropped rows come back in them). */
  reorg(depth: number, blocks: number[], reinclude: number) {
    const fork = Math.max(0, this.head - depth);
    const removed = this.rows.filter((r) => r.block > fork).map((r) => r.hash);
    this.rows = this.rows.filter((r) => r.block <= fork);
    this.epoch++;
    this.forks.set(this.epoch, { fork, removed });
    this.head = fork;
    const back = removed.slice(0, reinclude);
    for (let i = 0; i < depth; i++) this.mineBlock(blocks[i % blocks.length] ?? 0, back);
  }

  page() {
    const sorted = [...this.rows].sort((a, b) => (a.block !== b.block ? b.block - a.block : b.index - a.index));
    const rows: PageRow[] = sorted.slice(0, PAGE).map((r) => ({ block: r.block, index: r.index, tx: { hash: r.hash } as unknown as LiveTx }));
    return { rows, more: sorted.length > PAGE };
  }

  /** What the source answers (evm-node/source.ts reorgsBetween): null when an epoch is not on record. */
  reorgsBetween(from: number, to: number) {
    const list = [];
    for (let e = from + 1; e <= to; e++) {
      const f = this.forks.get(e);
      if (!f) return null;
      list.push(f);
    }
    return { fork: Math.min(...list.map((f) => f.fork)), removed: [...new Set(list.flatMap((f) => f.removed))].sort() };
  }

  plan(since: Position | null) {
    return planChanges({
      since,
      now: { chain: '0x7a69', epoch: this.epoch, head: this.head, hash: `0xhead${this.epoch}-${this.head}` },
      reorgs: since && since.epoch < this.epoch ? this.reorgsBetween(since.epoch, this.epoch) : undefined,
      page: this.page(),
    });
  }
}

class Client {
  held = new Set<string>();
  last: string | null = null;
  resets = 0;

  constructor(private chain: Chain) {
    // The page the stream starts from showed every row there is (the model's wallet is small).
    for (const r of chain.rows) this.held.add(r.hash);
    const { events } = chain.plan(null);
    this.read(events, events.length);
  }

  /** Reads the first `n` events sent, then the connection drops. */
  read(events: LiveEvent[], n: number) {
    for (const e of events.slice(0, n)) {
      if (e.event === 'tx') {
        expect(this.held.has(e.data.hash), `${e.data.hash} sent twice`).toBe(false);
        this.held.add(e.data.hash);
      } else if (e.event === 'removed') {
        for (const h of e.data.hashes) this.held.delete(h);
      } else if (e.event === 'gap' || e.event === 'reset') {
        // The page shows the first page again: what the chain holds now.
        this.resets++;
        this.held = new Set(this.chain.rows.map((r) => r.hash));
      }
      this.last = e.id;
    }
  }

  reconnect(n: number) {
    const { events } = this.chain.plan(this.last === null ? null : parseId(this.last));
    this.read(events, Math.min(n, events.length));
    return events.length;
  }
}

type Step = { kind: 'mine'; blocks: number[] } | { kind: 'reorg'; depth: number; blocks: number[]; reinclude: number } | { kind: 'read'; n: number };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('mine' as const), blocks: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 3 }) }),
  fc.record({
    kind: fc.constant('reorg' as const),
    depth: fc.integer({ min: 1, max: 4 }),
    blocks: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 3 }),
    reinclude: fc.integer({ min: 0, max: 2 }),
  }),
  fc.record({ kind: fc.constant('read' as const), n: fc.integer({ min: 0, max: 8 }) }),
);

describe('planChanges: a stream resumed from any event it read', () => {
  it('ends up with exactly the wallet’s rows, each sent once, across reorgs', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 2 }), { maxLength: 3 }), fc.array(stepArb, { maxLength: 25 }), (start, steps) => {
        const chain = new Chain();
        chain.mine(start);
        const client = new Client(chain);
        for (const s of steps) {
          if (s.kind === 'mine') chain.mine(s.blocks);
          else if (s.kind === 'reorg') chain.reorg(s.depth, s.blocks, s.reinclude);
          else client.reconnect(s.n);
        }
        // Connected at last until everything is read: nothing left to send after that but the head.
        client.reconnect(Number.MAX_SAFE_INTEGER);
        expect([...client.held].sort()).toEqual(chain.rows.map((r) => r.hash).sort());
        const again = chain.plan(parseId(client.last!));
        expect(again.events.map((e) => e.event)).toEqual(['head']);
      }),
      { numRuns: 500 },
    );
  });

  it('sends rows oldest first, ids never going back, and the head last', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 20 }), (steps) => {
        const chain = new Chain();
        const client = new Client(chain);
        for (const s of steps) {
          if (s.kind === 'mine') chain.mine(s.blocks);
          else if (s.kind === 'reorg') chain.reorg(s.depth, s.blocks, s.reinclude);
          else {
            const { events } = chain.plan(parseId(client.last!));
            const ids = events.map((e) => parseId(e.id)!);
            for (const p of ids) expect(p.epoch).toBe(chain.epoch);
            // Never backwards; each row strictly after what came before it.
            for (let i = 1; i < ids.length; i++) {
              expect(isAfter(ids[i - 1]!, ids[i]!)).toBe(false);
              if (events[i]!.event === 'tx') expect(isAfter(ids[i]!, ids[i - 1]!)).toBe(true);
            }
            expect(events.at(-1)?.event).toBe('head');
            client.read(events, s.n);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a new stream is sent the head only, at the head', () => {
    const chain = new Chain();
    chain.mine([1, 2, 0]);
    const { events, position } = chain.plan(null);
    expect(events).toEqual([{ event: 'head', id: '1.3.h', data: { chain: '0x7a69', number: 3, hash: '0xhead1-3', epoch: 1 } }]);
    expect(position).toEqual({ epoch: 1, block: 3, index: COMPLETE });
  });

  it('more new rows than one page: a gap, not part of them', () => {
    const chain = new Chain();
    chain.mine([1]);
    const client = new Client(chain);
    chain.mine([3, 3]);
    const { events } = chain.plan(parseId(client.last!));
    expect(events.map((e) => e.event)).toEqual(['gap', 'head']);
  });

  it('a reorg no longer on record: reset, then the head', () => {
    const chain = new Chain();
    chain.mine([1, 1]);
    const client = new Client(chain);
    chain.reorg(1, [1], 0);
    chain.forks.clear();
    const { events } = chain.plan(parseId(client.last!));
    expect(events.map((e) => e.event)).toEqual(['reset', 'head']);
  });

  it('a stream ahead of this instance waits; one from an epoch the chain never had starts over', () => {
    const chain = new Chain();
    chain.mine([1]);
    expect(chain.plan({ epoch: 1, block: 5, index: COMPLETE })).toEqual({ events: [], position: { epoch: 1, block: 5, index: COMPLETE } });
    expect(chain.plan({ epoch: 7, block: 1, index: COMPLETE }).events.map((e) => e.event)).toEqual(['reset', 'head']);
  });
});

describe('planChanges without heads (hosted: the first page polled)', () => {
  const page = (rows: [number, number, string][], more = false) => ({ rows: rows.map(([block, index, hash]) => ({ block, index, tx: { hash } as unknown as LiveTx })), more });

  it('sends rows newer than the stream’s newest, oldest first, and no head', () => {
    const start = planChanges({ since: null, now: null, page: page([[5, 0, 'a']]) });
    expect(start).toEqual({ events: [], position: { epoch: 0, block: 5, index: 0 } });
    const next = planChanges({ since: start.position, now: null, page: page([[7, 1, 'c'], [6, 0, 'b'], [5, 0, 'a']]) });
    expect(next.events.map((e) => [e.event, e.id, (e.data as { hash: string }).hash])).toEqual([
      ['tx', '0.6.0', 'b'],
      ['tx', '0.7.1', 'c'],
    ]);
    expect(planChanges({ since: next.position, now: null, page: page([[7, 1, 'c']]) }).events).toEqual([]);
  });

  it('a gap when the whole page is new and more exist', () => {
    expect(planChanges({ since: { epoch: 0, block: 1, index: 0 }, now: null, page: page([[9, 0, 'x'], [8, 0, 'y']], true) }).events.map((e) => e.event)).toEqual(['gap']);
  });
});
