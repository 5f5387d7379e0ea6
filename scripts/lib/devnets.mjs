// Starts the local chains Lantern reads by default: the seeded EVM devnet (anvil) and the simulated
// Move ledger. Each is skipped when the configuration points Lantern elsewhere.
import { startEvmDevnet } from '../../devnet/evm/index.mjs';
import { startSecondDevnet } from '../../devnet/evm/second.mjs';
import { startNftMetadataServer } from '../../devnet/evm/nft-metadata-server.mjs';
import { startLedgerDevnet } from '../../devnet/ledger/index.mjs';

/**
 * With the EVM devnet comes the local IPFS gateway serving the Far Lanterns' off-chain metadata
 * (devnet/evm/nft-metadata-server.mjs) on `nftPort` (0: any free port), and the second EVM devnet
 * (chain 31338, devnet/evm/second.mjs) on `evm2Port`. All start in parallel.
 * @param {{ evmPort?: number, evm2Port?: number, ledgerPort?: number, nftPort?: number, evm?: boolean, evm2?: boolean, ledger?: boolean, log?: (s: string) => void }} opts
 */
export async function startDevnets({ evmPort = 8545, evm2Port = 8546, ledgerPort = 8080, nftPort = 0, evm = true, evm2 = evm, ledger = true, log = console.log } = {}) {
  const started = [];
  const stopAll = async () => {
    await Promise.allSettled(started.map((d) => d.stop()));
  };
  try {
    // allSettled: whichever fails, every one that started is stopped.
    const results = await Promise.allSettled([
      evm ? startEvmDevnet({ port: evmPort, log }) : undefined,
      evm2 ? startSecondDevnet({ port: evm2Port, log }) : undefined,
      ledger ? startLedgerDevnet({ port: ledgerPort }) : undefined,
      evm ? startNftMetadataServer({ port: nftPort }) : undefined,
    ]);
    for (const r of results) if (r.status === 'fulfilled' && r.value) started.push(r.value);
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    const [e, e2, l, n] = results.map((r) => (r.status === 'fulfilled' ? r.value : undefined));
    return { evm: e, evm2: e2, ledger: l, nftMetadata: n, stop: stopAll };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

/**
 * Which devnets `npm run dev` needs under the current environment: both EVM devnets when Lantern reads
 * its default nodes (no EVM_RPC_URL, EVM_RPC_URLS nor DATA_API_KEY); the first alone when EVM_RPC_URL is
 * a loopback URL (as before: the devnet, on another port).
 */
export function devnetsWanted(env = process.env) {
  const localEvm = !env.EVM_RPC_URL || /^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?\/?$/.test(env.EVM_RPC_URL);
  return {
    evm: !env.DATA_API_KEY && !env.EVM_RPC_URLS && localEvm,
    evm2: !env.DATA_API_KEY && !env.EVM_RPC_URLS && !env.EVM_RPC_URL,
    ledger: !env.LEDGER_API_URL_LOCAL,
    evmPort: Number(env.DEVNET_EVM_PORT || 8545),
    evm2Port: Number(env.DEVNET_EVM2_PORT || 8546),
    ledgerPort: Number(env.DEVNET_LEDGER_PORT || 8080),
    nftPort: Number(env.DEVNET_NFT_PORT || 8547),
  };
}
