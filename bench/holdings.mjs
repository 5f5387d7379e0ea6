// What a wallet holds (issue 21): never-seen wallets each holding 500 never-seen ERC-20s, on their own
// anvil. Lantern's cold answer to GET /api/v2.2/wallets/{address}/tokens beside the node's own floor for
// the same question, measured in the same run just before it: one Multicall3 aggregate3 eth_call of the 500
// balanceOf (Multicall3's code placed by a state override, as Lantern does on a chain without it) plus one
// eth_getLogs of the Transfer logs naming the wallet, each timed alone and added (the "plus";
// until 2026-11-28 they ran side by side, the longer of the two, which no client can do for a never-seen
// wallet). One cold answer is a single sample whose spread (3.4-5.5x over four runs of one build) was
// wider than any change measured, so the figure judged is the median ratio over SAMPLES wallets, each with
// tokens of its own, once the server has answered a first such wallet (printed too: the first in a process
// also pays for code running for the first time). Then
// a never-seen wallet of tokens already known, warm answers (p50), and the eth_call's Lantern made,
// counted by a JSON-RPC relay between it and the node (batches counted per request inside). The first
// answer is checked complete: 500 tokens, each balance what was minted. The sampled wallets are asked of a
// second server that reaches the node directly, as the floor does: the relay reads each answer whole and
// passes it on from this process, a hop of the bench's own (about 12 ms of a cold answer, measured
// 2026-11-28), which only Lantern's side would otherwise pay.
//
//   benchHoldings()   from bench/run.mjs
//   node bench/holdings.mjs   (after `npm run build`)
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import {
  createClient,
  custom,
  decodeAbiParameters,
  decodeFunctionResult,
  deploylessCallViaBytecodeBytecode,
  encodeDeployData,
  encodeFunctionData,
  erc20Abi,
  getContractAddress,
  keccak256,
  multicall3Abi,
  pad,
  toHex,
} from 'viem';
import { multicall as viemMulticall } from 'viem/actions';
import { spawnAnvil } from '../devnet/evm/anvil.mjs';
import { freePort, startServer, untilReady } from './server.mjs';
import { rpcClient } from '../devnet/evm/rpc.mjs';
import { pct } from './stats.mjs';

const TOKENS = 500;
const PER_BLOCK = 100;
const WARM = 30;
const FLOOR_ROUNDS = 5;
/** Never-seen wallets of never-seen tokens measured after the first (the figure judged is their median). */
const SAMPLES = 7;
const MULTICALL3 = '0xcA11bde05977b3631167028862bE2a173976CA11';
const TARGETS = { coldTimesFloor: 3, warmP50Ms: 20 };

const round1 = (x) => Math.round(x * 10) / 10;

/** A JSON-RPC relay that counts the methods passing through it (each request of a batch on its own). */
async function countingRelay(target, port) {
  const methods = new Map();
  let busyMs = 0; // time the node spent answering, summed over requests (overlapping ones each counted)
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = Buffer.concat(chunks);
    try {
      const j = JSON.parse(body.toString('utf8'));
      for (const r of Array.isArray(j) ? j : [j]) methods.set(r.method, (methods.get(r.method) ?? 0) + 1);
    } catch {
      // forwarded as is
    }
    const t0 = performance.now();
    const up = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const answer = Buffer.from(await up.arrayBuffer());
    busyMs += performance.now() - t0;
    res.writeHead(up.status, { 'content-type': 'application/json' });
    res.end(answer);
  });
  await new Promise((r) => server.listen(port, '127.0.0.1', r));
  const busy = () => busyMs;
  const snapshot = () => Object.fromEntries(methods);
  const since = (before) => Object.fromEntries([...methods].map(([m, n]) => [m, n - (before[m] ?? 0)]).filter(([, n]) => n > 0));
  return { url: `http://127.0.0.1:${port}`, busy, snapshot, since, stop: () => new Promise((r) => server.close(r)) };
}

/**
 * TOKENS fresh tokens deployed and each minted to every wallet of `wallets` (a real Transfer log naming
 * it), PER_BLOCK transactions a block.
 */
