import 'server-only';
import { cachedBlock, cachedBlockJson, cachedBlockOnly } from '@/lib/cache/ledger-blocks';
import { badParameter } from '@/lib/errors';
import { ledgerVersionSchema, type LedgerBlock, type LedgerNetworkName } from '@/lib/interface/ledger';
import { sources } from '@/lib/sources';

/**
 * Ledger block by version, for the page and the published API: from the block cache (lib/cache/
 * ledger-blocks.ts, indexed by version range), else from the ledger source picked for the network.
 */

// Versions already found valid, by their text: the published API's block route has validated the path's
// version (lib/api/handler.ts parseParam) just before, and a cached block is asked for over and over, so
// the schema is not run again for the same text. Only valid versions are kept (an invalid one is parsed
// every time, so its error is the same as ever); bounded, the oldest going first.
const VALID_VERSIONS_MAX = 1024;
const validVersions = new Map<string, bigint>();

function toVersion(version: bigint | string): bigint {
  const text = typeof version === 'bigint' ? version.toString() : version;
  const known = validVersions.get(text);
  if (known !== undefined) return known;
  const r = ledgerVersionSchema.safeParse(text);
  if (!r.success) throw badParameter('version', `version: ${r.error.issues[0].message}`);
  const v = typeof version === 'bigint' ? version : BigInt(r.data);
  if (validVersions.size >= VALID_VERSIONS_MAX) validVersions.delete(validVersions.keys().next().value as string);
  validVersions.set(text, v);
  return v;
}

function loader(network: LedgerNetworkName) {
  const source = sources().ledger(network);
  return { load: (version: string, withTransactions: boolean) => source.blockByVersion(version, withTransactions), assertAvailable: () => source.assertAvailable() };
}

/** The block holding `version` on `network`; from the cache when any request has fetched it before. */
export async function getBlockByVersion(network: LedgerNetworkName, version: bigint | string, withTransactions: boolean): Promise<LedgerBlock> {
  return cachedBlock(network, toVersion(version), withTransactions, loader(network));
}

/** The same block as the interface's JSON text, serialised once per block and reused (the API's fast path). */
export async function getBlockByVersionJson(network: LedgerNetworkName, version: bigint | string, withTransactions: boolean): Promise<string> {
  return cachedBlockJson(network, toVersion(version), withTransactions, loader(network));
}

/** The block holding `version` only if it is cached already (undefined otherwise): the node is not asked. */
export async function getCachedBlockByVersion(network: LedgerNetworkName, version: bigint | string): Promise<LedgerBlock | undefined> {
  return cachedBlockOnly(network, toVersion(version));
}
