import { api, otherMethods, parseParam, parseQuery } from '@/lib/api/handler';
import { addressSchema } from '@/lib/interface/common';
import { tokenBalancesQuerySchema } from '@/lib/interface/tokens';
import { getWalletTokensWire } from '@/lib/operations/wallet-holdings';

export const dynamic = 'force-dynamic';

/** The wallet's token balances at one block, the native coin first (the interface's token balances with prices). */
export const GET = api<{ address: string }>(async (req, params) => {
  const address = parseParam('address', params.address, addressSchema);
  return getWalletTokensWire(address, parseQuery(req, tokenBalancesQuerySchema));
});

export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods('GET');
