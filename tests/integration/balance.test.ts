import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnAnvil } from '../../devnet/evm/anvil.mjs';
import { startLantern, type LanternInstance } from '../support/lantern';
import { freePort } from '../support/ports';
import { rpcClient, sendMined } from '../support/rpc';
import { startRpcProxy, type RpcProxy } from '../support/rpc-proxy';
import { testClock } from '../support/test-clock';

/**
 * GET /api/v2.2/{address}/balance against a chain of its own (a bare anvil: this file sends
 * transactions, which the shared seeded devnet must never see), in node mode and in hosted mode fronting
 * node mode. Expected balances are the node's eth_getBalance. Node mode keys its cache to the head block
 * (the head itself is shared for 1 s); hosted mode keeps answers 10 s: so after a new block each mode is
 * awaited until it shows the new balance: node mode polled (bounded) for its head, hosted mode by moving its clock past the lifetime (LANTERN_TEST_CLOCK_FILE).
 */
const UPSTREAM_KEY = 'balance-hosted-key-0123456789';
// anvil's default dev accounts (unlocked): 0 pays 3.
const PAYER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const WALLET = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
const EMPTY = '0x000000000000000000000000000000000000dEaD';

let anvil: { url: string; stop: () => Promise<void> };
let proxy: RpcProxy;
let node: LanternInstance;
let hosted: LanternInstance;
let clock: ReturnType<typeof testClock> | undefined;
/** Moves the hosted Lantern's clock forward by `ms`. */
const advanceHosted = (ms: number) => clock!.advance(ms);

const anvilRpc = rpcClient(() => anvil.url);
const rpc = anvilRpc.call;
const nodeBalance = async (address: string) => BigInt(await rpc<string>('eth_getBalance', [address, 'latest'])).toString();

async function balance(base: string, address: string, query = '?chain=devnet') {
  const res = await fetch(`${base}/api/v2.2/${address}/balance${query}`);
  return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, unknown> };
}

/** Sends `wei` from PAYER to WALLET (anvil mines it at once) and returns the wallet's balance after it. */
async function pay(wei: bigint): Promise<string> {
  await sendMined(anvilRpc, { from: PAYER, to: WALLET, value: wei });
  return nodeBalance(WALLET);
}

beforeAll(async () => {
  const port = await freePort();
  anvil = await spawnAnvil({ port });
  // Lantern reads the node through a recording proxy: the cache is observable as calls not made.
  proxy = await startRpcProxy(anvil.url);
  node = await startLantern({ EVM_RPC_URL: proxy.url, DEVNET_EVM_PORT: String(proxy.port), API_KEYS: UPSTREAM_KEY });
  // The hosted Lantern's clock is moved by this file (LANTERN_TEST_CLOCK_FILE): its 10 s lifetime is
  // passed by writing it, not waited for.
  clock = testClock();
  hosted = await startLantern({ DATA_API_KEY: UPSTREAM_KEY, DATA_API_URL: node.url, DEFAULT_CHAIN: 'devnet', LANTERN_TEST_CLOCK_FILE: clock.file });
});
afterAll(async () => {
  await hosted?.stop();
  await node?.stop();
  await proxy?.stop();
  await anvil?.stop();
  clock?.remove();
});

