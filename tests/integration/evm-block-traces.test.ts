import { readFileSync } from 'node:fs';
import { encodeDeployData, encodeFunctionData, type Abi, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnAnvil } from '../../devnet/evm/anvil.mjs';
import { historyPageSchema, type WalletTransaction } from '../../lib/interface/history';
import { receiptOf, rpcClient, type Rpc } from '../support/foreign-chain';
import { startLantern, type LanternInstance } from '../support/lantern';
import { freePort } from '../support/ports';
import { NODE_KINDS, startRpcProxy, type RpcProxy } from '../support/rpc-proxy';

/**
 * Traces per block (lib/sources/evm-node/tx-facts.ts): a wallet's page whose contract calls share a block
 * traces that block once (`trace_block`, or `debug_traceBlockByNumber` on a node without trace_), a lone
 * contract call is traced alone, and a plain transfer is not traced at all. The internal transfers shown
 * equal those of the node's own per-transaction trace (callTracer), the oracle.
 */

interface Frame { type: string; from: string; to?: string; value?: Hex; error?: string; calls?: Frame[] }

const art = JSON.parse(readFileSync(new URL('../../devnet/evm/artifacts/MultiSend.json', import.meta.url), 'utf8')) as { abi: Abi; bytecode: Hex };
let anvil: Awaited<ReturnType<typeof spawnAnvil>>;
let rpc: Rpc;
let wallet: string;
let shared: { block: number; hashes: string[] };
let lone: string;
let plain: string;
const hex = (n: number | bigint) => `0x${n.toString(16)}`;

const receipt = (hash: string) => receiptOf(rpc, hash);

/** Value that moved below the top level, from the node's own trace of the transaction alone. */
async function oracleInternal(hash: string): Promise<string[]> {
  const root = (await rpc.call('debug_traceTransaction', [hash, { tracer: 'callTracer' }])) as Frame;
  const out: string[] = [];
  const walk = (f: Frame, depth: number, reverted: boolean) => {
    const r = reverted || !!f.error;
    if (depth > 0 && !r && f.to && BigInt(f.value ?? '0x0') > 0n && ['CALL', 'CREATE', 'CREATE2', 'SELFDESTRUCT'].includes(f.type)) {
      out.push(`${f.from.toLowerCase()}>${f.to.toLowerCase()}:${BigInt(f.value!)}`);
    }
    for (const c of f.calls ?? []) walk(c, depth + 1, r);
  };
  walk(root, 0, false);
  return out.sort();
}

const shown = (t: WalletTransaction) =>
  t.native_transfers.filter((m) => m.internal_transaction).map((m) => `${m.from_address}>${m.to_address}:${m.value}`).sort();

async function firstPage(l: LanternInstance): Promise<WalletTransaction[]> {
  const res = await fetch(`${l.url}/api/v2.2/wallets/${wallet}/history?limit=25`);
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  return historyPageSchema.parse(body).result;
}

