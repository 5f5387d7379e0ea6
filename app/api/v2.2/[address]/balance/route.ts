import { api, otherMethods, parseParam, parseQuery } from '@/lib/api/handler';
import { balanceQuerySchema } from '@/lib/interface/balance';
import { addressSchema } from '@/lib/interface/common';
import { getNativeBalance } from '@/lib/operations/wallet-balance';

export const dynamic = 'force-dynamic';

/** The wallet's native balance, `{balance}` in wei, as the hosted API's native-balance operation answers. */
export const GET = api<{ address: string }>(async (req, params) => {
  const address = parseParam('address', params.address, addressSchema);
  const query = parseQuery(req, balanceQuerySchema);
  const { balance } = await getNativeBalance(address, query);
  return { balance };
});

export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods('GET');
