#!/usr/bin/env node
// `npm run devnet`: the local chains alone, until Ctrl-C.
import { devnetsWanted, startDevnets } from './lib/devnets.mjs';
import { shutdownOnce } from './lib/shutdown.mjs';

const want = devnetsWanted({ ...process.env, DATA_API_KEY: '', EVM_RPC_URL: '', EVM_RPC_URLS: '', LEDGER_API_URL_LOCAL: '' });
const started = Date.now();
const nets = await startDevnets(want);
console.log(`EVM devnet    ${nets.evm.url}  (chain 31337, seeded)`);
console.log(`EVM devnet 2  ${nets.evm2.url}  (chain 31338, seeded)`);
console.log(`ledger devnet ${nets.ledger.url}  (simulated Move ledger)`);
console.log(`ready in ${((Date.now() - started) / 1000).toFixed(1)} s; Ctrl-C stops them all`);

shutdownOnce(() => nets.stop());
