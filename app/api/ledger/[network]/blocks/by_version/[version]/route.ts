import { api, errorResponse, parseParam, parseQuery } from '@/lib/api/handler';
import { isLanternError } from '@/lib/errors';
import { blockQuerySchema, ledgerNetworkSchema, ledgerVersionSchema } from '@/lib/interface/ledger';
import { getBlockByVersionJson } from '@/lib/operations/ledger-block';

// Committed blocks never change: browsers and CDNs may keep a successful answer forever. Errors must
// not be kept at all: a version beyond the head today is a block tomorrow.
const IMMUTABLE = 'public, max-age=31536000, immutable';

export const GET = api<{ network: string; version: string }>(async (req, params) => {
  try {
    const network = parseParam('network', params.network, ledgerNetworkSchema);
    const version = parseParam('version', params.version, ledgerVersionSchema);
    const { with_transactions = false } = parseQuery(req, blockQuerySchema);
    const body = await getBlockByVersionJson(network, version, with_transactions);
    return new Response(body, { status: 200, headers: { 'Content-Type': 'application/json', 'Cache-Control': IMMUTABLE } });
  } catch (e) {
    if (!isLanternError(e)) throw e;
    const res = errorResponse(e, req);
    res.headers.set('Cache-Control', 'no-store');
    return res;
  }
});
