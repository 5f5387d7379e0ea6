import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLantern, type LanternInstance } from '../support/lantern';
import { readReference } from '../support/reference';
import { RECORDED_MAINNET_BLOCKS, startRecordedLedgerNode, type RecordedLedgerNode } from '../support/recorded-ledger-node';

// A successful mainnet lookup in node mode: Lantern's LEDGER_API_URL_MAINNET is a local node serving real
// recorded Aptos mainnet blocks (tests/support/recorded-ledger-node.ts). What Lantern must answer is the
// recorded block itself, which no one here wrote.

let node: RecordedLedgerNode;
let lantern: LanternInstance;

beforeAll(async () => {
  node = await startRecordedLedgerNode();
  lantern = await startLantern({ LEDGER_API_URL_MAINNET: node.url });
}, 120_000);
afterAll(async () => {
  await lantern?.stop();
  await node?.stop();
});

type Block = { block_height: string; block_hash: string; block_timestamp: string; first_version: string; last_version: string; transactions?: { hash: string; type: string; version: string }[] };
const recorded = (name: string) => {
  const { __headers: _h, ...block } = readReference<Block & { __headers?: unknown }>(name);
  return block as Block;
};

describe('mainnet ledger lookup against a node serving recorded blocks (node mode)', () => {
  it.each(RECORDED_MAINNET_BLOCKS)('%s: every version of the block answers 200 with the recorded block', async (name) => {
    const block = recorded(name);
    const inBlock = (r: string) => {
      const v = /^\/v1\/blocks\/by_version\/(\d+)\?/.exec(r)?.[1];
      return v !== undefined && BigInt(block.first_version) <= BigInt(v) && BigInt(v) <= BigInt(block.last_version);
    };
    // The page test may have fetched this block with its transactions already (tests run in random
    // order): then it is cached and the node is not asked again.
    const cached = node.requests.filter(inBlock).some((r) => r.endsWith('?with_transactions=true'));
    const from = node.requests.length;
    for (let v = BigInt(block.first_version); v <= BigInt(block.last_version); v++) {
      const res = await fetch(`${lantern.url}/api/ledger/mainnet/blocks/by_version/${v}?with_transactions=true`);
      const body = await res.json();
      expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(200);
      expect(body).toEqual(block);
    }
    const bare = await fetch(`${lantern.url}/api/ledger/mainnet/blocks/by_version/${block.last_version}`);
    expect(bare.status).toBe(200);
    const { transactions: _t, ...header } = block;
    expect(await bare.json()).toEqual(header);
    // The node was asked for the block once, at the fullnode's path, with its transactions; every other
    // version of it, and the lighter view, came from Lantern's cache.
    expect(node.requests.slice(from).filter(inBlock)).toEqual(cached ? [] : [`/v1/blocks/by_version/${block.first_version}?with_transactions=true`]);
  });

  it('the ledger page shows the recorded block and its transactions', async () => {
    const block = recorded(RECORDED_MAINNET_BLOCKS[0]!);
    const res = await fetch(`${lantern.url}/ledger/mainnet/versions/86447895`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('32425224');
    for (const t of block.transactions!) expect(html).toContain(t.hash);
  });
});