describe('internal transfers traced per block', { shuffle: false }, () => {
  beforeAll(async () => {
    anvil = await spawnAnvil({ port: await freePort(), args: ['--accounts', '12'] });
    rpc = rpcClient(anvil.url);
    const [deployer, w, other, ...rest] = (await rpc.call('eth_accounts', [])) as string[];
    wallet = w!.toLowerCase();
    const deployed = (await rpc.call('eth_sendTransaction', [{ from: deployer, data: encodeDeployData({ abi: art.abi, bytecode: art.bytecode }), gas: '0x4c4b40' }])) as string;
    const multiSend = (await receipt(deployed)).contractAddress!;
    const send = (from: string, to: string[], amounts: bigint[], value = amounts.reduce((a, b) => a + b, 0n)) =>
      rpc.call('eth_sendTransaction', [{ from, to: multiSend, value: hex(value), gas: '0x30d40', data: encodeFunctionData({ abi: art.abi, functionName: 'send', args: [to, amounts] }) }]) as Promise<string>;

    // One block: another sender's call first, four of the wallet's calls passing ETH on (one reverts:
    // nothing it passed on moved), and a plain transfer of the wallet's.
    await rpc.call('evm_setAutomine', [false]);
    await send(other!, [rest[0]!], [5n]);
    const hashes = [
      await send(w!, [rest[1]!], [1_000n]),
      await send(w!, [rest[2]!, rest[3]!], [2_000n, 3_000n]),
      await send(w!, [rest[4]!], [4_000n], 1n),
      await send(w!, [rest[5]!, rest[6]!, rest[7]!], [5_000n, 6_000n, 7_000n]),
    ];
    plain = (await rpc.call('eth_sendTransaction', [{ from: w, to: rest[8], value: '0x7', gas: '0x5208' }])) as string;
    await rpc.call('evm_mine', []);
    const block = Number((await receipt(hashes[0]!)).blockNumber);
    shared = { block, hashes };
    // The next block: one call of the wallet's alone.
    lone = await send(w!, [rest[1]!], [8_000n]);
    await rpc.call('evm_mine', []);
    await rpc.call('evm_setAutomine', [true]);
    const receipts = await Promise.all([...hashes, plain, lone].map(receipt));
    expect(receipts.slice(0, 5).map((r) => Number(r.blockNumber))).toEqual([block, block, block, block, block]);
    expect(receipts.map((r) => r.status)).toEqual(['0x1', '0x1', '0x0', '0x1', '0x1', '0x1']);
  }, 120_000);

  afterAll(async () => {
    await anvil?.stop();
  });

  it('rows first: the wallet page shows the rows while their block trace is still being read, marked so; the published API waits and answers complete rows', async () => {
    const proxy: RpcProxy = await startRpcProxy(anvil.url);
    // The shared block's trace is held: the page's internal transfers cannot be known until it is let go.
    proxy.hold = (c) => c.method === 'trace_block' && Number(c.params[0]) === shared.block;
    const lantern = await startLantern({ EVM_RPC_URL: proxy.url, UPSTREAM_CACHE: 'off' });
    try {
      // The published API asked while the trace is held must not answer partial rows.
      let apiAnswered = false;
      const api = firstPage(lantern).then((page) => ((apiAnswered = true), page));
      // The wallet page streams its rows without waiting for the trace: read until they are there.
      const res = await fetch(`${lantern.url}/wallet/${wallet}`);
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let html = '';
      // The list, whole: up to the end of the ordered list that holds the rows.
      const listRead = () => html.includes('data-tx-hash=') && html.indexOf('</ol>', html.indexOf('data-tx-hash=')) > 0;
      while (!listRead()) {
        const { done, value } = await reader.read();
        if (done) break;
        html += decoder.decode(value, { stream: true });
      }
      await reader.cancel();
      // Every contract call of the held block says it is checking; the plain transfer (no code ran) never
      // does; the lone call (its own trace, not held) may or may not be done by then.
      const checking = [...html.matchAll(/data-tx-hash="(0x[0-9a-f]+)"[\s\S]*?(?=data-tx-hash=|$)/g)]
        .filter((m) => m[0].includes('data-role="checking"'))
        .map((m) => m[1]!.toLowerCase());
      expect(checking.filter((h) => h !== lone.toLowerCase()).sort(), html.slice(-3000)).toEqual(shared.hashes.map((h) => h.toLowerCase()).sort());
      expect(html).toContain(`data-tx-hash="${plain.toLowerCase()}"`);
      expect(checking).not.toContain(plain.toLowerCase());
      expect(proxy.held).toBeGreaterThan(0);
      expect(apiAnswered).toBe(false);

      proxy.release();
      const page = await api;
      expect(page.some((t) => 'internal_pending' in t)).toBe(false);
      for (const t of page) expect(shown(t), t.hash).toEqual(await oracleInternal(t.hash));
      expect(page.flatMap(shown).length).toBe(7);
      // The block was traced once, for the page and the API together.
      expect(proxy.calls.filter((c) => c.method === 'trace_block' && Number(c.params[0]) === shared.block).length).toBe(1);
    } finally {
      proxy.release();
      await lantern.stop();
      await proxy.stop();
    }
  }, 180_000);

  for (const kind of ['trace_', 'debug_'] as const) {
    it(`${kind === 'trace_' ? 'trace_block' : 'debug_traceBlockByNumber (Geth-like: no trace_)'}: one block trace, the oracle's transfers`, async () => {
      const proxy: RpcProxy = await startRpcProxy(anvil.url);
      if (kind === 'debug_') proxy.refuseMethods = NODE_KINDS.gethLike;
      const lantern = await startLantern({ EVM_RPC_URL: proxy.url, UPSTREAM_CACHE: 'off' });
      try {
        const page = await firstPage(lantern);
        const all = [...shared.hashes, plain, lone];
        expect(page.map((t) => t.hash).sort()).toEqual([...all].sort());
        for (const t of page) expect(shown(t), t.hash).toEqual(await oracleInternal(t.hash));
        // The page does show internal transfers (the reverted call's are not among them).
        expect(page.flatMap(shown).length).toBe(7);

        const [blockMethod, txMethod] = kind === 'debug_' ? ['debug_traceBlockByNumber', 'debug_traceTransaction'] : ['trace_block', 'trace_transaction'];
        const blockTraces = proxy.calls.filter((c) => c.method === blockMethod && Number(c.params[0]) === shared.block);
        expect(blockTraces.length).toBe(1);
        const txTraces = proxy.calls.filter((c) => /^(debug_traceTransaction|trace_transaction)$/.test(c.method)).map((c) => [c.method, String(c.params[0]).toLowerCase()]);
        expect(txTraces).toEqual([[txMethod, lone.toLowerCase()]]);
        // No trace of the lone call's block as a whole, nor of the plain transfer.
        expect(proxy.calls.filter((c) => c.method === blockMethod && Number(c.params[0]) === shared.block + 1)).toEqual([]);
      } finally {
        await lantern.stop();
        await proxy.stop();
      }
    }, 180_000);
  }
});
