import http from 'node:http';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import {
  concat,
  createPublicClient,
  createWalletClient,
  decodeEventLog,
  encodeFunctionData,
  http as viemHttp,
  pad,
  parseAbi,
  toFunctionSelector,
  zeroAddress,
  type Abi,
  type Address,
  type Hex,
} from 'viem';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnAnvil } from '../../devnet/evm/anvil.mjs';
import { historyPageSchema } from '../../lib/interface/history';
import { transactionSchema, type TransactionDetail } from '../../lib/interface/transaction';
import { startLantern, type LanternInstance } from '../support/lantern';
import { freePort } from '../support/ports';

// Calls and events of well-known packages, deployed on a chain of the test's own from their published
// artifacts (Uniswap v2 and v3, WETH9, OpenZeppelin proxies, Safe, the ERC-4337 EntryPoint, ENS) and
// called: every call and every log is named by a Lantern with no network (the shipped signature table
// and the devnet's exact ABIs), including calls through an EIP-1967 proxy, a beacon proxy, an EIP-1167
// clone and a Safe-style singleton proxy to a devnet contract whose functions no table has. What each log
// is comes from viem decoding it with the emitting contract's own ABI, not from Lantern. A second
// Lantern reads a local stand-in of a Sourcify server and of a signature database (real sockets): a
// contract only the stand-in knows is named once the background fetch is done, through a proxy too;
// a looked-up signature names a call; a crafted selector collision is never named.

const require = createRequire(import.meta.url);
type Artifact = { abi: Abi; bytecode: Hex };
function artifact(pkgPath: string): Artifact {
  const j = JSON.parse(readFileSync(require.resolve(pkgPath), 'utf8'));
  const code = (j.bytecode?.object ?? j.bytecode ?? j.evm?.bytecode?.object) as string;
  return { abi: j.abi as Abi, bytecode: (code.startsWith('0x') ? code : `0x${code}`) as Hex };
}
const devnetArtifact = (name: string): Artifact => JSON.parse(readFileSync(`devnet/evm/artifacts/${name}.json`, 'utf8'));

const A = {
  weth: artifact('@uniswap/v2-periphery/build/WETH9.json'),
  v2Factory: artifact('@uniswap/v2-core/build/UniswapV2Factory.json'),
  v2Pair: artifact('@uniswap/v2-core/build/UniswapV2Pair.json'),
  v3Factory: artifact('@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json'),
  v3Pool: artifact('@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json'),
  erc1967: artifact('@openzeppelin/contracts/build/contracts/ERC1967Proxy.json'),
  beacon: artifact('@openzeppelin/contracts/build/contracts/UpgradeableBeacon.json'),
  beaconProxy: artifact('@openzeppelin/contracts/build/contracts/BeaconProxy.json'),
  safe: artifact('@safe-global/safe-contracts/build/artifacts/contracts/Safe.sol/Safe.json'),
  safeFactory: artifact('@safe-global/safe-contracts/build/artifacts/contracts/proxies/SafeProxyFactory.sol/SafeProxyFactory.json'),
  safeProxy: artifact('@safe-global/safe-contracts/build/artifacts/contracts/proxies/SafeProxy.sol/SafeProxy.json'),
  entryPoint: artifact('@account-abstraction/contracts/artifacts/EntryPoint.json'),
  ens: artifact('@ensdomains/ens/build/contracts/ENSRegistry.json'),
  pool: devnetArtifact('FixedRatePool'),
};

