// Starts the local chains Lantern reads by default: the seeded EVM devnet (anvil) and the simulated
// Move ledger. Each is skipped when the configuration points Lantern elsewhere.
import { startEvmDevnet } from '../../devnet/evm/index.mjs';
import { startNftMetadataServer } from '../../devnet/evm/nft-metadata-server.mjs';
import { startLedgerDevnet } from '../../devnet/ledger/index.mjs';

/**
 * With the EVM devnet comes the local IPFS gateway serving the Far Lanterns' off-chain metadata
 * (devnet/evm/nft-metadata-server.mjs) on `nftPort` (0: any free port).
 * @param {{ evmPort?: number, ledgerPort?: number, nftPort?: number, evm?: boolean, ledger?: boolean, log?: (s: string) => void }} opts
 */
export async function startDevnets({ evmPort = 8545, ledgerPort = 8080, nftPort = 0, evm = true, ledger = true, log = console.log } = {}) {
  const started = [];
  const stopAll = async () => {
    await Promise.allSettled(started.map((d) => d.stop()));
  };
  try {
    const [e, l, n] = await Promise.all([
      evm ? startEvmDevnet({ port: evmPort, log }) : undefined,
      ledger ? startLedgerDevnet({ port: ledgerPort }) : undefined,
      evm ? startNftMetadataServer({ port: nftPort }) : undefined,
    ]);
    for (const d of [e, l, n]) if (d) started.push(d);
    return { evm: e, ledger: l, nftMetadata: n, stop: stopAll };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

/** Which devnets `npm run dev` needs under the current environment. */
export function devnetsWanted(env = process.env) {
  const localEvm = !env.EVM_RPC_URL || /^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?\/?$/.test(env.EVM_RPC_URL);
  return {
    evm: !env.DATA_API_KEY && localEvm,
    ledger: !env.LEDGER_API_URL_LOCAL,
    evmPort: Number(env.DEVNET_EVM_PORT || 8545),
    ledgerPort: Number(env.DEVNET_LEDGER_PORT || 8080),
    nftPort: Number(env.DEVNET_NFT_PORT || 8547),
  };
}
