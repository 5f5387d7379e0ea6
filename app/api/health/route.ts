import { otherMethods, withApiHeaders } from '@/lib/api/handler';
import { liveStatus } from '@/lib/live';
import { health, readiness } from '@/lib/operations/health';

export const dynamic = 'force-dynamic';

// Open to load balancers whatever API_KEYS says, and not rate limited: it is how instances are watched.
// Plain: liveness, 200 while the process answers, its body naming each fault. `?ready`: readiness, 503
// while the database is unavailable (scripts/server.mjs answers it itself until the warm-up is done).
export async function GET(req: Request) {
  const headers = { 'Cache-Control': 'no-store' };
  if (new URL(req.url).searchParams.has('ready')) {
    const r = await readiness();
    return withApiHeaders(req, Response.json(r, { status: r.ready ? 200 : 503, headers }));
  }
  return withApiHeaders(req, Response.json({ ...(await health()), live: liveStatus() }, { headers }));
}

export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods('GET');