async function seedGroup(rpc, deployer, wallets) {
  const token = JSON.parse(readFileSync(new URL('../devnet/evm/artifacts/Token.json', import.meta.url), 'utf8'));
  const nonce0 = Number(await rpc.call('eth_getTransactionCount', [deployer, 'pending']));
  const tokens = [];
  const specs = [];
  for (let i = 0; i < TOKENS; i++) {
    const address = getContractAddress({ from: deployer, nonce: BigInt(nonce0 + i) }).toLowerCase();
    // A different amount per token, so a balance read from the wrong token would not match.
    tokens.push({ address, balance: 10n ** 18n * BigInt(i + 1) + BigInt(i) });
    specs.push({ data: encodeDeployData({ abi: token.abi, bytecode: token.bytecode, args: [`Bench Token ${nonce0 + i}`, `BT${nonce0 + i}`, 18] }), gas: '0x2dc6c0' });
  }
  for (const w of wallets) {
    for (const t of tokens) specs.push({ to: t.address, data: encodeFunctionData({ abi: token.abi, functionName: 'mint', args: [w, t.balance] }), gas: '0x30d40' });
  }
  await rpc.call('evm_setAutomine', [false]);
  for (let i = 0; i < specs.length; i += PER_BLOCK) {
    await rpc.batch(specs.slice(i, i + PER_BLOCK).map((s, k) => ['eth_sendTransaction', [{ from: deployer, nonce: toHex(nonce0 + i + k), ...s }]]));
    await rpc.call('evm_mine', []);
  }
  await rpc.call('evm_setAutomine', [true]);
  const pending = await rpc.call('txpool_status');
  if (Number(pending.pending) !== 0) throw new Error(`setup left ${Number(pending.pending)} transactions unmined`);
  return tokens;
}

/** A wallet no one has used: an address from random bytes. */
const freshWallet = () => toHex(crypto.getRandomValues(new Uint8Array(20)));

/** Multicall3's runtime code, from the creation code viem sends in a deployless multicall (as lib/sources/evm-node/multicall.ts). */
async function multicall3RuntimeCode() {
  let sent;
  const offline = createClient({
    transport: custom({ async request({ method, params }) { if (method === 'eth_call') sent = params[0].data; throw new Error('offline'); } }, { retryCount: 0 }),
  });
  await viemMulticall(offline, { contracts: [{ address: MULTICALL3, abi: erc20Abi, functionName: 'totalSupply' }], deployless: true, allowFailure: true });
  const [creation] = decodeAbiParameters([{ type: 'bytes' }, { type: 'bytes' }], `0x${sent.slice(deploylessCallViaBytecodeBytecode.length)}`);
  const m = /^0x(?:[0-9a-f]{2})*?61([0-9a-f]{4})8061([0-9a-f]{4})6000396000f3/i.exec(creation);
  const [length, offset] = [Number.parseInt(m[1], 16), Number.parseInt(m[2], 16)];
  return `0x${creation.slice(2 + offset * 2, 2 + (offset + length) * 2)}`;
}

/**
 * The node's floor, as issue 21 words it: its own cost for one multicall of the 500 balances plus the log
 * query. Each is timed alone (one aggregate3 eth_call of the 500 balanceOf at the head; one eth_getLogs of
 * the wallet's incoming Transfers), and the floor is their sum: the node's work for the answer, whichever
 * order a client asks in (a never-seen wallet's tokens are known only from its logs, so Lantern asks one
 * after the other).
 */
async function floorOnce(rpc, wallet, tokens, code) {
  const data = encodeFunctionData({
    abi: multicall3Abi,
    functionName: 'aggregate3',
    args: [tokens.map((t) => ({ target: t.address, allowFailure: true, callData: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [wallet] }) }))],
  });
  const transfer = keccak256(toHex('Transfer(address,address,uint256)'));
  const head = await rpc.call('eth_blockNumber');
  let t0 = performance.now();
  const logs = await rpc.call('eth_getLogs', [{ fromBlock: '0x0', toBlock: head, topics: [transfer, null, pad(wallet, { size: 32 })] }]);
  const logsMs = performance.now() - t0;
  t0 = performance.now();
  const answer = await rpc.call('eth_call', [{ to: MULTICALL3, data, gas: '0x3b9aca00' }, head, { [MULTICALL3]: { code } }]);
  const callMs = performance.now() - t0;
  const results = decodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', data: answer });
  if (results.length !== tokens.length || !results.every((r) => r.success)) throw new Error('the floor multicall did not read every balance');
  if (logs.length !== tokens.length) throw new Error(`the floor log query found ${logs.length} Transfer logs, not ${tokens.length}`);
  return { logsMs, callMs };
}

