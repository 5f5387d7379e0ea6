import { afterAll, beforeAll, inject } from 'vitest';
import { startLantern, type LanternInstance } from '../support/lantern';
import { SDK_API_KEY, moralisSuite, startMoralis } from './sdk/moralis-suite';

// The vendor's Moralis SDK against a node-mode Lantern reading the shared seeded devnet.
let lantern: LanternInstance;

beforeAll(async () => {
  lantern = await startLantern({ EVM_RPC_URL: inject('evmRpcUrl'), DEVNET_EVM_PORT: String(inject('evmPort')), API_KEYS: SDK_API_KEY, LEDGER_API_URL_LOCAL: inject('ledgerUrl') });
  await startMoralis(() => ({ url: lantern.url, reference: lantern.url, ledgerUrl: inject('ledgerUrl'), aptosPath: '/api/ledger/local' }));
});
afterAll(async () => {
  await lantern?.stop();
});

moralisSuite('node mode', () => ({ url: lantern.url, reference: lantern.url, ledgerUrl: inject('ledgerUrl'), aptosPath: '/api/ledger/local' }));
