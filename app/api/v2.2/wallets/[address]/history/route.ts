import { api, parseParam, parseQuery } from '@/lib/api/handler';
import { addressSchema } from '@/lib/interface/common';
import { historyQuerySchema, serializeHistoryPage } from '@/lib/interface/history';
import { getWalletHistory } from '@/lib/operations/wallet-history';

export const dynamic = 'force-dynamic';

export const GET = api<{ address: string }>(async (req, params) => {
  const address = parseParam('address', params.address, addressSchema);
  const query = parseQuery(req, historyQuerySchema);
  return serializeHistoryPage(await getWalletHistory(address, query));
});
