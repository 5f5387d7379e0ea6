import 'server-only';
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { config } from '@/lib/config';
import { badParameter } from '@/lib/errors';

/**
 * Opaque page cursors: `base64url(JSON payload) "." base64url(HMAC-SHA256)`, keyed by a key derived
 * from SESSION_SECRET. The payload holds a keyset position (never an offset, so new blocks do not shift
 * pages) and a digest of the query it belongs to; a cursor that was altered, forged, or taken from
 * another wallet, chain, order or range is a 400 naming `cursor`.
 */

let key: { secret: string; key: Buffer } | undefined;

function cursorKey(): Buffer {
  const secret = config().sessionSecret;
  if (!key || key.secret !== secret) key = { secret, key: createHmac('sha256', secret).update('lantern/evm-node/cursor/v1').digest() };
  return key.key;
}

/** A short digest of what a cursor is bound to (kind, address, chain, order, range...). */
export function queryBinding(parts: unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 16);
}

export function signCursor(binding: string, position: unknown[]): string {
  const payload = Buffer.from(JSON.stringify({ v: 1, q: binding, p: position })).toString('base64url');
  const mac = createHmac('sha256', cursorKey()).update(payload).digest('base64url');
  return `${payload}.${mac}`;
}

/** The keyset position of a cursor made for this query; anything else is a 400 on `cursor`. */
export function readCursor(cursor: string, binding: string): unknown[] {
  const [payload, mac, extra] = cursor.trim().split('.');
  if (!payload || !mac || extra !== undefined) throw badCursor('it is not a cursor this server issued');
  const want = createHmac('sha256', cursorKey()).update(payload).digest();
  const got = Buffer.from(mac, 'base64url');
  if (got.length !== want.length || !timingSafeEqual(got, want)) throw badCursor('it was altered or was not issued by this server');
  let body: { v?: number; q?: string; p?: unknown };
  try {
    body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw badCursor('it cannot be read');
  }
  if (body.v !== 1 || !Array.isArray(body.p)) throw badCursor('it cannot be read');
  if (body.q !== binding) {
    throw badCursor('it belongs to another query; keep address, chain, order and range the same while paging, or start without a cursor');
  }
  return body.p;
}

const badCursor = (why: string) => badParameter('cursor', `cursor: ${why}`);
