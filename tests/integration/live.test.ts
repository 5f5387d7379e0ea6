import { getAddress, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnAnvil } from '../../devnet/evm/anvil.mjs';
import { startLantern, type LanternInstance } from '../support/lantern';
import { freePort } from '../support/ports';
import { rpcClient, sendMined } from '../support/rpc';
import { startRpcProxy, type RpcProxy } from '../support/rpc-proxy';
import { flushRedis, freshDatabase, REDIS_TEST_URL, requireServices } from '../support/services';
import { json, openSse, type SseStream } from '../support/sse';

/**
 * Live streams across instances. Two production servers share one PostgreSQL and one Redis and read an
 * anvil of this file's own through a recording proxy (which relays its WebSocket too, so the node's
 * subscriptions can be counted). Exactly one of them follows the chain; a stream held on the other shows
 * the heads and transactions it publishes; killing the follower hands the lease over and the streams go
 * on; a stream moved to another instance resumes from its Last-Event-ID with nothing missed or repeated.
 * A third, hosted-mode server fronting the first polls first pages instead. What each event says is
 * compared with the node's blocks and the published history API. One story in order (a chain that
 * grows, instances that die): { shuffle: false }.
 */
const available = await requireServices(['postgres', 'redis'], 'live stream tests');

let anvil: Awaited<ReturnType<typeof spawnAnvil>>;
let proxy: RpcProxy;
let db: Awaited<ReturnType<typeof freshDatabase>>;
let a: LanternInstance;
let b: LanternInstance;
let accounts: Hex[];
let wallet: Hex;
const open: SseStream[] = [];

const node = rpcClient(() => anvil.url);
const rpc = node.call;

async function pay(from = accounts[0]!): Promise<Hex> {
  return (await sendMined(node, { from, to: wallet, value: 0x5af3107a4000n })).hash;
}

const head = async () => rpc<{ number: Hex; hash: Hex }>('eth_getBlockByNumber', ['latest', false]);

async function stream(instance: LanternInstance, path = `/api/live/wallets/${wallet}?chain=devnet`, headers: Record<string, string> = {}) {
  const s = await openSse(instance.url + path, { 'X-Forwarded-For': '198.51.100.1', ...headers });
  open.push(s);
  return s;
}

const live = async (i: LanternInstance) => (await (await fetch(`${i.url}/api/health`)).json()).live as { bus: string; streams: number; following: { chain_id: number; transport: string }[] };

/** The instance that follows chain 31337 now, waiting for one to (the lease is taken within seconds). */
async function follower(instances: LanternInstance[], ms = 20_000): Promise<LanternInstance> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const holding = [];
    for (const i of instances) if ((await live(i)).following.some((f) => f.chain_id === 31337)) holding.push(i);
    if (holding.length === 1) return holding[0]!;
    expect(holding.length, 'two instances follow the same chain').toBeLessThan(2);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('no instance followed the chain');
}

