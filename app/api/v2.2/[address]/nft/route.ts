import { api, parseParam, parseQuery } from '@/lib/api/handler';
import { addressSchema } from '@/lib/interface/common';
import { nftQuerySchema, serializeNftPage } from '@/lib/interface/nfts';
import { getWalletNfts } from '@/lib/operations/wallet-nfts';

export const dynamic = 'force-dynamic';

export const GET = api<{ address: string }>(async (req, params) => {
  const address = parseParam('address', params.address, addressSchema);
  const query = parseQuery(req, nftQuerySchema);
  return serializeNftPage(await getWalletNfts(address, query));
});
