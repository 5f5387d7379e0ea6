import { api, otherMethods, parseParam, parseQuery } from '@/lib/api/handler';
import { keptJsonResponse } from '@/lib/api/json-response';
import { addressSchema } from '@/lib/interface/common';
import { erc20BalancesQuerySchema } from '@/lib/interface/tokens';
import { getWalletErc20Body } from '@/lib/operations/wallet-holdings';

export const dynamic = 'force-dynamic';

/** The wallet's ERC-20 balances as the legacy bare array. */
export const GET = api<{ address: string }>(async (req, params) => {
  const address = parseParam('address', params.address, addressSchema);
  return keptJsonResponse(await getWalletErc20Body(address, parseQuery(req, erc20BalancesQuerySchema)));
});

export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods('GET');
