import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  createPublicClient, decodeFunctionResult, encodeFunctionData, hashMessage, http, parseAbi, serializeErc6492Signature,
  type Hex,
} from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadManifest, seedSyntheticWallet, startEvmDevnet, transactionsTouching, type EvmDevnet, type Manifest,
} from '../../devnet/evm/index.mjs';
import { freePort } from '../support/ports';

// One cold start (seed into a temporary cache) and one warm start (anvil --load-state of that cache):
// every check below runs against the warm node, so it also proves the loaded state kept its history.
let cacheDir: string;
let cold: EvmDevnet;
let devnet: EvmDevnet;
let committed: Manifest;
let coldPortClosed: boolean;

async function rpc<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(devnet.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = await res.json();
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

function portAccepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => { s.destroy(); resolve(true); });
    s.once('error', () => resolve(false));
  });
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  committed = loadManifest();
  cacheDir = mkdtempSync(path.join(os.tmpdir(), 'lantern-devnet-evm-'));
  const port = await freePort();
  cold = await startEvmDevnet({ port, cacheDir });
  await cold.stop();
  coldPortClosed = !(await portAccepts(port));
  devnet = await startEvmDevnet({ port, cacheDir });
});

afterAll(async () => {
  await devnet?.stop();
  await cold?.stop();
  if (cacheDir) rmSync(cacheDir, { recursive: true, force: true });
});

