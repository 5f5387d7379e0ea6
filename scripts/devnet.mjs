#!/usr/bin/env node
// `npm run devnet`: the local chains alone, until Ctrl-C.
import { devnetsWanted, startDevnets } from './lib/devnets.mjs';
import { shutdownOnce } from './lib/shutdown.mjs';

const want = devnetsWanted({ ...process.env, DATA_API_KEY: '', EVM_RPC_URL: '', LEDGER_API_URL_LOCAL: '' });
const started = Date.now();
const nets = await startDevnets(want);
console.log(`EVM devnet    ${nets.evm.url}  (chain 31337, seeded)`);
console.log(`ledger devnet ${nets.ledger.url}  (simulated Move ledger)`);
console.log(`ready in ${((Date.now() - started) / 1000).toFixed(1)} s; Ctrl-C stops both`);

shutdownOnce(() => nets.stop());
