import { afterAll, beforeAll, inject } from 'vitest';
import { startLantern, type LanternInstance } from '../support/lantern';
import { SDK_API_KEY, moralisSuite, startMoralis } from './sdk/moralis-suite';

// The vendor's Moralis SDK against a hosted-mode Lantern whose hosted API is a node-mode Lantern (a
// Lantern fronting a Lantern): SDK -> hosted Lantern -> hosted client -> node Lantern -> devnet.
const UPSTREAM_KEY = 'hosted-to-node-key-0123456789';
let node: LanternInstance;
let hosted: LanternInstance;

beforeAll(async () => {
  node = await startLantern({ EVM_RPC_URL: inject('evmRpcUrl'), DEVNET_EVM_PORT: String(inject('evmPort')), API_KEYS: `${SDK_API_KEY},${UPSTREAM_KEY}` });
  hosted = await startLantern({
    DATA_API_KEY: UPSTREAM_KEY,
    DATA_API_URL: node.url,
    AUTH_API_URL: `${node.url}/api/auth`,
    DEFAULT_CHAIN: 'devnet',
    API_KEYS: SDK_API_KEY,
    LEDGER_API_URL_LOCAL: inject('ledgerUrl'),
  });
  await startMoralis(() => ({ url: hosted.url, reference: node.url, ledgerUrl: inject('ledgerUrl') }));
});
afterAll(async () => {
  await hosted?.stop();
  await node?.stop();
});

moralisSuite('hosted mode fronting node mode', () => ({ url: hosted.url, reference: node.url, ledgerUrl: inject('ledgerUrl') }));