/** A contract no package and no devnet artifact has: only the stand-in Sourcify server knows its ABI. */
const LAMP_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Lamp {
  event Lit(address indexed by, uint256 brightness);
  function lanternLight(uint256 brightness) external { emit Lit(msg.sender, brightness); }
}`;
function compileLamp(): Artifact {
  const solc = require('solc');
  const out = JSON.parse(
    solc.compile(JSON.stringify({ language: 'Solidity', sources: { 'Lamp.sol': { content: LAMP_SOURCE } }, settings: { evmVersion: 'cancun', outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } } })),
  );
  const c = out.contracts['Lamp.sol'].Lamp;
  return { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
}

/**
 * Functions only the stand-in signature database knows. The two COLLISION signatures share a selector
 * (found by brute force): a word above 2^160 decodes exactly only as the uint256 one; an address-sized
 * word decodes exactly as both.
 */
const LOOKUP_ONLY = 'lanternLookupOnly(uint256)';
const COLLISION = ['lantern_n4d(address)', 'lantern_1f9v(uint256)'];

interface Sent {
  hash: Hex;
  from: Address;
  /** The function the test called (null: a call the network-off Lantern must leave unnamed). */
  method: string;
}

let anvil: Awaited<ReturnType<typeof spawnAnvil>>;
let standIn: http.Server;
const standInSeen: string[] = [];
let offline: LanternInstance;
let online: LanternInstance;
const sent: Sent[] = [];
/** Which ABI each address's logs are read with (the test's own knowledge, not Lantern's). */
const emitterAbi = new Map<string, Abi>();
const lamp = { direct: null as Sent | null, proxied: null as Sent | null, lookup: null as Sent | null, oneFits: null as Sent | null, bothFit: null as Sent | null };

beforeAll(async () => {
  anvil = await spawnAnvil({ port: await freePort(), args: ['--hardfork', 'prague', '--disable-code-size-limit', '--accounts', '4'] });
  const transport = viemHttp(anvil.url);
  const pub = createPublicClient({ chain: foundry, transport });
  const [me, other] = (await pub.request({ method: 'eth_accounts' } as never)) as Address[];
  const wallet = createWalletClient({ chain: foundry, transport, account: me });

  const deploy = async (a: Artifact, args: unknown[] = [], label?: Abi): Promise<Address> => {
    const hash = await wallet.deployContract({ abi: a.abi, bytecode: a.bytecode, args } as never);
    const r = await pub.waitForTransactionReceipt({ hash });
    expect(r.status, 'a deployment reverted').toBe('success');
    emitterAbi.set(r.contractAddress!.toLowerCase(), label ?? a.abi);
    return r.contractAddress!;
  };
  const call = async (to: Address, abi: Abi, functionName: string, args: unknown[] = [], value = 0n, record = true): Promise<Sent> => {
    const data = encodeFunctionData({ abi, functionName, args } as never);
    const hash = await wallet.sendTransaction({ to, data, value, gas: 12_000_000n });
    const r = await pub.waitForTransactionReceipt({ hash });
    expect(r.status, `${functionName} reverted`).toBe('success');
    const s = { hash, from: me, method: functionName };
    if (record) sent.push(s);
    return s;
  };

  // WETH9 twice: the tokens of the pools below.
  const wethA = await deploy(A.weth);
  const wethB = await deploy(A.weth);
  await call(wethA, A.weth.abi, 'deposit', [], 10n ** 20n);
  await call(wethB, A.weth.abi, 'deposit', [], 10n ** 20n);
  await call(wethA, A.weth.abi, 'approve', [other, 5n]);
  await call(wethB, A.weth.abi, 'withdraw', [10n ** 18n]);

  // Uniswap v2: a pair, liquidity, a swap.
  const v2 = await deploy(A.v2Factory, [me]);
  await call(v2, A.v2Factory.abi, 'createPair', [wethA, wethB]);
  const pair = (await pub.readContract({ address: v2, abi: A.v2Factory.abi, functionName: 'getPair', args: [wethA, wethB] })) as Address;
  emitterAbi.set(pair.toLowerCase(), A.v2Pair.abi);
  await call(wethA, A.weth.abi, 'transfer', [pair, 10n ** 19n]);
  await call(wethB, A.weth.abi, 'transfer', [pair, 10n ** 19n]);
  await call(pair, A.v2Pair.abi, 'mint', [me]);
  await call(wethA, A.weth.abi, 'transfer', [pair, 10n ** 17n]);
  const [r0, r1] = (await pub.readContract({ address: pair, abi: A.v2Pair.abi, functionName: 'getReserves' })) as [bigint, bigint];
  const token0 = ((await pub.readContract({ address: pair, abi: A.v2Pair.abi, functionName: 'token0' })) as string).toLowerCase();
  const out = 10n ** 16n;
  await call(pair, A.v2Pair.abi, 'swap', token0 === wethA.toLowerCase() ? [0n, out, me, '0x'] : [out, 0n, me, '0x']);
  expect(r0 > 0n && r1 > 0n).toBe(true);

  // Uniswap v3: a pool, initialised.
  const v3 = await deploy(A.v3Factory);
  await call(v3, A.v3Factory.abi, 'createPool', [wethA, wethB, 3000]);
  const pool = (await pub.readContract({ address: v3, abi: A.v3Factory.abi, functionName: 'getPool', args: [wethA, wethB, 3000] })) as Address;
  emitterAbi.set(pool.toLowerCase(), A.v3Pool.abi);
  await call(pool, A.v3Pool.abi, 'initialize', [2n ** 96n]);

  // The ERC-4337 EntryPoint and ENS.
  const entryPoint = await deploy(A.entryPoint);
  await call(entryPoint, A.entryPoint.abi, 'depositTo', [other], 10n ** 15n);
  const ens = await deploy(A.ens);
  await call(ens, A.ens.abi, 'setSubnodeOwner', [pad('0x0'), pad('0x1234'), other]);

  // A Safe: created by the proxy factory, then executing a call (signed by its owner sending it).
  const singleton = await deploy(A.safe);
  const safeFactory = await deploy(A.safeFactory);
  const setup = encodeFunctionData({ abi: A.safe.abi, functionName: 'setup', args: [[me], 1n, zeroAddress, '0x', zeroAddress, zeroAddress, 0n, zeroAddress] } as never);
  const created = await call(safeFactory, A.safeFactory.abi, 'createProxyWithNonce', [singleton, setup, 1n]);
  const safeAddress = decodeEventLog({
    abi: A.safeFactory.abi,
    ...(await pub.getTransactionReceipt({ hash: created.hash })).logs.find((l) => l.address.toLowerCase() === safeFactory.toLowerCase())!,
  } as never).args as unknown as { proxy: Address };
  emitterAbi.set(safeAddress.proxy.toLowerCase(), A.safe.abi);
  await wallet.sendTransaction({ to: safeAddress.proxy, value: 10n ** 16n }).then((hash) => pub.waitForTransactionReceipt({ hash }));
  const signature = concat([pad(me), pad('0x0'), '0x01']);
  await call(safeAddress.proxy, A.safe.abi, 'execTransaction', [
    wethA, 10n ** 15n, encodeFunctionData({ abi: A.weth.abi, functionName: 'deposit' }), 0, 0n, 0n, 0n, zeroAddress, zeroAddress, signature,
  ]);

  // The proxies: each one in front of a devnet FixedRatePool, whose swapAForB no package has.
  const impl = await deploy(A.pool, [wethA, wethB]);
  // OpenZeppelin 5.7's proxies refuse to be deployed without an initialising call: a harmless view one.
  const init = encodeFunctionData({ abi: A.pool.abi, functionName: 'tokenA' });
  const erc1967 = await deploy(A.erc1967, [impl, init], A.pool.abi);
  const beacon = await deploy(A.beacon, [impl, me]);
  const beaconProxy = await deploy(A.beaconProxy, [beacon, init], A.pool.abi);
  const cloneHash = await wallet.sendTransaction({ data: `0x3d602d80600a3d3981f3363d3d373d3d3d363d73${impl.slice(2).toLowerCase()}5af43d82803e903d91602b57fd5bf3` });
  const clone = (await pub.waitForTransactionReceipt({ hash: cloneHash })).contractAddress!;
  emitterAbi.set(clone.toLowerCase(), A.pool.abi);
  const safeStyle = await deploy(A.safeProxy, [impl], A.pool.abi);
  for (const proxy of [erc1967, beaconProxy, clone, safeStyle]) {
    await call(wethB, A.weth.abi, 'transfer', [proxy, 10n ** 18n]);
    await call(wethA, A.weth.abi, 'approve', [proxy, 1000n]);
    await call(proxy, A.pool.abi, 'swapAForB', [1000n, 0n]);
  }

  // Only the stand-in servers know these.
  const lampArtifact = compileLamp();
  const lampAddress = await deploy(lampArtifact);
  const lampProxy = await deploy(A.erc1967, [lampAddress, encodeFunctionData({ abi: lampArtifact.abi, functionName: 'lanternLight', args: [0n] })], lampArtifact.abi);
  lamp.direct = await call(lampAddress, lampArtifact.abi, 'lanternLight', [7n], 0n, false);
  lamp.proxied = await call(lampProxy, lampArtifact.abi, 'lanternLight', [9n], 0n, false);
  lamp.lookup = await call(other, parseAbi([`function ${LOOKUP_ONLY}`] as string[]), 'lanternLookupOnly', [1n], 0n, false);
  lamp.oneFits = await call(other, parseAbi([`function ${COLLISION[1]}`] as string[]), 'lantern_1f9v', [2n ** 200n], 0n, false);
  lamp.bothFit = await call(other, parseAbi([`function ${COLLISION[1]}`] as string[]), 'lantern_1f9v', [5n], 0n, false);

  standIn = http.createServer((req, res) => {
    standInSeen.push(req.url ?? '');
    const u = new URL(req.url ?? '/', 'http://x');
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const m = /^\/v2\/contract\/(\d+)\/(0x[0-9a-f]{40})$/.exec(u.pathname);
    if (m) {
      if (m[1] === '31337' && m[2] === lampAddress.toLowerCase()) return json(200, { abi: lampArtifact.abi, match: 'exact_match', chainId: m[1], address: m[2] });
      return json(404, { customCode: 'not_found', message: 'not verified' });
    }
    if (u.pathname === '/signature-database/v1/lookup') {
      const fns = Object.fromEntries(
        (u.searchParams.get('function') ?? '').split(',').filter(Boolean).map((h) => {
          const list = [LOOKUP_ONLY, ...COLLISION].filter((s) => toFunctionSelector(s) === h).map((name) => ({ name, filtered: false }));
          return [h, list.length ? list : null];
        }),
      );
      return json(200, { ok: true, result: { function: fns, event: {} } });
    }
    json(404, { message: 'no such path' });
  });
  await new Promise<void>((r) => standIn.listen(0, '127.0.0.1', r));
  const standInUrl = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`;

  [offline, online] = await Promise.all([
    startLantern({ EVM_RPC_URL: anvil.url }),
    startLantern({ EVM_RPC_URL: anvil.url, SOURCIFY_URL: standInUrl, SIGNATURE_LOOKUP_URL: standInUrl, UPSTREAM_CACHE: 'off' }),
  ]);
}, 300_000);

