import { api, otherMethods, parseParam, parseQuery } from '@/lib/api/handler';
import { jsonTextResponse } from '@/lib/api/json-response';
import { blockQuerySchema, ledgerNetworkSchema, ledgerVersionSchema } from '@/lib/interface/ledger';
import { getBlockByVersionJson } from '@/lib/operations/ledger-block';

// Committed blocks never change: browsers and CDNs may keep a successful answer forever. (Errors are
// sent with no-store by the shared error response.)
const IMMUTABLE = 'public, max-age=31536000, immutable';
// And so may npm start's front (lib/api/answer-cache.ts).
const FOREVER = { until: Number.POSITIVE_INFINITY, fresh: () => true };

// Every request reads the path and query: dynamic, as the API's other routes say (without it Next wraps
// each request in a Proxy that watches for dynamic use, for nothing: the answer is never prerendered).
export const dynamic = 'force-dynamic';

export const GET = api<{ network: string; version: string }>(async (req, params) => {
  const network = parseParam('network', params.network, ledgerNetworkSchema);
  const version = parseParam('version', params.version, ledgerVersionSchema);
  const { with_transactions = false } = parseQuery(req, blockQuerySchema);
  const body = await getBlockByVersionJson(network, version, with_transactions);
  return jsonTextResponse(body, { headers: { 'Cache-Control': IMMUTABLE }, keep: FOREVER });
});

export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods('GET');
