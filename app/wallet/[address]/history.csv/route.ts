import { csvResponse } from '@/lib/api/csv-response';
import { api, parseParam, parseQuery, queryObject } from '@/lib/api/handler';
import { addressSchema, queryBoolean } from '@/lib/interface/common';
import { historyQuerySchema } from '@/lib/interface/history';
import { historyCsvStream } from './history-csv';
import { toDateBound } from '@/lib/view/search-params';

export const dynamic = 'force-dynamic';

/**
 * The wallet's history as CSV, with the filters of the page's URL (chain, order, range, internal,
 * spam, token). Streamed page by page, so the first rows download while later pages are still being read.
 * Open like the pages themselves: a download link cannot send the page token.
 */
export const GET = api<{ address: string }>(
  async (req, params) => {
    const address = parseParam('address', params.address, addressSchema);
    const url = new URL(req.url);
    // The page's URL speaks `internal` and `order=asc`; the operation speaks the API's names.
    if (url.searchParams.has('internal')) url.searchParams.set('include_internal_transactions', url.searchParams.get('internal') ?? '');
    url.searchParams.delete('internal');
    for (const t of url.searchParams.getAll('token')) url.searchParams.append('token_addresses', t);
    url.searchParams.delete('token');
    const toDate = url.searchParams.get('to_date');
    if (toDate) url.searchParams.set('to_date', toDateBound(toDate));
    // The page's `spam` is a boolean like the API's (any case of true/false; anything else is a 400 naming it).
    const includeSpam = parseParam('spam', queryObject(url).spam, queryBoolean) ?? false;
    url.searchParams.delete('spam');
    for (const k of ['cursor', 'time', 'limit']) url.searchParams.delete(k);
    const query = parseQuery(new Request(url), historyQuerySchema);
    const { stream, chain } = await historyCsvStream(address, query, { includeSpam });
    return csvResponse(stream, [address, chain]);
  },
  { open: true },
);