// In written order: the first checks read the loaded state as seeded; the last ones mine on top of it.
describe('EVM devnet', { shuffle: false }, () => {
  it('seeds exactly the committed scenario, cold and warm', () => {
    expect(cold.warm).toBe(false);
    expect(devnet.warm).toBe(true);
    expect(cold.manifest).toEqual(committed);
    expect(devnet.manifest.transactions.map((t) => t.hash)).toEqual(committed.transactions.map((t) => t.hash));
    expect(devnet.startupMs).toBeLessThan(30_000);
    expect(cold.startupMs).toBeLessThan(30_000);
  });

  it('has the size the issue asks for', () => {
    const m = devnet.manifest;
    expect(Object.keys(m.accounts).length).toBeGreaterThanOrEqual(12);
    expect(m.transactions.length).toBeGreaterThanOrEqual(600);
    expect(m.stats.lastTimestamp - m.stats.firstTimestamp).toBeGreaterThanOrEqual(180 * 86_400);
    expect(transactionsTouching(m, m.accounts.alice.address).length).toBeGreaterThan(300);
    expect(transactionsTouching(m, m.accounts.dave.address).length).toBe(10);
    expect(transactionsTouching(m, m.accounts.mallory.address)).toEqual([]);
    for (const kind of ['eth_send', 'erc20_transfer', 'airdrop', 'nft_mint', 'nft_burn', 'erc1155_batch', 'erc1155_burn',
      'multisend', 'deploy', 'factory_deploy', 'revert', 'swap', 'wallet_execute']) {
      expect(m.stats.kinds[kind], kind).toBeGreaterThan(0);
    }
    // oscar is only ever an internal-call recipient
    for (const t of transactionsTouching(m, m.accounts.oscar.address)) {
      expect(t.nativeTransfers.some((n) => n.internal && n.to === m.accounts.oscar.address)).toBe(true);
    }
  });

  it('serves every seeded transaction, receipt and block after loading the state', async () => {
    const m = devnet.manifest;
    expect(Number(await rpc<string>('eth_blockNumber'))).toBe(m.stats.lastBlock);
    const res = await fetch(devnet.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(m.transactions.map((t, id) => ({ jsonrpc: '2.0', id, method: 'eth_getTransactionReceipt', params: [t.hash] }))),
    });
    const receipts = ((await res.json()) as { id: number; result: { status: Hex; blockHash: Hex; logs: unknown[] } }[])
      .sort((a, b) => a.id - b.id).map((r) => r.result);
    m.transactions.forEach((t, i) => {
      expect(Number(receipts[i].status), t.hash).toBe(t.status);
      expect(receipts[i].blockHash).toBe(t.blockHash);
    });
    const mid = m.transactions[300];
    const block = await rpc<{ timestamp: Hex; hash: Hex }>('eth_getBlockByNumber', [`0x${mid.blockNumber.toString(16)}`, false]);
    expect(Number(block.timestamp)).toBe(mid.timestamp);
    const tx = await rpc<{ from: string }>('eth_getTransactionByHash', [mid.hash]);
    expect(tx.from.toLowerCase()).toBe(mid.from);
    const logs = await rpc<unknown[]>('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }]);
    expect(logs.length).toBe(receipts.reduce((n, r) => n + r.logs.length, 0));
  });

  it('mines the reverted transactions with status 0', async () => {
    const reverted = devnet.manifest.transactions.filter((t) => t.kind === 'revert');
    expect(reverted.length).toBeGreaterThanOrEqual(1);
    for (const t of reverted) {
      const r = await rpc<{ status: Hex }>('eth_getTransactionReceipt', [t.hash]);
      expect(r.status).toBe('0x0');
    }
  });

  it('answers callTracer, ots_getInternalOperations and ots_search for internal transfers', async () => {
    const m = devnet.manifest;
    const oscar = m.accounts.oscar.address;
    const pay = transactionsTouching(m, oscar)[0];
    const trace = await rpc<{ calls: { to: string; value: Hex }[] }>('debug_traceTransaction', [pay.hash, { tracer: 'callTracer' }]);
    expect(trace.calls.some((c) => c.to.toLowerCase() === oscar && BigInt(c.value) > 0n)).toBe(true);
    const ops = await rpc<{ to: string }[]>('ots_getInternalOperations', [pay.hash]);
    expect(ops.some((o) => o.to.toLowerCase() === oscar)).toBe(true);
    const before = await rpc<{ txs: { hash: Hex }[]; lastPage: boolean }>('ots_searchTransactionsBefore', [oscar, 0, 25]);
    const after = await rpc<{ txs: { hash: Hex }[] }>('ots_searchTransactionsAfter', [oscar, 0, 25]);
    const expected = transactionsTouching(m, oscar).map((t) => t.hash).sort();
    expect(before.txs.map((t) => t.hash).sort()).toEqual(expected);
    expect(after.txs.map((t) => t.hash).sort()).toEqual(expected);
  });

  it('has an EIP-1271 wallet that accepts its owner and refuses other keys', async () => {
    const { eip1271 } = devnet.manifest;
    const owner = mnemonicToAccount(devnet.manifest.mnemonic, { addressIndex: eip1271.ownerIndex });
    const stranger = mnemonicToAccount(devnet.manifest.mnemonic, { addressIndex: 3 });
    expect(owner.address.toLowerCase()).toBe(eip1271.owner);
    const message = 'lantern.example wants you to sign in with your Ethereum account';
    const abi = parseAbi(['function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4)']);
    const check = async (signature: Hex) => {
      const data = encodeFunctionData({ abi, functionName: 'isValidSignature', args: [hashMessage(message), signature] });
      const out = await rpc<Hex>('eth_call', [{ to: eip1271.wallet, data }, 'latest']);
      return decodeFunctionResult({ abi, functionName: 'isValidSignature', data: out });
    };
    const good = await owner.signMessage({ message });
    const bad = await stranger.signMessage({ message });
    expect(await check(good)).toBe('0x1626ba7e');
    expect(await check(bad)).toBe('0xffffffff');

    // What the sign-in verification does: viem passes hashMessage(message) to isValidSignature.
    const client = createPublicClient({ transport: http(devnet.url) });
    expect(await client.verifyMessage({ address: eip1271.wallet, message, signature: good })).toBe(true);
    expect(await client.verifyMessage({ address: eip1271.wallet, message, signature: bad })).toBe(false);
    // EIP-6492: the not-yet-deployed wallet of the same owner.
    const cf = eip1271.counterfactual;
    expect(await rpc<Hex>('eth_getCode', [cf.address, 'latest'])).toBe('0x');
    const wrapped = serializeErc6492Signature({ address: cf.factory, data: cf.factoryData, signature: good });
    expect(await client.verifyMessage({ address: cf.address, message, signature: wrapped })).toBe(true);
  });

  it('serves on-chain NFT metadata with an SVG image and ERC-165', async () => {
    const m = devnet.manifest;
    const client = createPublicClient({ transport: http(devnet.url) });
    const held = m.final_nft_ownership.find((n) => n.standard === 'erc721' && n.contractKey === 'lights')!; // farLanterns' metadata is off chain
    const uri = await client.readContract({
      address: held.contract, abi: parseAbi(['function tokenURI(uint256) view returns (string)']), functionName: 'tokenURI', args: [BigInt(held.tokenId)],
    });
    expect(uri.startsWith('data:application/json;base64,')).toBe(true);
    const json = JSON.parse(Buffer.from(uri.split(',')[1], 'base64').toString('utf8'));
    expect(json.name).toBe(`Lantern Light #${held.tokenId}`);
    expect(json.image.startsWith('data:image/svg+xml;base64,')).toBe(true);
    expect(Buffer.from(json.image.split(',')[1], 'base64').toString('utf8')).toMatch(/^<svg /);
    expect(Array.isArray(json.attributes)).toBe(true);

    const erc165 = parseAbi(['function supportsInterface(bytes4) view returns (bool)']);
    const supports = (address: Hex, id: Hex) => client.readContract({ address, abi: erc165, functionName: 'supportsInterface', args: [id] });
    expect(await supports(m.contracts.lights.address, '0x80ac58cd')).toBe(true);
    expect(await supports(m.contracts.lights.address, '0x5b5e139f')).toBe(true);
    expect(await supports(m.contracts.items.address, '0xd9b67a26')).toBe(true);
    expect(await supports(m.contracts.items.address, '0x80ac58cd')).toBe(false);
    const itemUri = await client.readContract({
      address: m.contracts.items.address, abi: parseAbi(['function uri(uint256) view returns (string)']), functionName: 'uri', args: [1n],
    });
    expect(JSON.parse(Buffer.from(itemUri.split(',')[1], 'base64').toString('utf8')).name).toBe('Lamp Oil');
  });

  it("holds the holder's odd tokens and approvals as SCENARIO.md tells", async () => {
    const m = devnet.manifest;
    const client = createPublicClient({ transport: http(devnet.url) });
    const holder = m.accounts.holder.address;
    const c = m.contracts;
    const erc20 = parseAbi(['function balanceOf(address) view returns (uint256)', 'function allowance(address,address) view returns (uint256)']);
    const balanceAt = (token: Hex, blockNumber?: bigint) => client.readContract({ address: token, abi: erc20, functionName: 'balanceOf', args: [holder], blockNumber });
    // rLNT: a rebase moves the balance with no Transfer log in its block.
    const rebase = m.transactions.filter((t) => t.to === c.rlnt.address && t.kind === 'contract_call').at(-1)!;
    expect(rebase.tokenTransfers).toEqual([]);
    expect(await balanceAt(c.rlnt.address, BigInt(rebase.blockNumber))).toBeGreaterThan(await balanceAt(c.rlnt.address, BigInt(rebase.blockNumber - 1)));
    // TAX: a transfer of 1000 delivers 980 and sends 20 to the treasury.
    const taxed = m.transactions.find((t) => t.to === c.tax.address && t.from === holder && t.kind === 'erc20_transfer')!;
    expect(taxed.tokenTransfers.map((x) => x.formatted).sort()).toEqual(['20', '980']);
    // OLG: bytes32 name and symbol, transfer returns no data.
    const raw = await rpc<Hex>('eth_call', [{ to: c.olg.address, data: '0x06fdde03' }, 'latest']);
    expect(raw.length).toBe(66);
    expect(Buffer.from(raw.slice(2), 'hex').toString('utf8').replace(/\0+$/, '')).toBe('Old Lantern Gold');
    const sent = await rpc<Hex>('eth_call', [{ from: holder, to: c.olg.address, data: encodeFunctionData({ abi: parseAbi(['function transfer(address,uint256)']), functionName: 'transfer', args: [c.pool.address, 1n] }) }, 'latest']);
    expect(sent).toBe('0x');
    // BROKEN: balanceOf reverts for anyone.
    await expect(balanceAt(c.broken.address)).rejects.toThrow(/balanceOf is disabled/);
    // Approvals: unlimited, partly used (750 of 1000 left, with no Approval log for the use), revoked.
    const allowance = (token: Hex, spender: Hex) => client.readContract({ address: token, abi: erc20, functionName: 'allowance', args: [holder, spender] });
    expect(await allowance(c.usdc.address, c.pool.address)).toBe(2n ** 256n - 1n);
    expect(await allowance(c.tax.address, m.accounts.merchant.address)).toBe(750n * 10n ** 18n);
    expect(await allowance(c.olg.address, m.accounts.merchant.address)).toBe(0n);
    const h = m.holdings.holder;
    expect(h.approvals.map((a) => [a.tokenKey, a.spenderName, a.value === null ? null : a.value !== '0'])).toEqual(
      expect.arrayContaining([['usdc', 'pool', true], ['tax', 'merchant', true], ['olg', 'merchant', false], ['keys', 'merchant', true], ['keys', 'issuer', false]]),
    );
    expect(h.tokens.find((t) => t.tokenKey === 'broken')!.balance).toBeNull();
    expect(h.tokens.find((t) => t.tokenKey === 'lnt')!.balance).toBe('0');
  });

  it('adds a synthetic wallet without touching the scenario wallets', async () => {
    // First write after loading: anvil's clock is ahead of the head block here.
    const before = Number(await rpc<string>('eth_blockNumber'));
    expect(before).toBe(devnet.manifest.stats.lastBlock);
    const syn = await seedSyntheticWallet({ rpcUrl: devnet.url, count: 60 });
    expect(syn.count).toBe(60);
    expect(syn.firstBlock).toBe(before + 1);
    const named = new Set<string>(Object.values(devnet.manifest.accounts).map((a) => a.address));
    expect(named.has(syn.address)).toBe(false);
    const found = await rpc<{ txs: { from: string; to: string | null }[] }>('ots_searchTransactionsBefore', [syn.address, 0, 100]);
    expect(found.txs.length).toBe(60);
    for (const t of found.txs) {
      expect(named.has(t.from.toLowerCase() as `0x${string}`)).toBe(false);
      if (t.to) expect(named.has(t.to.toLowerCase() as `0x${string}`)).toBe(false);
    }
  });

  it('dates blocks mined after loading later than the seeded history', async () => {
    const head = Number(await rpc<string>('eth_blockNumber'));
    const spare = mnemonicToAccount(devnet.manifest.mnemonic, { addressIndex: 19 });
    const hash = await rpc<Hex>('eth_sendTransaction', [{ from: spare.address, to: spare.address, value: '0x1' }]);
    const client = createPublicClient({ transport: http(devnet.url) });
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    const block = await client.getBlock({ blockNumber: receipt.blockNumber });
    expect(receipt.blockNumber).toBe(BigInt(head + 1));
    expect(Number(block.timestamp)).toBeGreaterThan(devnet.manifest.stats.lastTimestamp);
  });

  it('stop() leaves no process and frees the port', async () => {
    expect(coldPortClosed).toBe(true);
    expect(processAlive(cold.pid)).toBe(false);
    // Its own node (a warm start from the same cache): the shared one serves the other checks, in any order.
    const port = await freePort();
    const own = await startEvmDevnet({ port, cacheDir });
    expect(processAlive(own.pid)).toBe(true);
    expect(await portAccepts(port)).toBe(true);
    await own.stop();
    expect(processAlive(own.pid)).toBe(false);
    expect(await portAccepts(port)).toBe(false);
  });
});
