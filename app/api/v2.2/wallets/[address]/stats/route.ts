import { api, otherMethods, parseParam, parseQuery } from '@/lib/api/handler';
import { keptJsonResponse } from '@/lib/api/json-response';
import { addressSchema } from '@/lib/interface/common';
import { walletStatsQuerySchema } from '@/lib/interface/wallet-stats';
import { getWalletStatsBody } from '@/lib/operations/wallet-holdings';

export const dynamic = 'force-dynamic';

/** The wallet's counts: NFTs, collections, transactions, NFT and token transfers. */
export const GET = api<{ address: string }>(async (req, params) => {
  const address = parseParam('address', params.address, addressSchema);
  return keptJsonResponse(await getWalletStatsBody(address, parseQuery(req, walletStatsQuerySchema)));
});

export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods('GET');
