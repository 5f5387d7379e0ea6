import { api, otherMethods, parseParam, parseQuery } from '@/lib/api/handler';
import { activeChainsQuerySchema } from '@/lib/interface/active-chains';
import { addressSchema } from '@/lib/interface/common';
import { getActiveChains } from '@/lib/operations/active-chains';

export const dynamic = 'force-dynamic';

/** Where a wallet is active: its first and last transaction on each chain asked (`chains[]`), as the hosted API answers it. */
export const GET = api<{ address: string }>(async (req, params) => {
  const address = parseParam('address', params.address, addressSchema);
  const query = parseQuery(req, activeChainsQuerySchema);
  return getActiveChains(address, query);
});

export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods('GET');
