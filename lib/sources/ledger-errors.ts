import 'server-only';
import { LanternError } from '@/lib/errors';
import type { LedgerNetworkName } from '@/lib/interface/ledger';

/** The two ledger answers every ledger source words alike, node or hosted (shared by both folders). */
export function beyondHead(network: LedgerNetworkName, version: string, code: 'version_not_found' | 'block_not_found', head?: string) {
  return new LanternError(
    404,
    code,
    `Version ${version} is beyond the head of the ${network} ledger${head ? ` (its latest version is ${head})` : ''}: it has not been committed yet.`,
  );
}

export function pruned(network: LedgerNetworkName, version: string, oldest?: string) {
  return new LanternError(
    410,
    'block_pruned',
    `Version ${version} has been pruned by the ${network} ledger node${oldest ? `, which keeps versions from ${oldest} onward` : ''}.`,
  );
}