/** The floor of FLOOR_ROUNDS rounds: the median log query plus the median multicall. */
async function floor(rpc, wallet, tokens, code) {
  const rounds = [];
  for (let i = 0; i < FLOOR_ROUNDS; i++) rounds.push(await floorOnce(rpc, wallet, tokens, code));
  return pct(rounds.map((r) => r.logsMs), 50) + pct(rounds.map((r) => r.callMs), 50);
}

/** The rows of the pages after `first` of a wallet's tokens answer, by cursor (`urlFor(wallet, query)`). */
async function laterRows(urlFor, w, first) {
  const rows = [];
  for (let p = first; p.cursor; ) {
    p = (await timed(urlFor(w, `&cursor=${encodeURIComponent(p.cursor)}`))).body;
    rows.push(...p.result);
  }
  return rows;
}

async function timed(url) {
  const t0 = performance.now();
  const res = await fetch(url);
  const body = await res.json();
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  return { ms: performance.now() - t0, body };
}

export async function benchHoldings({ log = console.log } = {}) {
  const anvil = await spawnAnvil({ port: await freePort(), args: ['--accounts', '4', '--gas-limit', '1000000000'] });
  const rpc = rpcClient(anvil.url);
  const relay = await countingRelay(anvil.url, await freePort());
  let server;
  let direct;
  try {
    const [deployer, wallet, second, other] = (await rpc.call('eth_accounts')).map((a) => a.toLowerCase());
    const t0 = performance.now();
    const tokens = await seedGroup(rpc, deployer, [wallet, second]);
    const groups = [];
    for (let i = 0; i < SAMPLES; i++) {
      const w = freshWallet();
      groups.push({ wallet: w, tokens: await seedGroup(rpc, deployer, [w]) });
    }
    const setupMs = Math.round(performance.now() - t0);
    log(`setup: ${SAMPLES + 1} sets of ${TOKENS} ERC-20s deployed and minted to ${SAMPLES + 2} wallets in ${setupMs} ms`);
    const code = await multicall3RuntimeCode();

    server = await startServer(await freePort(), { EVM_RPC_URL: relay.url, DEFAULT_CHAIN: 'devnet' });
    await untilReady(server.url);
    const tokensUrl = (w, q = '') => `${server.url}/api/v2.2/wallets/${w}/tokens?chain=devnet&limit=100${q}`;
    // The server has answered one tokens request for another wallet: its start-up and first contact with the node are not measured.
    await timed(tokensUrl(other));

    const floorMs = await floor(rpc, wallet, tokens, code);

    const before = relay.snapshot();
    const busy0 = relay.busy();
    const cold = await timed(tokensUrl(wallet));
    const coldCalls = relay.since(before);
    const coldNodeMs = relay.busy() - busy0;

    // Complete: every page of the answer (one block, by cursor), 500 tokens with the balances minted.
    const rows = [...cold.body.result, ...(await laterRows(tokensUrl, wallet, cold.body))];
    const held = new Map(rows.filter((r) => !r.native_token).map((r) => [r.token_address.toLowerCase(), r.balance]));
    const wrong = tokens.filter((t) => held.get(t.address) !== t.balance.toString());
    if (held.size !== TOKENS || wrong.length > 0) throw new Error(`the answer is not complete: ${held.size} tokens, ${wrong.length} of ${TOKENS} missing or wrong`);

    // A second never-seen wallet of the same 500 tokens: their name, symbol and decimals are kept by now,
    // so this is the cold answer less the reading of token facts.
    const knownBefore = relay.snapshot();
    const known = await timed(tokensUrl(second));
    const knownCalls = relay.since(knownBefore);
    if (known.body.result.length !== 100) throw new Error('the second wallet answered an incomplete first page');

    // Never-seen wallets of never-seen tokens, each beside a floor measured just before it, asked of a
    // server without the relay (see the top) that has first answered what the first server has, so its
    // code has run as often before the samples.
    direct = await startServer(await freePort(), { EVM_RPC_URL: anvil.url, DEFAULT_CHAIN: 'devnet' });
    await untilReady(direct.url);
    const directUrl = (w, q = '') => `${direct.url}/api/v2.2/wallets/${w}/tokens?chain=devnet&limit=100${q}`;
    await timed(directUrl(other));
    await laterRows(directUrl, wallet, (await timed(directUrl(wallet))).body);
    await timed(directUrl(second));
    const samples = [];
    for (const g of groups) {
      const f = await floor(rpc, g.wallet, g.tokens, code);
      const c = await timed(directUrl(g.wallet));
      if (c.body.result.length !== 100) throw new Error('a sampled wallet answered an incomplete first page');
      samples.push({ coldMs: c.ms, floorMs: f, ratio: c.ms / f });
    }

    const warm = [];
    const warmBefore = relay.snapshot();
    for (let i = 0; i < WARM; i++) warm.push((await timed(tokensUrl(wallet))).ms);
    const warmCalls = relay.since(warmBefore);

    return {
      tokens: TOKENS,
      setupMs,
      complete: true,
      samples: samples.length,
      coldMs: round1(pct(samples.map((x) => x.coldMs), 50)),
      floorMs: round1(pct(samples.map((x) => x.floorMs), 50)),
      coldTimesFloor: round1(pct(samples.map((x) => x.ratio), 50)),
      coldRatios: samples.map((x) => round1(x.ratio)),
      coldSamplesMs: samples.map((x) => round1(x.coldMs)),
      firstColdMs: round1(cold.ms),
      firstFloorMs: round1(floorMs),
      firstColdTimesFloor: round1(cold.ms / floorMs),
      coldEthCalls: coldCalls.eth_call ?? 0,
      coldRpcCalls: coldCalls,
      coldNodeBusyMs: round1(coldNodeMs),
      coldKnownTokensMs: round1(known.ms),
      coldKnownTokensEthCalls: knownCalls.eth_call ?? 0,
      warmP50Ms: round1(pct(warm, 50)),
      warmP95Ms: round1(pct(warm, 95)),
      warmEthCallsPerRequest: round1((warmCalls.eth_call ?? 0) / WARM),
      targets: TARGETS,
    };
  } finally {
    await server?.stop();
    await direct?.stop();
    await relay.stop();
    await anvil.stop();
  }
}

