import { api, otherMethods, parseQuery } from '@/lib/api/handler';
import { liveQuerySchema } from '@/lib/api/live';
import { LIVE_HEADERS, liveHub } from '@/lib/live';
import { liveChain } from '@/lib/operations/live';
import { clientIp } from '@/lib/security/rate-limit';

export const dynamic = 'force-dynamic';

// Lantern's own: a chain's new heads as Server-Sent Events (a pending transaction's page waits on them).
export const GET = api(
  async (req) => {
    const query = parseQuery(req, liveQuerySchema);
    const chain = await liveChain(query.chain);
    return liveHub().openHeads(chain, clientIp(req.headers), req.signal);
  },
  { open: true, stream: true },
);

export const HEAD = api(
  async (req) => {
    await liveChain(parseQuery(req, liveQuerySchema).chain);
    return new Response(null, { headers: LIVE_HEADERS });
  },
  { open: true },
);

export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods('GET');
