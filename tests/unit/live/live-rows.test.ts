import { describe, expect, it } from 'vitest';
import { liveRowsSnapshot, mergeLiveRows, pushLiveRows, type LiveRows } from '@/lib/browser/live-rows';
import type { TxView } from '@/lib/view/tx-view';

// What the history list shows once the live bar has handed rows over: the server's page with the streamed
// rows on top, each transaction once, newest block first, without what a reorganisation took.

const row = (hash: string, block: number) => ({ hash, block: String(block) }) as TxView;
const hashes = (rows: TxView[]) => rows.map((r) => r.hash);
const none: LiveRows = { added: [], removed: new Set() };

describe('live rows over the server page', () => {
  it('streamed rows go on top, newest first, and the server page is untouched without any', () => {
    const server = [row('0xc', 9), row('0xb', 7)];
    expect(mergeLiveRows(server, none)).toBe(server);
    const latest: LiveRows = { added: [row('0xe', 11), row('0xd', 10)], removed: new Set() };
    expect(hashes(mergeLiveRows(server, latest))).toEqual(['0xe', '0xd', '0xc', '0xb']);
  });

  it('a row the refreshed server page holds too shows once; rows of one block keep their order', () => {
    const server = [row('0xE', 11), row('0xc', 9)];
    const latest: LiveRows = { added: [row('0xe', 11), row('0xf', 11), row('0xd', 10)], removed: new Set() };
    expect(hashes(mergeLiveRows(server, latest))).toEqual(['0xe', '0xf', '0xd', '0xc']);
  });

  it('removed hashes leave both, and a row mined again comes back', () => {
    pushLiveRows({ add: [row('0xd', 10)] });
    pushLiveRows({ remove: ['0xD', '0xc'] });
    expect(hashes(mergeLiveRows([row('0xc', 9), row('0xb', 7)], liveRowsSnapshot()))).toEqual(['0xb']);
    pushLiveRows({ add: [row('0xd', 12)] });
    expect(hashes(mergeLiveRows([row('0xc', 9), row('0xb', 7)], liveRowsSnapshot()))).toEqual(['0xd', '0xb']);
  });
});

