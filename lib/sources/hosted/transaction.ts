import 'server-only';
import type { Chain } from '@/lib/chains';
import { LanternError } from '@/lib/errors';
import { transactionSchema, type TransactionDetail } from '@/lib/interface/transaction';
import { hostedRequest } from './client';

/** The hosted API's transaction lookup (and its verbose form); its 404 names the hash. */
export async function hostedTransaction(hash: string, chain: Chain, opts: { verbose: boolean; internal: boolean }): Promise<TransactionDetail> {
  try {
    return await hostedRequest({
      service: 'data',
      path: `/api/v2.2/transaction/${hash}${opts.verbose ? '/verbose' : ''}`,
      query: { chain: chain.hex, include: opts.internal ? 'internal_transactions' : undefined },
      schema: transactionSchema,
    });
  } catch (e) {
    if (e instanceof LanternError && e.status === 404) {
      // A Lantern upstream says pending in its message; the provider's own 404 says nothing useful.
      if (/pending/i.test(e.message)) throw new LanternError(404, 'transaction_pending', e.message);
      throw new LanternError(404, 'transaction_not_found', `No transaction ${hash} on ${chain.label}: the data provider does not know this hash.`);
    }
    throw e;
  }
}
