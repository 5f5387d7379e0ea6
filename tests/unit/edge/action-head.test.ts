import { describe, expect, it } from 'vitest';
import { MAX_ACTION_BYTES, checkActionHead } from '@/lib/edge';

/** The head checks of a POST to a page, which proxy.ts runs under `next start` and `npm run dev` too. */
const ORIGINS = ['https://lantern.example', 'http://127.0.0.1:3000'];
const headers = (h: Record<string, string>) => (name: string) => h[name];

describe('checkActionHead', () => {
  it('an Origin of PUBLIC_URL passes, and Next is told that origin’s host', () => {
    expect(checkActionHead(headers({ origin: 'http://127.0.0.1:3000', 'content-length': '2' }), ORIGINS)).toEqual({ forwardedHost: '127.0.0.1:3000' });
  });

  it.each([
    ['no Origin', {}],
    ['another origin', { origin: 'https://evil.example' }],
    ['the opaque origin', { origin: 'null' }],
  ])('%s: 403', (_what, h) => {
    expect(checkActionHead(headers(h), ORIGINS)).toMatchObject({ status: 403, code: 'origin_not_allowed' });
  });

  it('a declared length over the limit: 413; at the limit it passes', () => {
    expect(checkActionHead(headers({ origin: ORIGINS[0], 'content-length': String(MAX_ACTION_BYTES + 1) }), ORIGINS)).toMatchObject({ status: 413, code: 'payload_too_large' });
    expect(checkActionHead(headers({ origin: ORIGINS[0], 'content-length': String(MAX_ACTION_BYTES) }), ORIGINS)).toEqual({ forwardedHost: 'lantern.example' });
  });
});
