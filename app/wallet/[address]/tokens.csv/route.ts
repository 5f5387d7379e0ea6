import { csvResponse } from '@/lib/api/csv-response';
import { api, parseParam, queryObject } from '@/lib/api/handler';
import { addressSchema, queryBoolean } from '@/lib/interface/common';
import { readTokens } from '@/lib/server/tokens-page';
import { csvLine } from '@/lib/view/csv';

export const dynamic = 'force-dynamic';

const TOKENS_CSV_COLUMNS = ['token_address', 'name', 'symbol', 'balance', 'balance_raw', 'decimals', 'native', 'possible_spam', 'block'];

/**
 * The Tokens tab as CSV, with its URL's view (chain, spam): one row per holding, as the tab lists them.
 * Open like the pages themselves (a download link cannot send the page token).
 */
export const GET = api<{ address: string }>(
  async (req, params) => {
    const address = parseParam('address', params.address, addressSchema);
    const q = queryObject(new URL(req.url));
    const spam = parseParam('spam', q.spam, queryBoolean) ?? false;
    const chain = typeof q.chain === 'string' ? q.chain : null;
    // Read before the first byte: a chain this server does not serve is the JSON 4xx, not a CSV.
    const data = await readTokens(address, { chain, spam });
    const body = [
      csvLine(TOKENS_CSV_COLUMNS),
      ...data.rows.map((r) => csvLine([r.address, r.name, r.symbol, r.balance.full, r.raw, r.decimals, r.native, r.spam, data.block])),
    ].join('');
    return csvResponse(body, [address, 'tokens', ...(chain ? [chain] : [])]);
  },
  { open: true },
);
