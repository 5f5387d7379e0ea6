import { api, otherMethods, parseParam, parseQuery } from '@/lib/api/handler';
import { keptJsonResponse } from '@/lib/api/json-response';
import { addressSchema } from '@/lib/interface/common';
import { nftQuerySchema } from '@/lib/interface/nfts';
import { getWalletNftsBody } from '@/lib/operations/wallet-nfts';

export const dynamic = 'force-dynamic';

export const GET = api<{ address: string }>(async (req, params) => {
  const address = parseParam('address', params.address, addressSchema);
  const query = parseQuery(req, nftQuerySchema);
  return keptJsonResponse(await getWalletNftsBody(address, query));
});

export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods('GET');
