import { api, otherMethods, parseParam, parseQuery } from '@/lib/api/handler';
import { keptJsonResponse } from '@/lib/api/json-response';
import { addressSchema } from '@/lib/interface/common';
import { historyQuerySchema } from '@/lib/interface/history';
import { getWalletHistoryBody } from '@/lib/operations/wallet-history';

export const dynamic = 'force-dynamic';

export const GET = api<{ address: string }>(async (req, params) => {
  const address = parseParam('address', params.address, addressSchema);
  const query = parseQuery(req, historyQuerySchema);
  return keptJsonResponse(await getWalletHistoryBody(address, query));
});

export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods('GET');
