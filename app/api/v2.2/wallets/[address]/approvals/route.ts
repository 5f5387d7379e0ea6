import { api, otherMethods, parseParam, parseQuery } from '@/lib/api/handler';
import { keptJsonResponse } from '@/lib/api/json-response';
import { approvalsQuerySchema } from '@/lib/interface/approvals';
import { addressSchema } from '@/lib/interface/common';
import { getWalletApprovalsBody } from '@/lib/operations/wallet-holdings';

export const dynamic = 'force-dynamic';

/** Who may still spend the wallet's tokens: standing ERC-20 allowances (and, in node mode, NFT operators). */
export const GET = api<{ address: string }>(async (req, params) => {
  const address = parseParam('address', params.address, addressSchema);
  return keptJsonResponse(await getWalletApprovalsBody(address, parseQuery(req, approvalsQuerySchema)));
});

export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods('GET');