export function printHoldingsFigures(r) {
  const ok = (b) => (b ? 'ok' : 'OVER');
  console.log(`holdings: never-seen wallet of ${r.tokens} never-seen ERC-20s, first tokens answer, median of ${r.samples} wallets: ${r.coldMs} ms; node floor (one aggregate3 of ${r.tokens} balanceOf plus one eth_getLogs, each timed alone) ${r.floorMs} ms: ${r.coldTimesFloor}x  (target <= ${r.targets.coldTimesFloor}x: ${ok(r.coldTimesFloor <= r.targets.coldTimesFloor)})`);
  console.log(`  each wallet's answer / its floor: ${r.coldRatios.join(', ')}x (answers ${r.coldSamplesMs.join(', ')} ms)`);
  console.log(`  the process's first such wallet: ${r.firstColdMs} ms against ${r.firstFloorMs} ms, ${r.firstColdTimesFloor}x; its RPC calls: ${r.coldEthCalls} eth_call; all: ${JSON.stringify(r.coldRpcCalls)}; the node's time answering them, summed: ${r.coldNodeBusyMs} ms; answer complete (${r.tokens} tokens, balances as minted): ${r.complete}`);
  console.log(`  a second never-seen wallet of the same tokens (their facts already kept): ${r.coldKnownTokensMs} ms, ${r.coldKnownTokensEthCalls} eth_call`);
  console.log(`holdings: warm answer p50 ${r.warmP50Ms} ms, p95 ${r.warmP95Ms} ms, ${r.warmEthCallsPerRequest} eth_call per request  (target p50 <= ${r.targets.warmP50Ms} ms: ${ok(r.warmP50Ms <= r.targets.warmP50Ms)})`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printHoldingsFigures(await benchHoldings());
}
