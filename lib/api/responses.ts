import 'server-only';
import { config } from '@/lib/config';
import { LanternError, isLanternError } from '@/lib/errors';
import { log, requestLog } from '@/lib/log';
import { apiSecurityHeaders, corsHeaders, requestIdFor } from '@/lib/security/headers';
import { isLedgerPath, ledgerErrorBody } from './ledger-errors';

/**
 * What every answer of the published API carries, and its one error shape: used by api() (handler.ts) and
 * by the front's kept answers (answer-cache.ts), so both send the same headers and errors.
 */

/** The status logged for a request whose client hung up before the answer (nginx's 499; never sent). */
export const CLIENT_CLOSED = 499;

/** Security headers, CORS (closed unless CORS_ORIGINS names the origin) and the request id. */
export function withApiHeaders(req: Request, res: Response, requestId = requestIdFor(req.headers.get('x-request-id'))): Response {
  for (const [k, v] of Object.entries(apiHeaders(req, requestId))) res.headers.set(k, v);
  return res;
}

/** The headers withApiHeaders sets. */
export function apiHeaders(req: Request, requestId: string): Record<string, string> {
  const c = config();
  return { ...apiSecurityHeaders(c.env === 'production'), ...corsHeaders(req.headers.get('origin'), c.corsOrigins), 'X-Request-Id': requestId };
}

export function errorResponse(e: unknown, req?: Request, requestId?: string): Response {
  // The ledger paths answer errors in the ledger node's shape, so ledger SDKs read them as the node's.
  const body = req && isLedgerPath(new URL(req.url).pathname) ? ledgerErrorBody : (x: LanternError) => x.toJSON();
  if (isLanternError(e)) {
    // An error is about this moment (a version beyond the head today is a block tomorrow): never cache it.
    const headers: Record<string, string> = { 'Cache-Control': 'no-store' };
    if (e.retryAfter !== undefined) headers['Retry-After'] = String(e.retryAfter);
    return Response.json(body(e), { status: e.status, headers });
  }
  // The caller went away: expected, and api() logs it as the request's one line. Anything else is
  // unexpected: the stack goes to the log, never the body.
  if (req?.signal?.aborted) return new Response(null, { status: CLIENT_CLOSED });
  (req ? requestLog(req, requestId) : log()).error({ err: e }, 'unhandled error in route handler');
  return Response.json(body(new LanternError(500, 'internal_error', 'Lantern failed unexpectedly; the error has been logged.')), {
    status: 500,
    headers: { 'Cache-Control': 'no-store' },
  });
}
