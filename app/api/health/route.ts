import { otherMethods, withApiHeaders } from '@/lib/api/handler';
import { liveStatus } from '@/lib/live';
import { health } from '@/lib/operations/health';

export const dynamic = 'force-dynamic';

// Open to load balancers whatever API_KEYS says, and not rate limited: it is how instances are watched.
export async function GET(req: Request) {
  const report = { ...(await health()), live: liveStatus() };
  return withApiHeaders(req, Response.json(report, { status: report.ok ? 200 : 503, headers: { 'Cache-Control': 'no-store' } }));
}

export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods('GET');
