import { api, otherMethods, parseParam, parseQuery } from '@/lib/api/handler';
import { liveQuerySchema, resumeFrom } from '@/lib/api/live';
import { addressSchema } from '@/lib/interface/common';
import { LIVE_HEADERS, liveHub } from '@/lib/live';
import { liveChain } from '@/lib/operations/live';
import { clientIp } from '@/lib/security/rate-limit';

export const dynamic = 'force-dynamic';

// Lantern's own (not the published interface): a wallet's new transactions as Server-Sent Events, for
// its pages. Open like the pages are (no API key), rate-limited as one request per stream opened.
export const GET = api<{ address: string }>(
  async (req, params) => {
    const address = parseParam('address', params.address, addressSchema);
    const query = parseQuery(req, liveQuerySchema);
    const since = resumeFrom(req, query.since);
    const chain = await liveChain(query.chain);
    return liveHub().openWallet(chain, address, since, clientIp(req.headers), req.signal);
  },
  { open: true, stream: true },
);

// HEAD: the same checks and headers, and no stream (nothing to hold open for an answer without a body).
export const HEAD = api<{ address: string }>(
  async (req, params) => {
    parseParam('address', params.address, addressSchema);
    const query = parseQuery(req, liveQuerySchema);
    resumeFrom(req, query.since);
    await liveChain(query.chain);
    return new Response(null, { headers: LIVE_HEADERS });
  },
  { open: true },
);

export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods('GET');
