import type { TestProject } from 'vitest/node';
import { startDevnets } from '../../scripts/lib/devnets.mjs';
import { freePort } from '../support/ports';
import { claimRedisDatabase } from '../support/services';

// The devnets, started once for all integration files on free ports; files read their URLs with inject().
declare module 'vitest' {
  export interface ProvidedContext {
    evmRpcUrl: string;
    evmPort: number;
    /** The second devnet (chain 31338, devnet/evm/second.mjs). */
    evm2RpcUrl: string;
    evm2Port: number;
    ledgerUrl: string;
    ledgerPort: number;
    nftGatewayUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const [evmPort, evm2Port, ledgerPort] = [await freePort(), await freePort(), await freePort()];
  const nets = await startDevnets({ evmPort, evm2Port, ledgerPort, log: () => undefined });
  project.provide('evmRpcUrl', nets.evm!.url);
  project.provide('evmPort', evmPort);
  project.provide('evm2RpcUrl', nets.evm2!.url);
  project.provide('evm2Port', evm2Port);
  // A Lantern a test starts without naming its nodes reads these devnets (its default nodes), never
  // whatever another run left on 8545/8546 (tests/support/lantern.ts passes the environment on).
  process.env.DEVNET_EVM_PORT = String(evmPort);
  process.env.DEVNET_EVM2_PORT = String(evm2Port);
  project.provide('ledgerUrl', nets.ledger!.url);
  project.provide('ledgerPort', ledgerPort);
  // The devnet's local IPFS gateway (the Far Lanterns' off-chain metadata): every Lantern a test starts
  // resolves ipfs:// through it and may fetch from it, as under `npm run dev` (tests/support/lantern.ts).
  project.provide('nftGatewayUrl', nets.nftMetadata!.url);
  process.env.LANTERN_TEST_NFT_GATEWAY = nets.nftMetadata!.url;
  // A Redis database of this run's own: another run on the machine flushes only its own.
  const redis = process.env.TEST_REDIS_URL ? null : await claimRedisDatabase();
  if (redis) process.env.TEST_REDIS_URL = redis.url;
  return async () => {
    await redis?.release();
    await nets.stop();
  };
}