describe('GET /api/v2.2/{address}/balance', () => {
  it('answers {balance} in wei equal to eth_getBalance, in node mode and through a hosted Lantern', async () => {
    // Past the hosted Lantern's 10 s lifetime of anything an earlier test left; node mode is keyed to the head.
    advanceHosted(10_001);
    const expected = await nodeBalance(WALLET);
    const direct = await fetch(`${node.url}/api/v2.2/${WALLET}/balance?chain=devnet`, { headers: { 'X-API-Key': UPSTREAM_KEY } });
    expect(direct.status).toBe(200);
    expect(await direct.json()).toEqual({ balance: expected });
    const viaHosted = await balance(hosted.url, WALLET);
    expect(viaHosted.status).toBe(200);
    expect(viaHosted.json).toEqual({ balance: expected });
    expect(await balance(hosted.url, EMPTY)).toMatchObject({ status: 200, json: { balance: await nodeBalance(EMPTY) } });
  });

  it('shows the new balance after new blocks arrive (node: keyed to the head block; hosted: within its lifetime)', async () => {
    const nodeGet = (address: string) => fetch(`${node.url}/api/v2.2/${address}/balance?chain=devnet`, { headers: { 'X-API-Key': UPSTREAM_KEY } });
    for (const wei of [1_000_000_007n, 3n]) {
      const before = await nodeBalance(WALLET);
      // Both modes have cached the balance before the block.
      expect((await (await nodeGet(WALLET)).json()).balance).toBe(before);
      expect((await balance(hosted.url, WALLET)).json.balance).toBe(before);
      const after = await pay(wei);
      expect(BigInt(after) - BigInt(before)).toBe(wei);
      // Node mode: the next head is a new cache key.
      for (let i = 0; i < 300; i++) {
        const b = (await (await nodeGet(WALLET)).json()).balance;
        expect([before, after]).toContain(b);
        if (b === after) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect((await (await nodeGet(WALLET)).json()).balance).toBe(after);
      // Hosted mode keeps its answer 10 s: within that lifetime it still shows the balance it had...
      expect((await balance(hosted.url, WALLET)).json.balance).toBe(before);
      // ...and once its clock has passed the lifetime, the new one, at the first request.
      advanceHosted(10_001);
      expect((await balance(hosted.url, WALLET)).json.balance).toBe(after);
    }
  });

  it('node mode reads the node once per head block: repeats are cached, a new block is a new read', async () => {
    const wallet = '0x00000000000000000000000000000000000b0b0b';
    const reads = () => proxy.calls.filter((c) => c.method === 'eth_getBalance' && String(c.params[0]).toLowerCase() === wallet);
    const ask = async () => (await fetch(`${node.url}/api/v2.2/${wallet}/balance?chain=devnet`, { headers: { 'X-API-Key': UPSTREAM_KEY } })).json();
    const head = Number(await rpc<string>('eth_blockNumber'));
    for (let i = 0; i < 3; i++) expect(await ask()).toEqual({ balance: '0' });
    expect(reads().map((c) => c.params[1])).toEqual([`0x${head.toString(16)}`]); // read at the head, once
    await rpc('evm_mine');
    // The head Lantern sees is shared for 1 s: poll until it reads at the new block, then never again there.
    for (let i = 0; i < 300 && reads().length < 2; i++) {
      await ask();
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(reads().map((c) => c.params[1])).toEqual([`0x${head.toString(16)}`, `0x${(head + 1).toString(16)}`]);
    await ask();
    expect(reads()).toHaveLength(2);
  });

  it('names what was wrong: bad address, unknown chain', async () => {
    const bad = await balance(hosted.url, '0x123');
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ code: 'invalid_parameter', parameter: 'address' });
    const chain = await fetch(`${node.url}/api/v2.2/${WALLET}/balance?chain=nosuchchain`, { headers: { 'X-API-Key': UPSTREAM_KEY } });
    expect(chain.status).toBe(400);
    expect(await chain.json()).toMatchObject({ code: 'invalid_parameter' });
  });

  it('the wallet page shows the balance in the chain’s currency, the transaction count and activity', async () => {
    // Two payments of its own (other tests in this file may have made more), seen by node mode once its head moves.
    await pay(5n);
    await pay(7n);
    const expected = await nodeBalance(WALLET);
    for (let i = 0; i < 300; i++) {
      const seen = await (await fetch(`${node.url}/api/v2.2/${WALLET}/balance?chain=devnet`, { headers: { 'X-API-Key': UPSTREAM_KEY } })).json();
      if (seen.balance === expected) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const html = await (await fetch(`${node.url}/wallet/${WALLET}?chain=devnet`)).text();
    expect(html).toContain(`data-wei="${expected}"`);
    expect(html).toMatch(/data-testid="balance"[^>]*>[\d,.]+<!-- --> <!-- -->ETH/);
    // Node mode counts from its activity index; the node's own count: transactions to or from the wallet.
    const head = Number(await rpc<string>('eth_blockNumber'));
    let count = 0;
    const times: number[] = []; // the node's timestamps of the blocks holding the wallet's transactions
    for (let n = 0; n <= head; n++) {
      const block = await rpc<{ timestamp: string; transactions: { from: string; to: string | null }[] }>('eth_getBlockByNumber', [`0x${n.toString(16)}`, true]);
      const mine = block.transactions.filter((t) => [t.from, t.to].some((a) => a?.toLowerCase() === WALLET.toLowerCase())).length;
      count += mine;
      if (mine > 0) times.push(Number(block.timestamp));
    }
    expect(html).toMatch(new RegExp(`data-testid="tx-count"[^>]*>${count}<`));
    // First and last activity: the first and latest of those blocks' times, as the page writes times (UTC).
    expect(times.length).toBeGreaterThanOrEqual(2); // this file's payments (the chain is its own)
    // A <time> with the machine-readable instant, showing the UTC wording.
    const shown = (seconds: number) => {
      const iso = new Date(seconds * 1000).toISOString();
      return new RegExp(`<time dateTime="${iso}"[^>]*>${iso.slice(0, 19).replace('T', ' ')} UTC</time></dd>`);
    };
    const activity = (page: string, which: 'first' | 'last') => new RegExp(`data-testid="${which}-activity">(<time[^]*?</dd>)`).exec(page)?.[1] ?? '';
    const [first, last] = [shown(Math.min(...times)), shown(Math.max(...times))];
    expect(activity(html, 'first')).toMatch(first);
    expect(activity(html, 'last')).toMatch(last);
    // Through a hosted Lantern: the same balance; the hosted API gives no count, and the page says so.
    // Its clock first passes every lifetime of what it may have kept from earlier tests.
    advanceHosted(3_600_000);
    const hostedHtml = await (await fetch(`${hosted.url}/wallet/${WALLET}?chain=devnet`)).text();
    expect(hostedHtml).toContain(`data-wei="${await nodeBalance(WALLET)}"`);
    expect(hostedHtml).toMatch(/data-testid="tx-count"[^>]*>Not known</);
    expect(activity(hostedHtml, 'first')).toMatch(first);
    expect(activity(hostedHtml, 'last')).toMatch(last);
  });
});
