import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEvmDevnet, type EvmDevnet } from '../../devnet/evm/index.mjs';
import { startLiveDriver } from '../../devnet/evm/live-driver.mjs';
import { startDriverControl } from '../../scripts/lib/devnet-driver-control.mjs';
import { freePort } from '../support/ports';
import { rpcClient } from '../support/rpc';

// `npm run dev -- --live`: the devnet keeps moving. What the driver sent is read back from the node:
// mined, successful, between the scenario's telling wallets, token payments as Transfer logs.
let devnet: EvmDevnet;

const rpc = rpcClient(() => devnet.url).call;

beforeAll(async () => {
  devnet = await startEvmDevnet({ port: await freePort() });
});

afterAll(async () => {
  await devnet?.stop();
});

describe('the live driver', () => {
  it('sends a scenario transaction at each interval, every one mined and between the telling wallets', async () => {
    const start = Number(await rpc<string>('eth_blockNumber'));
    const lines: string[] = [];
    const driver = startLiveDriver({ rpcUrl: devnet.url, manifest: devnet.manifest, intervalMs: 150, log: (l) => lines.push(l) });
    try {
      for (let i = 0; i < 200 && driver.sent() < 6; i++) await new Promise((r) => setTimeout(r, 50));
    } finally {
      await driver.stop();
    }
    expect(driver.sent()).toBeGreaterThanOrEqual(6);
    const m = devnet.manifest as unknown as { accounts: Record<string, { address: string }>; contracts: Record<string, { address: string }> };
    const people = new Set(['alice', 'bob', 'carol', 'erin'].map((n) => m.accounts[n]!.address.toLowerCase()));
    const tokens = new Set([m.contracts.usdc!.address, m.contracts.lnt!.address].map((a) => a.toLowerCase()));
    const end = Number(await rpc<string>('eth_blockNumber'));
    let eth = 0;
    let token = 0;
    for (let n = start + 1; n <= end; n++) {
      const block = await rpc<{ transactions: { hash: string; from: string; to: string; value: string }[] }>('eth_getBlockByNumber', [`0x${n.toString(16)}`, true]);
      for (const t of block.transactions) {
        const r = await rpc<{ status: string; logs: { address: string; topics: string[] }[] }>('eth_getTransactionReceipt', [t.hash]);
        expect(r.status).toBe('0x1');
        expect(people.has(t.from.toLowerCase())).toBe(true);
        if (tokens.has(t.to.toLowerCase())) {
          token++;
          const to = `0x${r.logs[0]!.topics[2]!.slice(26)}`;
          expect(people.has(to)).toBe(true);
        } else {
          eth++;
          expect(people.has(t.to.toLowerCase())).toBe(true);
          expect(BigInt(t.value)).toBeGreaterThan(0n);
        }
      }
    }
    expect(eth + token).toBe(driver.sent());
    expect(eth).toBeGreaterThan(0);
    expect(token).toBeGreaterThan(0);
    expect(lines).toHaveLength(driver.sent());
  });
});

describe("npm run dev's switch for it (the home page's button)", () => {
  it('starts and stops the driver on its secret URL only, and says what it is doing', async () => {
    const control = await startDriverControl({ rpcUrl: devnet.url, manifest: devnet.manifest, intervalS: 1, running: false });
    try {
      const call = async (path = '', method = 'GET') => {
        const res = await fetch(control.url + path, { method });
        return { status: res.status, body: (await res.json()) as { running?: boolean; interval_s?: number; sent?: number } };
      };
      expect(await call()).toEqual({ status: 200, body: { running: false, interval_s: 1, sent: 0 } });
      // Another path on its port (a guessed secret) is nothing; a GET does not switch it.
      const other = control.url.replace(/[0-9a-f]{32}$/, '0'.repeat(32));
      expect((await fetch(`${other}/start`, { method: 'POST' })).status).toBe(404);
      expect((await call('/start')).status).toBe(404);
      const before = Number(await rpc<string>('eth_blockNumber'));
      expect((await call('/start', 'POST')).body.running).toBe(true);
      for (let i = 0; i < 200 && Number(await rpc<string>('eth_blockNumber')) < before + 2; i++) await new Promise((r) => setTimeout(r, 50));
      const stopped = await call('/stop', 'POST');
      expect(stopped.body.running).toBe(false);
      const head = Number(await rpc<string>('eth_blockNumber'));
      // Every payment it counts is a block the node mined (the devnet automines, one per block).
      expect(head - before).toBe(stopped.body.sent);
      expect(stopped.body.sent).toBeGreaterThanOrEqual(2);
      // Stopped means stopped: two of its intervals later the node's head has not moved.
      await new Promise((r) => setTimeout(r, 2_200));
      expect(Number(await rpc<string>('eth_blockNumber'))).toBe(head);
      expect((await call()).body).toEqual({ running: false, interval_s: 1, sent: stopped.body.sent });
    } finally {
      await control.stop();
    }
  });
});
