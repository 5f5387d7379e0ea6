import { api, otherMethods, parseParam, parseQuery } from '@/lib/api/handler';
import { keptJsonResponse } from '@/lib/api/json-response';
import { addressSchema } from '@/lib/interface/common';
import { tokenBalancesQuerySchema } from '@/lib/interface/tokens';
import { getWalletTokensBody } from '@/lib/operations/wallet-holdings';

export const dynamic = 'force-dynamic';

/** The wallet's token balances at one block, the native coin first (the interface's token balances with prices). */
export const GET = api<{ address: string }>(async (req, params) => {
  const address = parseParam('address', params.address, addressSchema);
  return keptJsonResponse(await getWalletTokensBody(address, parseQuery(req, tokenBalancesQuerySchema)));
});

export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods('GET');
