import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { checkRequest } from '@/lib/edge';
import { pathFacts, uncachedPathFacts } from '@/lib/edge/request';
import { ROUTE_METHODS } from '@/lib/edge/routes';

// Paths near the real ones: route patterns with their [params] filled, dot and %-segments, and noise.
const segment = fc.oneof(
  fc.constantFrom('api', 'v2.2', 'wallets', 'history', 'ledger', 'blocks', '.', '..', '%2e', '%2E%2e', '%', '%zz', '%41', '_next', 'image', 'wallet', 'nft'),
  fc.stringMatching(/^0x[0-9a-fA-F]{40}$/),
  fc.string({ maxLength: 6 }),
);
const routePath = fc.constantFrom(...ROUTE_METHODS.map((r) => r.route)).chain((route) =>
  fc.tuple(...route.split('/').map((seg) => (seg.startsWith('[') ? segment : fc.constant(seg)))).map((segs) => segs.join('/')),
);
const path = fc.oneof(routePath, fc.array(segment, { maxLength: 6 }).map((s) => `/${s.join('/')}`), fc.constantFrom('/api', '/_next/image', '/', ''));
const method = fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'FOO');

test.prop([path])('the kept facts of a path are the facts computed afresh, on a miss and on a hit', (p) => {
  expect(pathFacts(p)).toEqual(uncachedPathFacts(p));
  expect(pathFacts(p)).toEqual(uncachedPathFacts(p));
});

test.prop([path, method, fc.option(fc.constantFrom('%5B%22%22%5D', '["",{}]', 'x'), { nil: undefined })])(
  'checkRequest answers the same on a path seen before as on its first sight',
  (p, m, routerState) => {
    const header = (name: string) => (name === 'next-router-state-tree' ? routerState : undefined);
    const first = checkRequest(m, p, header);
    const again = checkRequest(m, p, header);
    expect(again).toEqual(first);
    if (first) {
      // An answer is the caller's own: changing it changes nothing for the next request.
      first.status = 599;
      expect(checkRequest(m, p, header)).toEqual(again);
    }
  },
);

test('kept facts cannot be changed by a caller', () => {
  const f = pathFacts('/api/health');
  expect(Object.isFrozen(f)).toBe(true);
});
