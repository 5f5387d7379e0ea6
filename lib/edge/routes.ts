import manifest from './route-methods.json';

/** A route handler's URL pattern (Next's segment syntax) and the methods it serves. */
export interface RouteMethods {
  route: string;
  methods: string[];
}

/**
 * The route handlers' methods, read from app/**\/route.ts by scripts/route-methods.mjs (the build and a
 * unit test check the file is current), so the guard's Allow is the routes' own, never a second list.
 */
export const ROUTE_METHODS: readonly RouteMethods[] = manifest;

/** What Lantern serves as a whole (`OPTIONS *`), and what a non-path target (CONNECT's) is told. */
export const SERVER_METHODS = 'GET, HEAD, POST, OPTIONS';

/** Methods Next routes; any other (TRACE, PROPFIND, ...) never reaches a route handler. */
export const ROUTED_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export const isApiPath = (path: string) => path === '/api' || path.startsWith('/api/');

// How specific a segment is, as Next ranks them: static, then [param], then [...catchAll], then [[...optional]].
const rank = (seg: string) => (seg.startsWith('[[...') ? 3 : seg.startsWith('[...') ? 2 : seg.startsWith('[') ? 1 : 0);

function matches(pattern: string[], path: string[]): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const r = rank(pattern[i]);
    if (r >= 2) return r === 3 || path.length > i;
    if (i >= path.length || (r === 0 && pattern[i] !== path[i])) return false;
  }
  return pattern.length === path.length;
}

/** Whether segment ranks `a` beat `b`: the first segment that differs decides, the lower rank winning. */
function moreSpecific(a: number[], b: number[]): boolean {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return (a[i] ?? Infinity) < (b[i] ?? Infinity);
  }
  return false;
}

interface Compiled {
  route: RouteMethods;
  pattern: string[];
  key: number[];
  catchAll: boolean;
}

// Split and ranked once per table: the guard looks a route up on every request.
const compiledTables = new WeakMap<readonly RouteMethods[], Compiled[]>();
function compiled(routes: readonly RouteMethods[]): Compiled[] {
  let table = compiledTables.get(routes);
  if (!table) {
    table = routes.map((route) => {
      const pattern = route.route.split('/').filter(Boolean);
      const key = pattern.map(rank);
      return { route, pattern, key, catchAll: key.some((r) => r >= 2) };
    });
    compiledTables.set(routes, table);
  }
  return table;
}

function bestMatch(pathname: string, routes: readonly RouteMethods[]): Compiled | undefined {
  const path = pathname.split('/').filter(Boolean);
  let best: Compiled | undefined;
  for (const c of compiled(routes)) {
    if (matches(c.pattern, path) && (!best || moreSpecific(c.key, best.key))) best = c;
  }
  return best;
}

/** The route handler Next would pick for `pathname` (its most specific match), if any. */
export function routeFor(pathname: string, routes: readonly RouteMethods[] = ROUTE_METHODS): RouteMethods | undefined {
  return bestMatch(pathname, routes)?.route;
}

/**
 * The methods `pathname` serves, for Allow; undefined for an API path no operation serves (only the
 * API's catch-all, which answers 404 to every method, matches it). Route handlers answer for themselves;
 * pages take GET and POST (server actions); build files, public files and generated images GET only.
 */
export function allowedMethods(pathname: string, routes: readonly RouteMethods[] = ROUTE_METHODS): string | undefined {
  const best = bestMatch(pathname, routes);
  if (best) return best.catchAll ? undefined : best.route.methods.join(', ');
  if (isApiPath(pathname)) return undefined;
  // Next's own files and its metadata-image convention (opengraph-image, with or without its hash).
  if (pathname.startsWith('/_next/') || /\/opengraph-image[^/]*\/?$/.test(pathname) || /^\/[^/]+\.[a-z0-9]+$/i.test(pathname)) return 'GET, HEAD';
  return 'GET, HEAD, POST';
}

/** "GET or POST": the methods worth naming in a 405's sentence. */
export const methodsToUse = (allow: string) =>
  allow
    .split(', ')
    .filter((m) => m !== 'HEAD' && m !== 'OPTIONS')
    .join(' or ');

/** The 405's sentence, worded as the route handlers' own (lib/api/handler.ts otherMethods). */
export const notAllowed = (method: string, allow: string) => `${method} is not allowed here; use ${methodsToUse(allow)}.`;

export const noOperation = (path: string) => `No API operation at ${path}.`;