afterAll(async () => {
  await Promise.allSettled([offline?.stop(), online?.stop(), anvil?.stop(), new Promise((r) => (standIn ? standIn.close(r) : r(null)))]);
});

async function verbose(l: LanternInstance, hash: string): Promise<TransactionDetail> {
  const res = await fetch(`${l.url}/api/v2.2/transaction/${hash}/verbose?chain=0x7a69`);
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  return transactionSchema.parse(body);
}

const text = (v: unknown): string => (Array.isArray(v) ? `[${v.map(text).join(',')}]` : String(v)).toLowerCase();

async function until<T>(what: string, fn: () => Promise<T | null | undefined>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('calls and events of well-known packages, with no network', () => {
  it('every call is named by its function, every log by its event with the values the emitting contract gives', async () => {
    expect(sent.length).toBeGreaterThan(20);
    for (const s of sent) {
      const tx = await verbose(offline, s.hash);
      expect(tx.decoded_call?.label, `${s.method} ${s.hash}`).toBe(s.method);
      expect(tx.logs.length).toBeGreaterThan(0);
      for (const l of tx.logs) {
        const abi = emitterAbi.get(l.address.toLowerCase());
        expect(abi, `a log of ${l.address} the test cannot read`).toBeDefined();
        const topics = [l.topic0, l.topic1, l.topic2, l.topic3].filter(Boolean) as [Hex, ...Hex[]];
        const want = decodeEventLog({ abi: abi!, topics, data: l.data as Hex, strict: true });
        // In the ABI's order (viem's object lists indexed arguments first).
        const item = abi!.find((i) => i.type === 'event' && i.name === want.eventName && i.inputs.filter((p) => p.indexed).length === topics.length - 1) as unknown as { inputs: { name: string }[] };
        const values = Array.isArray(want.args) ? want.args : item.inputs.map((p) => (want.args as unknown as Record<string, unknown>)[p.name]);
        expect(l.decoded_event, `${want.eventName} in ${s.method}`).toBeTruthy();
        expect(l.decoded_event!.label).toBe(want.eventName);
        expect(l.decoded_event!.params.map((p) => p.value.toLowerCase())).toEqual(values.map(text));
      }
    }
  });

  it('the calls through the four kinds of proxy are named by the implementation (no table has swapAForB), their logs too', async () => {
    const swaps = sent.filter((s) => s.method === 'swapAForB');
    expect(swaps).toHaveLength(4);
    for (const s of swaps) {
      const tx = await verbose(offline, s.hash);
      expect(tx.decoded_call).toMatchObject({ label: 'swapAForB', signature: 'swapAForB(uint256,uint256)', params: [{ name: 'amountIn', value: '1000' }, { name: 'minOut', value: '0' }] });
      expect(tx.logs.find((l) => l.address.toLowerCase() === tx.to_address)?.decoded_event).toMatchObject({ label: 'Swap', params: [{ name: 'trader' }, { name: 'tokenIn' }, { name: 'amountIn', value: '1000' }, { name: 'amountOut' }] });
    }
  });

  it("the sender's history rows carry the same method names", async () => {
    const from = sent[0].from;
    const res = await fetch(`${offline.url}/api/v2.2/wallets/${from}/history?chain=0x7a69&limit=100`);
    const page = historyPageSchema.parse(await res.json());
    const labels = new Map(page.result.map((t) => [t.hash.toLowerCase(), t.method_label]));
    for (const s of sent) expect(labels.get(s.hash.toLowerCase()), s.method).toBe(s.method);
  });

  it('what only the online sources know stays unnamed with no network', async () => {
    for (const s of [lamp.direct!, lamp.proxied!, lamp.lookup!, lamp.oneFits!, lamp.bothFit!]) expect((await verbose(offline, s.hash)).decoded_call).toBeNull();
  });
});

describe('the optional online sources (a stand-in Sourcify server and signature database)', () => {
  it('a verified ABI names a contract and a call through its proxy once fetched in the background', async () => {
    for (const s of [lamp.direct!, lamp.proxied!]) {
      const tx = await until(`${s.hash} named`, async () => {
        const t = await verbose(online, s.hash);
        return t.decoded_call ? t : null;
      });
      expect(tx.decoded_call).toMatchObject({ label: 'lanternLight', params: [{ name: 'brightness' }] });
      expect(tx.logs[0].decoded_event).toMatchObject({ label: 'Lit', params: [{ name: 'by' }, { name: 'brightness' }] });
    }
    expect(standInSeen.some((u) => u.startsWith('/v2/contract/31337/'))).toBe(true);
  });

  it('a looked-up signature names a call; a crafted collision is never given one of its names', async () => {
    const named = await until('the lookup answered', async () => {
      const t = await verbose(online, lamp.lookup!.hash);
      return t.decoded_call ? t : null;
    });
    expect(named.decoded_call).toMatchObject({ label: 'lanternLookupOnly', signature: LOOKUP_ONLY, params: [{ name: '0', value: '1' }] });
    // The selector's two candidates: where only one decodes the data exactly it is named...
    const one = await until('the collision looked up', async () => {
      const t = await verbose(online, lamp.oneFits!.hash);
      return t.decoded_call ? t : null;
    });
    expect(one.decoded_call).toMatchObject({ label: 'lantern_1f9v', params: [{ value: (2n ** 200n).toString() }] });
    // ...and the same selector, now known, with data both decode exactly: neither is chosen.
    expect((await verbose(online, lamp.bothFit!.hash)).decoded_call).toBeNull();
    const res = await fetch(`${online.url}/api/v2.2/wallets/${lamp.bothFit!.from}/history?chain=0x7a69&limit=10`);
    const rows = historyPageSchema.parse(await res.json()).result;
    expect(rows.find((t) => t.hash.toLowerCase() === lamp.oneFits!.hash.toLowerCase())?.method_label).toBe('lantern_1f9v');
    const row = rows.find((t) => t.hash.toLowerCase() === lamp.bothFit!.hash.toLowerCase());
    expect(row?.method_label).toBeNull();
  });
});
