import { readFileSync } from 'node:fs';
import { decodeEventLog, decodeFunctionData, type Abi, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadManifest, type TxKind } from '../../devnet/evm/index.mjs';
import { spawnAnvil } from '../../devnet/evm/anvil.mjs';
import { startLantern, type LanternInstance } from '../support/lantern';
import { freePort } from '../support/ports';
import { rpcClient } from '../support/rpc';

/**
 * GET /api/v2.2/transaction/{hash} and /verbose, node mode on the shared seeded devnet and hosted mode
 * fronting it; every expected value is read from the node (eth_getTransactionByHash, the receipt,
 * debug_traceTransaction). The pending case runs on a bare anvil of its own with automine off.
 */
const UPSTREAM_KEY = 'tx-hosted-key-0123456789';
const m = loadManifest();
const KINDS: [string, TxKind][] = [
  ['send', 'eth_send'],
  ['token send', 'erc20_transfer'],
  ['swap', 'swap'],
  ['NFT batch', 'erc1155_batch'],
  ['contract creation', 'deploy'],
  ['reverted', 'revert'],
  ['internal fan-out', 'multisend'],
];
const sample = (kind: TxKind) => m.transactions.find((t) => t.kind === kind)!.hash;

let node: LanternInstance;
let hosted: LanternInstance;
let rpcUrl: string;

const rpc = rpcClient(() => rpcUrl).call;
async function get(base: string, path: string) {
  const res = await fetch(base + path, { headers: { 'X-API-Key': UPSTREAM_KEY } });
  return { status: res.status, json: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** RFC 4180: quoted fields may hold commas, quotes (doubled) and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = '';
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') endField();
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endField();
      rows.push(row);
      row = [];
    } else field += ch;
  }
  if (field !== '' || row.length) {
    endField();
    rows.push(row);
  }
  return rows;
}

interface Trace { calls?: Trace[] }
const countCalls = (t: Trace): number => (t.calls ?? []).reduce((n, c) => n + 1 + countCalls(c), 0);

beforeAll(async () => {
  rpcUrl = inject('evmRpcUrl');
  node = await startLantern({ EVM_RPC_URL: rpcUrl, DEVNET_EVM_PORT: String(inject('evmPort')), API_KEYS: UPSTREAM_KEY });
  hosted = await startLantern({ DATA_API_KEY: UPSTREAM_KEY, DATA_API_URL: node.url, DEFAULT_CHAIN: 'devnet', API_KEYS: UPSTREAM_KEY });
});
afterAll(async () => {
  await hosted?.stop();
  await node?.stop();
});

