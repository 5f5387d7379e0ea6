#!/usr/bin/env node
// Runs the seeded EVM devnet until Ctrl-C.
//   node scripts/devnet-evm.mjs [--port 8545] [--host 127.0.0.1] [--fresh] [--synthetic 5000] [--verbose]
// Port: --port, else DEVNET_EVM_PORT, else 8545. --fresh rebuilds the cached state;
// --synthetic N adds a wallet with N transactions (for benchmarks; changes the chain until restart).
import { seedSyntheticWallet, startEvmDevnet } from '../devnet/evm/index.mjs';
import { shutdownOnce } from './lib/shutdown.mjs';

const argv = process.argv.slice(2);
const opt = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const port = Number(opt('--port') ?? process.env.DEVNET_EVM_PORT ?? 8545);
const host = opt('--host') ?? '127.0.0.1';
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`invalid port: ${opt('--port') ?? process.env.DEVNET_EVM_PORT}`);
  process.exit(2);
}
const verbose = argv.includes('--verbose');
const devnet = await startEvmDevnet({
  port, host, fresh: argv.includes('--fresh'),
  log: (line) => { if (verbose || line.startsWith('[devnet-evm]')) console.log(line); },
});
const m = devnet.manifest;
console.log(`EVM devnet ready at ${devnet.url} (chain ${m.chainId}, ${m.stats.transactions} seeded transactions, ` +
  `blocks ${m.stats.firstBlock}-${m.stats.lastBlock}) in ${devnet.startupMs} ms${devnet.warm ? ' from the cached state' : ''}`);
for (const [name, a] of Object.entries(m.accounts)) console.log(`  ${name.padEnd(9)} ${a.checksumAddress}  ${String(a.txCount).padStart(4)} txs`);
console.log(`  graceWallet (EIP-1271) ${m.eip1271.wallet}; scenario: devnet/evm/SCENARIO.md`);

if (opt('--synthetic')) {
  const s = await seedSyntheticWallet({ rpcUrl: devnet.url, count: Number(opt('--synthetic')) });
  console.log(`synthetic wallet ${s.address}: ${s.count} transactions in blocks ${s.firstBlock}-${s.lastBlock} (${s.ms} ms)`);
}

shutdownOnce(() => devnet.stop());
