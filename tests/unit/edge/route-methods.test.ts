import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { allowedMethods, checkRequest } from '@/lib/edge';
import { MANIFEST, deriveRouteMethods, manifestText } from '../../../scripts/route-methods.mjs';

/**
 * The edge guard's Allow comes from the route modules: lib/edge/route-methods.json must be what
 * app/**\/route.ts export (scripts/route-methods.mjs reads them), and a route's exports decide the answer.
 */

describe('lib/edge/route-methods.json', () => {
  it('is what the route modules export (else: node scripts/route-methods.mjs)', () => {
    expect(readFileSync(MANIFEST, 'utf8')).toBe(manifestText(deriveRouteMethods()));
  });
});

describe('a route module decides its Allow', () => {
  const app = mkdtempSync(path.join(tmpdir(), 'lantern-routes-'));
  afterAll(() => rmSync(app, { recursive: true, force: true }));
  const write = (rel: string, source: string) => {
    mkdirSync(path.dirname(path.join(app, rel)), { recursive: true });
    writeFileSync(path.join(app, rel), source);
  };
  const header = () => undefined;

  it('GET with otherMethods refusals; then a POST export added; then GET removed', () => {
    write('api/things/[id]/route.ts', "export const GET = api(read);\nexport const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods('GET');\n");
    write('(group)/wallet/[address]/export.csv/route.ts', 'export async function GET() {}\n');
    write('api/[...path]/route.ts', 'const nf = () => 1;\nexport { nf as GET, nf as POST };\n');
    let routes = deriveRouteMethods(app);
    expect(routes).toEqual([
      { route: '/api/[...path]', methods: ['GET', 'HEAD', 'POST'] },
      { route: '/api/things/[id]', methods: ['GET', 'HEAD', 'OPTIONS'] },
      { route: '/wallet/[address]/export.csv', methods: ['GET', 'HEAD'] },
    ]);
    expect(allowedMethods('/api/things/1', routes)).toBe('GET, HEAD, OPTIONS');
    expect(allowedMethods('/wallet/0xabc/export.csv', routes)).toBe('GET, HEAD');
    expect(allowedMethods('/api/things/1/more', routes)).toBeUndefined();

    write('api/things/[id]/route.ts', "export const GET = api(read);\nexport const POST = api(write);\nexport const { OPTIONS, PUT, PATCH, DELETE } = otherMethods('GET', 'POST');\n");
    routes = deriveRouteMethods(app);
    expect(allowedMethods('/api/things/1', routes)).toBe('GET, HEAD, POST, OPTIONS');

    write('api/things/[id]/route.ts', "export const POST = api(write);\nexport const { OPTIONS, GET, PUT, PATCH, DELETE } = otherMethods('POST');\n");
    routes = deriveRouteMethods(app);
    expect(allowedMethods('/api/things/1', routes)).toBe('POST, OPTIONS');
  });

  it("the guard's answer follows the manifest it is given", () => {
    expect(checkRequest('TRACE', '/api/health', header)).toEqual({
      status: 405,
      code: 'method_not_allowed',
      message: 'TRACE is not allowed here; use GET.',
      headers: { Allow: 'GET, HEAD, OPTIONS' },
    });
    // A page path that a route handler serves GET-only refuses POST (tokens.csv, once missed by a hand-kept list).
    expect(checkRequest('POST', '/wallet/0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045/tokens.csv', header)).toMatchObject({ status: 405, headers: { Allow: 'GET, HEAD' } });
  });
});
