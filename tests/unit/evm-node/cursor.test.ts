import { createHash, createHmac } from 'node:crypto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resetConfigForTests } from '@/lib/config';
import { LanternError } from '@/lib/errors';
import { queryBinding, readCursor, signCursor } from '@/lib/sources/evm-node/cursor';

// Page cursors: opaque, signed with a key derived from SESSION_SECRET, bound to their query. The
// expected MAC is recomputed here from the documented construction, not taken from the code.
const SECRET = 'unit-cursor-secret-0123456789abcdef0123456789';
beforeEach(() => {
  vi.stubEnv('NODE_ENV', 'test');
  vi.stubEnv('SESSION_SECRET', SECRET);
  vi.stubEnv('DATA_DIR', '/tmp/lantern-unit-cursor');
  resetConfigForTests();
});

const binding = queryBinding(['history', 1, '0xabc', 'DESC', null]);
const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    if (e instanceof LanternError) return { status: e.status, code: e.code, parameter: e.parameter, message: e.message };
    throw e;
  }
  throw new Error('expected a refusal');
};
const bad = (why: string) => ({ status: 400, code: 'invalid_parameter', parameter: 'cursor', message: `cursor: ${why}` });

describe('page cursors', () => {
  it('bind a query by a 16-character digest of its parts, different for any change', () => {
    const digest = (parts: unknown[]) => createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 16);
    expect(binding).toBe(digest(['history', 1, '0xabc', 'DESC', null]));
    expect(queryBinding(['history', 1, '0xabc', 'ASC', null])).toBe(digest(['history', 1, '0xabc', 'ASC', null]));
    expect(binding).toMatch(/^[A-Za-z0-9_-]{16}$/);
  });

  it('are base64url JSON then a HMAC-SHA256 under a key derived from SESSION_SECRET', () => {
    const c = signCursor(binding, [123, 4]);
    const [payload, mac] = c.split('.');
    expect(JSON.parse(Buffer.from(payload, 'base64url').toString())).toEqual({ v: 1, q: binding, p: [123, 4] });
    const key = createHmac('sha256', SECRET).update('lantern/evm-node/cursor/v1').digest();
    expect(mac).toBe(createHmac('sha256', key).update(payload).digest('base64url'));
  });

  it('round-trip their position, with surrounding spaces forgiven', () => {
    const c = signCursor(binding, [19_000_000, 7, '0xhash']);
    expect(readCursor(c, binding)).toEqual([19_000_000, 7, '0xhash']);
    expect(readCursor(` ${c}\n`, binding)).toEqual([19_000_000, 7, '0xhash']);
  });

  it('refuse what this server did not issue, saying why, on the cursor parameter', () => {
    const c = signCursor(binding, [1]);
    const [payload, mac] = c.split('.');
    expect(refusal(() => readCursor('', binding))).toEqual(bad('it is not a cursor this server issued'));
    expect(refusal(() => readCursor(payload, binding))).toEqual(bad('it is not a cursor this server issued'));
    expect(refusal(() => readCursor(`.${mac}`, binding))).toEqual(bad('it is not a cursor this server issued'));
    expect(refusal(() => readCursor(`${c}.x`, binding))).toEqual(bad('it is not a cursor this server issued'));
    const altered = Buffer.from(JSON.stringify({ v: 1, q: binding, p: [2] })).toString('base64url');
    expect(refusal(() => readCursor(`${altered}.${mac}`, binding))).toEqual(bad('it was altered or was not issued by this server'));
    expect(refusal(() => readCursor(`${payload}.${mac.slice(0, -2)}`, binding))).toEqual(bad('it was altered or was not issued by this server'));
    const flipped = mac.slice(0, -1) + (mac.endsWith('A') ? 'B' : 'A');
    expect(refusal(() => readCursor(`${payload}.${flipped}`, binding))).toEqual(bad('it was altered or was not issued by this server'));
  });

  it('refuse a cursor issued under another secret', () => {
    const c = signCursor(binding, [1]);
    vi.stubEnv('SESSION_SECRET', 'another-secret-0123456789abcdef0123456789ab');
    resetConfigForTests();
    expect(refusal(() => readCursor(c, binding))).toEqual(bad('it was altered or was not issued by this server'));
    expect(readCursor(signCursor(binding, [1]), binding)).toEqual([1]);
  });

  it('refuse a signed payload that is not a cursor body', () => {
    const key = createHmac('sha256', SECRET).update('lantern/evm-node/cursor/v1').digest();
    const sign = (body: string) => {
      const p = Buffer.from(body).toString('base64url');
      return `${p}.${createHmac('sha256', key).update(p).digest('base64url')}`;
    };
    expect(refusal(() => readCursor(sign('{nope'), binding))).toEqual(bad('it cannot be read'));
    expect(refusal(() => readCursor(sign(JSON.stringify({ v: 2, q: binding, p: [1] })), binding))).toEqual(bad('it cannot be read'));
    expect(refusal(() => readCursor(sign(JSON.stringify({ v: 1, q: binding, p: 1 })), binding))).toEqual(bad('it cannot be read'));
    expect(readCursor(sign(JSON.stringify({ v: 1, q: binding, p: [] })), binding)).toEqual([]);
  });

  it('refuse a cursor of another query', () => {
    const other = queryBinding(['history', 1, '0xabc', 'ASC', null]);
    expect(refusal(() => readCursor(signCursor(other, [1]), binding))).toEqual(
      bad('it belongs to another query; keep address, chain, order and range the same while paging, or start without a cursor'),
    );
  });
});
