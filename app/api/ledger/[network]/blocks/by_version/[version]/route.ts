import { api, otherMethods, parseParam, parseQuery } from '@/lib/api/handler';
import { jsonTextResponse } from '@/lib/api/json-response';
import { blockQuerySchema, ledgerNetworkSchema, ledgerVersionSchema } from '@/lib/interface/ledger';
import { getBlockByVersionJson } from '@/lib/operations/ledger-block';

// Committed blocks never change: browsers and CDNs may keep a successful answer forever. (Errors are
// sent with no-store by the shared error response.)
const IMMUTABLE = 'public, max-age=31536000, immutable';

export const GET = api<{ network: string; version: string }>(async (req, params) => {
  const network = parseParam('network', params.network, ledgerNetworkSchema);
  const version = parseParam('version', params.version, ledgerVersionSchema);
  const { with_transactions = false } = parseQuery(req, blockQuerySchema);
  const body = await getBlockByVersionJson(network, version, with_transactions);
  return jsonTextResponse(body, { headers: { 'Cache-Control': IMMUTABLE } });
});

export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods('GET');
