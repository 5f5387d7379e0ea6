import 'server-only';
import { cachedBlock, cachedBlockJson, cachedBlockOnly } from '@/lib/cache/ledger-blocks';
import type { LedgerBlock, LedgerNetworkName, LedgerVersion } from '@/lib/interface/ledger';
import { sources } from '@/lib/sources';

/**
 * Ledger block by version, for the page and the published API: from the block cache (lib/cache/
 * ledger-blocks.ts, indexed by version range), else from the ledger source picked for the network.
 */

function loader(network: LedgerNetworkName) {
  const source = sources().ledger(network);
  return { load: (version: string, withTransactions: boolean) => source.blockByVersion(version, withTransactions), assertAvailable: () => source.assertAvailable() };
}

/** The block holding `version` on `network`; from the cache when any request has fetched it before. */
export async function getBlockByVersion(network: LedgerNetworkName, version: LedgerVersion, withTransactions: boolean): Promise<LedgerBlock> {
  return cachedBlock(network, BigInt(version), withTransactions, loader(network));
}

/** The same block as the interface's JSON text, serialised once per block and reused (the API's fast path). */
export async function getBlockByVersionJson(network: LedgerNetworkName, version: LedgerVersion, withTransactions: boolean): Promise<string> {
  return cachedBlockJson(network, BigInt(version), withTransactions, loader(network));
}

/** The block holding `version` only if it is cached already (undefined otherwise): the node is not asked. */
export async function getCachedBlockByVersion(network: LedgerNetworkName, version: LedgerVersion): Promise<LedgerBlock | undefined> {
  return cachedBlockOnly(network, BigInt(version));
}