describe.skipIf(!available)('live streams on two instances sharing PostgreSQL and Redis', { shuffle: false }, () => {
  beforeAll(async () => {
    anvil = await spawnAnvil({ port: await freePort(), args: ['--chain-id', '31337'] });
    accounts = await rpc<Hex[]>('eth_accounts');
    wallet = getAddress(accounts[7]!);
    await pay();
    proxy = await startRpcProxy(anvil.url);
    db = await freshDatabase();
    await flushRedis();
    const env = {
      DATABASE_URL: db.url,
      REDIS_URL: REDIS_TEST_URL,
      EVM_RPC_URL: proxy.url,
      TRUSTED_PROXY: '1',
      LIVE_HEARTBEAT_S: '1',
      LIVE_LEASE_MS: '3000',
      LIVE_STREAMS_PER_IP: '4',
    };
    [a, b] = await Promise.all([startLantern(env), startLantern(env)]);
  }, 180_000);

  afterAll(async () => {
    for (const s of open) s.close();
    await Promise.allSettled([a?.stop(), b?.stop()]);
    await proxy?.stop();
    await anvil?.stop();
    await db?.drop();
  });

  it('follow nothing while nobody watches: the node hears no subscription, and no instance holds a lease', async () => {
    await new Promise((r) => setTimeout(r, 1500)); // a negative check: a supervisor tick or more on each instance
    expect(proxy.wsCalls).toEqual([]);
    expect((await live(a)).following).toEqual([]);
    expect((await live(b)).following).toEqual([]);
  });

  it('a stream on either instance shows the heads and transactions the one follower publishes, as the node and the history API have them', async () => {
    const onA = await stream(a);
    const onB = await stream(b);
    for (const s of [onA, onB]) {
      expect(s.status).toBe(200);
      expect(s.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(s.headers.get('cache-control')).toContain('no-transform');
      expect(s.headers.get('content-encoding')).toBeNull();
      expect(json(await s.waitFor((e) => e.event === 'hello'))).toEqual({ follows: true, interval_s: null, chain: 'devnet' });
      await s.waitFor((e) => e.event === 'head');
    }
    const leader = await follower([a, b]);
    const other = leader === a ? onB : onA;
    expect((await live(leader)).following[0]!.transport).toBe('websocket');

    await rpc('evm_mine');
    const mined = await head();
    for (const s of [onA, onB]) {
      const e = await s.waitFor((x) => x.event === 'head' && json(x).number === Number(mined.number));
      expect(json(e)).toEqual({ chain: '0x7a69', number: Number(mined.number), hash: mined.hash, epoch: 1 });
      expect(e.id).toBe(`1.${Number(mined.number)}.h`);
    }

    const hash = await pay(accounts[1]);
    const receipt = await rpc<{ blockNumber: Hex; transactionIndex: Hex }>('eth_getTransactionReceipt', [hash]);
    const tx = await other.waitFor((e) => e.event === 'tx' && json(e).hash === hash);
    expect(tx.id).toBe(`1.${Number(receipt.blockNumber)}.${Number(receipt.transactionIndex)}`);
    // The row is the published history's row.
    const api = await (await fetch(`${b.url}/api/v2.2/wallets/${wallet}/history?chain=devnet&limit=25`, { headers: { 'X-Forwarded-For': '198.51.100.9' } })).json();
    expect(json(tx)).toEqual(api.result[0]);
    // Each stream gets it once, followed by its head.
    for (const s of [onA, onB]) {
      await s.waitFor((e) => e.event === 'head' && json(e).number === Number(receipt.blockNumber));
      expect(s.events.filter((e) => e.event === 'tx' && json(e).hash === hash)).toHaveLength(1);
    }
    // Heartbeats keep the connection busy between events.
    expect(onA.comments + onB.comments).toBeGreaterThan(0);
  });

  it('the node sees one subscription however many streams are open, on either instance', async () => {
    for (const i of [a, b, a, b]) await stream(i, `/api/live/wallets/${wallet}?chain=devnet`, { 'X-Forwarded-For': `198.51.100.${20 + open.length}` });
    await stream(a, `/api/live/wallets/${getAddress(accounts[8]!)}?chain=devnet`, { 'X-Forwarded-For': '198.51.100.40' });
    await stream(b, '/api/live/heads?chain=devnet', { 'X-Forwarded-For': '198.51.100.41' });
    const before = open.map((s) => s.events.length);
    await rpc('evm_mine');
    const n = Number((await head()).number);
    await Promise.all(open.map((s) => s.waitFor((e) => e.event === 'head' && json(e).number === n)));
    expect(open.every((s, i) => s.events.length > before[i]!)).toBe(true);
    expect(proxy.wsCalls.filter((c) => c.method === 'eth_subscribe')).toEqual([{ method: 'eth_subscribe', params: ['newHeads'] }]);
    expect(proxy.wsOpen()).toBe(1);
  });

  it('refuse what is not a stream with the API’s JSON 400, and more streams from one address than allowed with 429', async () => {
    const bad = async (path: string, headers: Record<string, string> = {}) => {
      const res = await fetch(a.url + path, { headers: { 'X-Forwarded-For': '198.51.100.60', ...headers } });
      return { status: res.status, type: res.headers.get('content-type'), body: await res.json() };
    };
    expect(await bad('/api/live/wallets/0x12?chain=devnet')).toMatchObject({ status: 400, type: 'application/json', body: { code: 'invalid_parameter', parameter: 'address' } });
    expect(await bad(`/api/live/wallets/${wallet}?chain=nochain`)).toMatchObject({ status: 400, body: { code: 'invalid_parameter', parameter: 'chain' } });
    // A chain the node does not serve.
    expect(await bad(`/api/live/wallets/${wallet}?chain=eth`)).toMatchObject({ status: 400, body: { code: 'invalid_parameter', parameter: 'chain' } });
    expect(await bad(`/api/live/wallets/${wallet}?since=yesterday`)).toMatchObject({ status: 400, body: { parameter: 'since' } });
    expect(await bad(`/api/live/wallets/${wallet}`, { 'Last-Event-ID': '1.2' })).toMatchObject({ status: 400, body: { parameter: 'Last-Event-ID' } });
    expect(await bad('/api/live/heads?chain=sepolia')).toMatchObject({ status: 400, body: { parameter: 'chain' } });
    const post = await fetch(`${a.url}/api/live/wallets/${wallet}`, { method: 'POST', headers: { 'X-Forwarded-For': '198.51.100.60' } });
    expect(post.status).toBe(405);
    // HEAD checks the same and holds nothing open.
    const streams = (await live(a)).streams;
    const headOnly = await fetch(`${a.url}/api/live/wallets/${wallet}?chain=devnet`, { method: 'HEAD', headers: { 'X-Forwarded-For': '198.51.100.60' } });
    expect([headOnly.status, headOnly.headers.get('content-type')]).toEqual([200, 'text/event-stream; charset=utf-8']);
    expect((await fetch(`${a.url}/api/live/wallets/0x12`, { method: 'HEAD', headers: { 'X-Forwarded-For': '198.51.100.60' } })).status).toBe(400);
    expect((await live(a)).streams).toBe(streams);

    // LIVE_STREAMS_PER_IP=4, per instance.
    const ip = { 'X-Forwarded-For': '198.51.100.70' };
    for (let i = 0; i < 4; i++) expect((await stream(a, undefined, ip)).status).toBe(200);
    const fifth = await stream(a, undefined, ip);
    expect(fifth.status).toBe(429);
    expect(fifth.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(fifth.text)).toMatchObject({ code: 'too_many_streams' });
    // Another address is not held back by this one; nor is the same one on the other instance.
    expect((await stream(a, undefined, { 'X-Forwarded-For': '198.51.100.71' })).status).toBe(200);
    expect((await stream(b, undefined, ip)).status).toBe(200);
  });

  it('a stream reopened on the other instance with Last-Event-ID carries on: what was mined meanwhile once, nothing twice', async () => {
    const first = await stream(a, undefined, { 'X-Forwarded-For': '198.51.100.80' });
    await first.waitFor((e) => e.event === 'head');
    const seen = await pay(accounts[2]);
    await first.waitFor((e) => e.event === 'tx' && json(e).hash === seen);
    const last = (await first.waitFor((e) => e.event === 'head', 15_000, first.events.findIndex((e) => e.event === 'tx' && json(e).hash === seen))).id!;
    first.close();
    const missed = [await pay(accounts[3]), await pay(accounts[4])];
    const again = await stream(b, undefined, { 'X-Forwarded-For': '198.51.100.80', 'Last-Event-ID': last });
    for (const h of missed) await again.waitFor((e) => e.event === 'tx' && json(e).hash === h);
    const now = Number((await head()).number);
    await again.waitFor((e) => e.event === 'head' && json(e).number === now);
    const txs = again.events.filter((e) => e.event === 'tx').map((e) => json(e).hash);
    expect(txs).toEqual(missed);
  });

  it('a server told to stop ends its streams at once, and the chain’s lease passes on', async () => {
    const leader = await follower([a, b]);
    const survivor = leader === a ? b : a;
    const held = await stream(leader, undefined, { 'X-Forwarded-For': '198.51.100.90' });
    await held.waitFor((e) => e.event === 'head');
    const ended = held.ended.then((clean) => ({ clean, at: performance.now() }));
    await leader.restart();
    const up = performance.now();
    // The stream ended cleanly (EOF, not a reset) while the server was stopping, not when it was gone.
    expect((await ended).clean).toBe(true);
    expect((await ended).at).toBeLessThan(up);
    // Its lease was released, not left to run out: the other instance follows at its next tick.
    expect(await follower([survivor], 3_000)).toBe(survivor);
  });

  it('killing the following instance hands the lease over within seconds and streams on the other go on', async () => {
    const leader = await follower([a, b]);
    const survivor = leader === a ? b : a;
    const watching = await stream(survivor, undefined, { 'X-Forwarded-For': '198.51.100.100' });
    await watching.waitFor((e) => e.event === 'head');
    const subscriptions = proxy.wsCalls.filter((c) => c.method === 'eth_subscribe').length;
    await leader.kill();
    const t0 = performance.now();
    expect(await follower([survivor], 15_000)).toBe(survivor);
    const handover = performance.now() - t0;
    console.log(`lease handed over ${Math.round(handover)} ms after the follower was killed (LIVE_LEASE_MS 3000)`);
    expect(handover).toBeLessThan(10_000);
    const hash = await pay(accounts[5]);
    await watching.waitFor((e) => e.event === 'tx' && json(e).hash === hash);
    expect(proxy.wsCalls.filter((c) => c.method === 'eth_subscribe')).toHaveLength(subscriptions + 1);
    expect(proxy.wsOpen()).toBe(1);
    await leader.restart(); // for afterAll
  });
});

describe.skipIf(!available)('a hosted-mode Lantern polls first pages instead', () => {
  let node: LanternInstance;
  let hosted: LanternInstance;
  let hostedAnvil: Awaited<ReturnType<typeof spawnAnvil>>;

  beforeAll(async () => {
    hostedAnvil = await spawnAnvil({ port: await freePort(), args: ['--chain-id', '31337'] });
    node = await startLantern({ EVM_RPC_URL: hostedAnvil.url });
    hosted = await startLantern({
      DATA_API_KEY: 'live-hosted-key-0123456789',
      DATA_API_URL: node.url,
      AUTH_API_URL: `${node.url}/api/auth`,
      DEFAULT_CHAIN: 'devnet',
      LIVE_HOSTED_POLL_S: '5',
      RATE_LIMIT_PER_MINUTE: '3',
      TRUSTED_PROXY: '1',
    });
  }, 180_000);

  afterAll(async () => {
    await Promise.allSettled([hosted?.stop(), node?.stop()]);
    await hostedAnvil?.stop();
  });

  it('says how often it looks, sends new rows within that, and counts the stream as one request', async () => {
    const accts = (await (await fetch(hostedAnvil.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_accounts', params: [] }) })).json()).result as Hex[];
    const from = accts[0]!;
    const to = getAddress(accts[6]!);
    const send = async () =>
      (await (await fetch(hostedAnvil.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'eth_sendTransaction', params: [{ from, to, value: '0x1' }] }) })).json()).result as Hex;
    await send();
    const ip = { 'X-Forwarded-For': '203.0.113.5' };
    const s = await openSse(`${hosted.url}/api/live/wallets/${to}`, ip);
    expect(s.status).toBe(200);
    expect(json(await s.waitFor((e) => e.event === 'hello'))).toEqual({ follows: false, interval_s: 5, chain: 'devnet' });
    await new Promise((r) => setTimeout(r, 6000)); // one poll round passes with nothing new (its first read sets where the stream is)
    const hash = await send();
    const tx = await s.waitFor((e) => e.event === 'tx' && json(e).hash === hash, 30_000);
    console.log(`hosted mode: a new row reached the stream ${Math.round(tx.at - 6000)} ms after it was sent (polled every 5 s)`);
    const api = await (await fetch(`${node.url}/api/v2.2/wallets/${to}/history?chain=devnet&limit=25`)).json();
    expect(json(tx)).toEqual(api.result[0]);
    expect(s.events.some((e) => e.event === 'head')).toBe(false);
    // RATE_LIMIT_PER_MINUTE=3: the open stream was one; two more requests pass, the fourth is refused.
    const again = () => fetch(`${hosted.url}/api/v2.2/wallets/${to}/history?chain=devnet`, { headers: ip }).then((r) => r.status);
    expect([await again(), await again(), await again()]).toEqual([200, 200, 429]);
    s.close();
  });
});
