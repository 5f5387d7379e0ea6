import type { TestProject } from 'vitest/node';
import { startDevnets } from '../../scripts/lib/devnets.mjs';
import { freePort } from '../support/ports';

// The devnets, started once for all integration files on free ports; files read their URLs with inject().
declare module 'vitest' {
  export interface ProvidedContext {
    evmRpcUrl: string;
    evmPort: number;
    ledgerUrl: string;
    ledgerPort: number;
  }
}

export default async function setup(project: TestProject) {
  const [evmPort, ledgerPort] = [await freePort(), await freePort()];
  const nets = await startDevnets({ evmPort, ledgerPort, log: () => undefined });
  project.provide('evmRpcUrl', nets.evm!.url);
  project.provide('evmPort', evmPort);
  project.provide('ledgerUrl', nets.ledger!.url);
  project.provide('ledgerPort', ledgerPort);
  return () => nets.stop();
}
