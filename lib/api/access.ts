import 'server-only';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { config } from '@/lib/config';
import { LanternError } from '@/lib/errors';

/**
 * Who may call the published API. With API_KEYS unset it is open. With API_KEYS set, a caller sends
 * one of them as `X-API-Key`; Lantern's own pages instead carry a short-lived page token that the
 * server signs into the HTML (`X-Lantern-Page-Token`), so no key ever reaches a browser.
 */

export const PAGE_TOKEN_HEADER = 'x-lantern-page-token';
const PAGE_TOKEN_TTL_S = 60 * 60;

export function requireApiAccess(req: Request): void {
  const { apiKeys } = config();
  if (apiKeys.length === 0) return;
  const key = req.headers.get('x-api-key');
  if (key !== null) {
    if (apiKeys.some((k) => safeEqual(k, key))) return;
    throw new LanternError(401, 'unauthorized', 'The X-API-Key header does not match any key of this server.');
  }
  const token = req.headers.get(PAGE_TOKEN_HEADER);
  if (token !== null && verifyPageToken(token)) return;
  throw new LanternError(
    401,
    'unauthorized',
    token !== null ? 'The page token has expired; reload the page.' : 'This server requires an API key: send it as X-API-Key.',
  );
}

export function issuePageToken(now = Date.now()): string {
  const exp = Math.floor(now / 1000) + PAGE_TOKEN_TTL_S;
  return `${exp}.${sign(String(exp))}`;
}

export function verifyPageToken(token: string, now = Date.now()): boolean {
  const m = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return false;
  if (Number(m[1]) < Math.floor(now / 1000)) return false;
  return safeEqual(sign(m[1]), m[2]);
}

function sign(payload: string): string {
  return createHmac('sha256', config().sessionSecret).update(`lantern-page-token:${payload}`).digest('base64url');
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
