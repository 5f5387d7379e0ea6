import { api, otherMethods, parseParam, parseQuery } from '@/lib/api/handler';
import { transactionHashSchema, transactionQuerySchema } from '@/lib/interface/transaction';
import { getTransaction } from '@/lib/operations/transaction';

export const dynamic = 'force-dynamic';

/** One transaction by hash with its call and logs decoded where the token interface is known. */
export const GET = api<{ hash: string }>(async (req, params) => {
  const hash = parseParam('hash', params.hash, transactionHashSchema);
  return getTransaction(hash, parseQuery(req, transactionQuerySchema), true);
});

export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods('GET');
