import 'server-only';
import { LOCAL_DEVNETS, resolveChain, type Chain, type ChainOperation } from '@/lib/chains';
import { sources } from '@/lib/sources';

/**
 * The one chain rule. Every request that names a chain (or none) is turned into a Chain here: the
 * published API's operations, pages, server actions and the CSV export alike, so DEFAULT_CHAIN means the
 * same everywhere. A chain nothing here can read is a 400 naming `chain` and listing the served chains.
 * Lint (eslint.config.mjs) keeps every other module from resolving chains itself.
 */
export async function requestChain(value: string | null | undefined, operation: ChainOperation): Promise<Chain> {
  return resolveChain(value, operation, await sources().chains());
}

/** A served chain as pages and clients show it (plain data). */
export interface ChainOption {
  name: string;
  label: string;
  hex: `0x${string}`;
  id: number;
  /** Read from a node of this server, or answered by the hosted API. */
  source: 'node' | 'hosted';
  devnet: boolean;
}

/** The chains this server serves for `operation`, in the order of its configuration (nodes first), with labels. */
export async function servedChains(operation: ChainOperation): Promise<ChainOption[]> {
  const { chains } = await sources().chains();
  return chains
    .filter((s) => s.operations.includes(operation))
    .map(({ chain, source }) => ({ name: chain.name, label: chain.label, hex: chain.hex, id: chain.id, source, devnet: chain.devnet }));
}

/** The chain a request naming none means for `operation` (DEFAULT_CHAIN, else the first node's chain, else eth). */
export function defaultChain(operation: ChainOperation): Promise<Chain> {
  return requestChain(undefined, operation);
}

/** Whether a local devnet is served (by its node, or by the Lantern this one fronts): the devnet showcase and account are offered. */
export async function servesLocalDevnet(): Promise<boolean> {
  const { chains } = await sources().chains();
  return chains.some((s) => LOCAL_DEVNETS.includes(s.chain));
}

/**
 * Start-up (lib/startup.ts): each EVM node is asked its chain id within `waitMs`. `refused` lists what must
 * stop the server (a node of another chain than its name, two nodes for one chain), naming the variable
 * and the host; `unreachable` the nodes that did not answer (checked again on first use).
 */
export async function checkChainNodes(waitMs: number): Promise<{ refused: string[]; unreachable: string[] }> {
  const out = await sources().checkNodes(waitMs);
  // DEFAULT_CHAIN named a chain only EVM_RPC_URL's node could serve: now that it has answered, it must be.
  const service = await sources().chains();
  const fallback = service.fallback;
  if (fallback && service.pending.length === 0 && !service.chains.some((s) => s.chain.id === fallback.id)) {
    out.refused.push(`DEFAULT_CHAIN: ${fallback.name} (${fallback.hex}) is not served by this Lantern: no node serves it`);
  }
  return out;
}
