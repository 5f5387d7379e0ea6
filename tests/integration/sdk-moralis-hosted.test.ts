import Moralis from 'moralis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startLantern, type LanternInstance } from '../support/lantern';
import { freePort } from '../support/ports';
import { loadManifest } from '../../devnet/evm/index.mjs';
import { SDK_API_KEY, moralisSuite, startMoralis, type MoralisTarget } from './sdk/moralis-suite';

// The vendor's Moralis SDK against a hosted-mode Lantern whose hosted API is a node-mode Lantern (a
// Lantern fronting a Lantern): SDK -> hosted Lantern -> hosted client -> node Lantern -> devnet. The
// SDK's Aptos module too: its mainnet host goes to the hosted Lantern's /api/ledger/mainnet, whose hosted
// ledger API is the node Lantern's /api/ledger/local (the devnet ledger); the hosted Lantern's own
// `local` ledger points at a closed port, so nothing reaches the devnet ledger any other way.
const UPSTREAM_KEY = 'hosted-to-node-key-0123456789';
let node: LanternInstance;
let hosted: LanternInstance;

const target = (): MoralisTarget => ({ url: hosted.url, reference: node.url, ledgerUrl: inject('ledgerUrl'), aptosPath: '/api/ledger/mainnet' });

beforeAll(async () => {
  node = await startLantern({
    EVM_RPC_URL: inject('evmRpcUrl'),
    DEVNET_EVM_PORT: String(inject('evmPort')),
    API_KEYS: `${SDK_API_KEY},${UPSTREAM_KEY}`,
    LEDGER_API_URL_LOCAL: inject('ledgerUrl'),
  });
  hosted = await startLantern({
    DATA_API_KEY: UPSTREAM_KEY,
    DATA_API_URL: node.url,
    AUTH_API_URL: `${node.url}/api/auth`,
    LEDGER_API_URL_MAINNET: `${node.url}/api/ledger/local`,
    LEDGER_API_URL_LOCAL: `http://127.0.0.1:${await freePort()}/v1`,
    DEFAULT_CHAIN: 'devnet',
    API_KEYS: SDK_API_KEY,
  });
  await startMoralis(target);
});
afterAll(async () => {
  await hosted?.stop();
  await node?.stop();
});

moralisSuite('hosted mode fronting node mode', target);

describe('approvals, which the SDK has no method for, through the hosted Lantern', () => {
  it('equal the fronted Lantern’s, page by page, with its operator approvals and cursor', async () => {
    const holder = loadManifest().accounts.holder.address;
    const read = async (base: string, query: string) => {
      const res = await fetch(`${base}/api/v2.2/wallets/${holder}/approvals?chain=0x7a69&${query}`, { headers: { 'X-API-Key': SDK_API_KEY } });
      expect(res.status).toBe(200);
      return (await res.json()) as { cursor: string; result: unknown[]; operator_approvals?: unknown[] };
    };
    const first = await read(hosted.url, 'limit=1');
    expect(first).toEqual(await read(node.url, 'limit=1'));
    expect(first.operator_approvals).toHaveLength(1);
    // The fronted Lantern's cursor goes upstream unchanged and reads its second page.
    const second = await read(hosted.url, `limit=1&cursor=${encodeURIComponent(first.cursor)}`);
    expect(second).toEqual(await read(node.url, `limit=1&cursor=${encodeURIComponent(first.cursor)}`));
    expect(second.result).toHaveLength(1);
    expect(second.result).not.toEqual(first.result);
  });
});

describe('the route of the SDK’s Aptos calls', () => {
  it('went through the hosted Lantern to the fronted one', async () => {
    // A block of its own through the SDK, then: each request a Lantern answered is one log line with its
    // path, and every version the SDK asked the hosted Lantern for (this one and the suite's, whichever
    // ran first), the hosted Lantern asked the node Lantern for (repeats come from its cache).
    const ledger = inject('ledgerUrl');
    const { first_version } = (await (await fetch(`${ledger}/blocks/by_height/1300`)).json()) as { first_version: string };
    const version = String(BigInt(first_version) + 1n);
    const block = await Moralis.AptosApi.blocks.getBlockByVersion({ version: Number(version), withTransactions: false, network: 'mainnet' });
    expect((block.toJSON() as unknown as { block_height: string }).block_height).toBe('1300');
    const versions = (output: string, prefix: string) =>
      [...new Set([...output.matchAll(new RegExp(`"path":"${prefix}/blocks/by_version/(\\d+)"`, 'g'))].map((m) => m[1]))].sort();
    const asked = versions(hosted.output(), '/api/ledger/mainnet');
    expect(asked).toContain(version);
    expect(versions(node.output(), '/api/ledger/local')).toEqual(asked);
  });
});
