import { api, otherMethods, parseParam, parseQuery } from '@/lib/api/handler';
import { addressSchema } from '@/lib/interface/common';
import { nftResyncQuerySchema, tokenIdSchema } from '@/lib/interface/nft-resync';
import { resyncNftMetadata } from '@/lib/operations/nft-resync';
import { enforceRateLimit } from '@/lib/security/rate-limit';

export const dynamic = 'force-dynamic';

/** Each resync makes outbound requests: a client gets this many a minute (on top of the API's limit). */
const RESYNCS_PER_MINUTE = 20;

export const GET = api<{ address: string; token_id: string }>(async (req, params) => {
  const address = parseParam('address', params.address, addressSchema);
  const tokenId = parseParam('token_id', params.token_id, tokenIdSchema);
  const query = parseQuery(req, nftResyncQuerySchema);
  await enforceRateLimit(req.headers, 'nft-resync', RESYNCS_PER_MINUTE);
  const { httpStatus, answer } = await resyncNftMetadata(address, tokenId, query);
  return Response.json(answer, { status: httpStatus, headers: { 'Cache-Control': 'no-store' } });
});

export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods('GET');
