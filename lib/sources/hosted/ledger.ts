import 'server-only';
import { config } from '@/lib/config';
import { LanternError } from '@/lib/errors';
import { blockSchema } from '@/lib/interface/ledger';
import { hostedBreaker } from '@/lib/sources/breakers';
import { beyondHead, pruned } from '@/lib/sources/ledger-errors';
import type { LedgerBlockSource } from '@/lib/sources/types';
import { hostedRequest } from './client';

/** The hosted ledger API of mainnet or testnet, through the hosted client (its key, retries, breaker). */
export function hostedLedger(network: 'mainnet' | 'testnet'): LedgerBlockSource {
  const service = network === 'mainnet' ? 'ledger-mainnet' : 'ledger-testnet';
  return {
    async blockByVersion(version, withTransactions) {
      try {
        return await hostedRequest({ service, path: `/blocks/by_version/${version}`, query: { with_transactions: withTransactions }, schema: blockSchema });
      } catch (e) {
        if (e instanceof LanternError && e.status === 404) throw beyondHead(network, version, 'version_not_found');
        if (e instanceof LanternError && e.status === 410) throw pruned(network, version);
        throw e;
      }
    },
    assertAvailable: () => hostedBreaker(service, config().ledgerUrls[network]).assertAvailable(),
  };
}