describe('GET /api/v2.2/transaction/{hash}', () => {
  for (const [label, kind] of KINDS) {
    it(`${label}: what the node says, the same through a hosted Lantern`, async () => {
      const hash = sample(kind);
      const [tx, receipt, trace] = await Promise.all([
        rpc<Record<string, string>>('eth_getTransactionByHash', [hash]),
        rpc<Record<string, any>>('eth_getTransactionReceipt', [hash]), // eslint-disable-line @typescript-eslint/no-explicit-any
        rpc<Trace>('debug_traceTransaction', [hash, { tracer: 'callTracer' }]),
      ]);
      const r = await get(node.url, `/api/v2.2/transaction/${hash}?chain=devnet&include=internal_transactions`);
      expect(r.status).toBe(200);
      const d = r.json;
      expect(d).toMatchObject({
        hash,
        from_address: tx.from.toLowerCase(),
        to_address: tx.to ? tx.to.toLowerCase() : null,
        value: BigInt(tx.value).toString(),
        nonce: BigInt(tx.nonce).toString(),
        block_number: BigInt(tx.blockNumber).toString(),
        block_hash: tx.blockHash,
        input: tx.input,
        receipt_status: String(Number(receipt.status)),
        receipt_gas_used: BigInt(receipt.gasUsed).toString(),
        receipt_contract_address: receipt.contractAddress ? String(receipt.contractAddress).toLowerCase() : null,
        gas_price: BigInt(receipt.effectiveGasPrice).toString(),
      });
      expect(d.logs.map((l: { topic0: string; log_index: string }) => [l.log_index, l.topic0])).toEqual(
        receipt.logs.map((l: { logIndex: string; topics: string[] }) => [BigInt(l.logIndex).toString(), l.topics[0]]),
      );
      expect(d.internal_transactions).toHaveLength(countCalls(trace));
      expect(d.decoded_call).toBeUndefined(); // only the verbose form decodes

      const viaHosted = await get(hosted.url, `/api/v2.2/transaction/${hash}?include=internal_transactions`);
      expect(viaHosted).toEqual(r);
    });
  }

  it('the history CSV’s transaction_url links each row to its transaction page, which shows that transaction; in both modes', async () => {
    const dave = m.accounts.dave.checksumAddress;
    for (const base of [node.url, hosted.url]) {
      const res = await fetch(`${base}/wallet/${dave}/history.csv?chain=devnet`);
      expect(res.status).toBe(200);
      const [head, ...rows] = parseCsv(await res.text());
      const hashAt = head.indexOf('hash');
      const urlAt = head.indexOf('transaction_url');
      expect(urlAt).toBe(head.length - 1);
      expect(rows).toHaveLength(10); // dave has exactly 10 transactions (SCENARIO.md)
      for (const row of rows) {
        expect(row[urlAt]).toBe(`${base}/tx/${row[hashAt]}?chain=devnet`);
        // Each is a transaction the node knows.
        expect((await rpc<{ hash: string } | null>('eth_getTransactionByHash', [row[hashAt]]))?.hash).toBe(row[hashAt]);
      }
      // Following one (the first) opens that transaction's page.
      const page = await fetch(rows[0][urlAt]);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(`data-testid="tx-hash">${rows[0][hashAt]}</span>`);
    }
  });

  it('verbose: the token send’s call and Transfer log decoded, the same through a hosted Lantern', async () => {
    const hash = sample('erc20_transfer');
    const receipt = await rpc<{ logs: { data: string; topics: string[] }[] }>('eth_getTransactionReceipt', [hash]);
    const r = await get(node.url, `/api/v2.2/transaction/${hash}/verbose?chain=devnet`);
    expect(r.status).toBe(200);
    expect(r.json.decoded_call).toMatchObject({ label: 'transfer', signature: 'transfer(address,uint256)', type: 'function' });
    const transfer = r.json.logs.find((l: { topic0: string }) => l.topic0 === receipt.logs[0].topics[0]);
    expect(transfer.decoded_event).toMatchObject({ label: 'Transfer', type: 'event' });
    expect(transfer.decoded_event.params.find((p: { name: string }) => p.name === 'value').value).toBe(BigInt(receipt.logs[0].data).toString());
    expect(await get(hosted.url, `/api/v2.2/transaction/${hash}/verbose`)).toEqual(r);
  });

  it('verbose: one transaction of every devnet kind has its call and every log named, as the contracts’ own ABIs read them', async () => {
    const abiOf = new Map(Object.values(m.contracts).map((c) => [c.address.toLowerCase(), JSON.parse(readFileSync(`devnet/evm/artifacts/${c.artifact}.json`, 'utf8')).abi as Abi]));
    const kinds = [...new Set(m.transactions.map((t) => t.kind))];
    expect(kinds.length).toBeGreaterThan(15);
    for (const kind of kinds) {
      const t = m.transactions.find((x) => x.kind === kind)!;
      const r = await get(node.url, `/api/v2.2/transaction/${t.hash}/verbose?chain=devnet`);
      expect(r.status).toBe(200);
      const d = r.json;
      const abi = d.to_address ? abiOf.get(d.to_address) : undefined;
      if (abi && d.input !== '0x') expect(d.decoded_call?.label, kind).toBe(decodeFunctionData({ abi, data: d.input }).functionName);
      for (const l of d.logs as { address: string; data: Hex; topic0: Hex; topic1: Hex | null; topic2: Hex | null; topic3: Hex | null; decoded_event: { label: string } | null }[]) {
        const topics = [l.topic0, l.topic1, l.topic2, l.topic3].filter(Boolean) as [Hex, ...Hex[]];
        const want = decodeEventLog({ abi: abiOf.get(l.address)!, data: l.data, topics });
        expect(l.decoded_event?.label, `${kind}: a log of ${l.address}`).toBe(want.eventName);
      }
    }
  });

  it('an unknown hash is a 404 that says so, in both modes; a malformed one a 400 naming it', async () => {
    const unknown = `0x${'ab'.repeat(32)}`;
    for (const base of [node.url, hosted.url]) {
      const r = await get(base, `/api/v2.2/transaction/${unknown}?chain=devnet`);
      expect(r.status).toBe(404);
      expect(r.json).toMatchObject({ code: 'transaction_not_found' });
      expect(r.json.message).toContain(unknown);
      const bad = await get(base, '/api/v2.2/transaction/0x1234?chain=devnet');
      expect([bad.status, bad.json.parameter]).toEqual([400, 'hash']);
    }
  });

  it('the page of an unknown hash is a real 404 with the not-found page, in both modes; a malformed one too', async () => {
    // Next answers a page's notFound() with its error shell and the not-found page in the React payload,
    // rendered in the browser (as for wallets); what it says there is checked in e2e/tx.spec.ts.
    const unknown = `0x${'ab'.repeat(32)}`;
    for (const base of [node.url, hosted.url]) {
      for (const hash of [unknown, '0x1234']) {
        const res = await fetch(`${base}/tx/${hash}?chain=devnet`);
        expect(res.status).toBe(404);
        const html = await res.text();
        expect(html).toContain('\\"children\\":\\"Transaction not found\\"');
        expect(html).toContain('TxNotFoundDetails');
      }
    }
  });

  it('hostile input to the new operations is a 4xx JSON naming it, never a 5xx, in both modes', async () => {
    const good = sample('eth_send');
    const wallet = m.accounts.alice.checksumAddress;
    const badHashes = ['0x', '0x12', good + '00', good.slice(0, -1) + 'g', '%00', '..%2F..%2Fetc', '0x' + 'f'.repeat(400), '%F0%9F%92%A9', ' ', "'; DROP TABLE x; --"];
    const badAddresses = ['0x', '0x123', 'vitalik', wallet + '00', '%00', '0x' + 'f'.repeat(400)];
    const badChains = ['chain=dogecoin', 'chain=0x0', 'chain=eth%00', `chain=${'a'.repeat(3000)}`];
    const badIncludes = ['include=logs', 'include=', 'include=internal_transactions&include=x'];
    // Each case with the answer it must get: the status, the code and the parameter named.
    type Case = { method: string; path: string; status: number; code: string; parameter?: string };
    const refused = (path: string, parameter: string): Case => ({ method: 'GET', path, status: 400, code: 'invalid_parameter', parameter });
    const cases: Case[] = [
      ...badHashes.flatMap((h) => [refused(`/api/v2.2/transaction/${h}?chain=devnet`, 'hash'), refused(`/api/v2.2/transaction/${h}/verbose?chain=devnet`, 'hash')]),
      ...badChains.map((q) => refused(`/api/v2.2/transaction/${good}?${q}`, 'chain')),
      ...badIncludes.map((q) => refused(`/api/v2.2/transaction/${good}?${q}`, 'include')),
      ...badAddresses.map((a) => refused(`/api/v2.2/${a}/balance?chain=devnet`, 'address')),
      ...badChains.map((q) => refused(`/api/v2.2/${wallet}/balance?${q}`, 'chain')),
      { method: 'POST', path: `/api/v2.2/transaction/${good}`, status: 405, code: 'method_not_allowed' },
      { method: 'DELETE', path: `/api/v2.2/${wallet}/balance`, status: 405, code: 'method_not_allowed' },
    ];
    for (const base of [node.url, hosted.url]) {
      for (const { method, path, status, code, parameter } of cases) {
        const res = await fetch(base + path, { method, headers: { 'X-API-Key': UPSTREAM_KEY } });
        const text = await res.text();
        const body = JSON.parse(text) as { code?: string; parameter?: string; message?: unknown };
        expect([res.status, body.code, body.parameter], `${method} ${path}: ${text.slice(0, 300)}`).toEqual([status, code, parameter]);
        expect(typeof body.message, `${method} ${path}`).toBe('string');
      }
      // Still serving: a good lookup answers.
      expect((await fetch(`${base}/api/v2.2/transaction/${good}?chain=devnet`, { headers: { 'X-API-Key': UPSTREAM_KEY } })).status).toBe(200);
    }
  });

  it('a pending transaction says pending', async () => {
    const port = await freePort();
    const anvil = await spawnAnvil({ port, args: ['--no-mining'] });
    const own = await startLantern({ EVM_RPC_URL: anvil.url, DEVNET_EVM_PORT: String(port) });
    try {
      const hash = await rpcClient(anvil.url).call<string>('eth_sendTransaction', [
        { from: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', to: '0x90F79bf6EB2c4f870365E785982E1f101E93b906', value: '0x1' },
      ]);
      const r = await (await fetch(`${own.url}/api/v2.2/transaction/${hash}?chain=devnet`)).json();
      expect(r).toMatchObject({ code: 'transaction_pending' });
      expect(r.message).toMatch(/pending/);
      // The page says so too.
      const page = await fetch(`${own.url}/tx/${hash}?chain=devnet`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('data-error-code="transaction_pending"');
      expect(html).toMatch(/is pending on/);
    } finally {
      await own.stop();
      await anvil.stop();
    }
  }, 120_000); // a server of its own: its start-up alone can take most of a minute on a busy machine
});
