// Next's own reader of the router-state header: Next throws (500) on a value it cannot read, so the guard
// asks the same reader first. (A Next internal: the one place Lantern loads one; lint keeps it here.)
import { parseAndValidateFlightRouterState } from 'next/dist/server/app-render/parse-and-validate-flight-router-state';
import type { Answer } from './answers';
import { ROUTED_METHODS, allowedMethods, isApiPath, noOperation, notAllowed } from './routes';

function wellEncoded(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/** A `.` or `..` segment, written plainly or %-encoded (the path is known to be well encoded). */
export const hasDotSegment = (path: string) => path.split('/').some((seg) => ['.', '..'].includes(decodeURIComponent(seg)));

/** What checkRequest reads from a path alone; each later fact is computed only when the earlier ones let it matter. */
export interface PathFacts {
  wellEncoded: boolean;
  api: boolean;
  dotSegment: boolean;
  allow: string | undefined;
}

export function uncachedPathFacts(path: string): PathFacts {
  const wellEncodedPath = wellEncoded(path);
  const api = isApiPath(path);
  const dotSegment = wellEncodedPath && api && hasDotSegment(path);
  return { wellEncoded: wellEncodedPath, api, dotSegment, allow: wellEncodedPath && !dotSegment ? allowedMethods(path) : undefined };
}

// Kept per path: the guard checks every request, and a busy endpoint is asked the same path over and
// over (the route table's match was the guard's largest cost). Bounded, oldest out; long paths are not kept.
const FACTS_ENTRIES = 1024;
const FACTS_KEY_CHARS = 1024;
const facts = new Map<string, Readonly<PathFacts>>();

export function pathFacts(path: string): Readonly<PathFacts> {
  let f = facts.get(path);
  if (f) return f;
  f = Object.freeze(uncachedPathFacts(path));
  if (path.length > FACTS_KEY_CHARS) return f;
  if (facts.size >= FACTS_ENTRIES) facts.delete(facts.keys().next().value as string);
  facts.set(path, f);
  return f;
}

/**
 * The checks that need only a request's method, path (undecoded, without the query) and headers: what
 * Next would answer with a 5xx, an empty body or an HTML page. undefined: pass the request on.
 * Run by the node:http front (`npm start`) for every request and by proxy.ts for the paths it sees.
 */
export function checkRequest(method: string, path: string, header: (name: string) => string | undefined): Answer | undefined {
  const { wellEncoded, api, dotSegment, allow } = pathFacts(path);
  if (!wellEncoded) {
    // Next throws while decoding a malformed %-sequence in a path parameter and answers 500.
    return { status: 400, code: 'invalid_request', message: 'The path contains malformed percent-encoding.' };
  }
  // Next would resolve them, and answer the HTML 404 page.
  if (dotSegment) {
    return { status: 404, code: 'not_found', message: `No API operation at ${path}: dot segments ("." and "..", encoded or not) are not resolved.` };
  }
  if (allow === undefined) {
    // Only the API's catch-all matches: it answers every routed method 404, and so is every other.
    return ROUTED_METHODS.has(method) ? undefined : { status: 404, code: 'not_found', message: noOperation(path) };
  }
  // The API's route handlers answer the routed methods they do not serve themselves (lib/api/handler.ts
  // otherMethods); pages, files and downloads do not, so every other method is answered here.
  if (!ROUTED_METHODS.has(method) || (!api && method !== 'OPTIONS' && !allow.split(', ').includes(method))) {
    return { status: 405, code: 'method_not_allowed', message: notAllowed(method, allow), headers: { Allow: allow } };
  }
  if (!api && method === 'OPTIONS') return { status: 204, headers: { Allow: allow } };
  const routerState = header('next-router-state-tree');
  if (!api && routerState !== undefined) {
    try {
      parseAndValidateFlightRouterState(routerState);
    } catch {
      return { status: 400, code: 'invalid_request', message: 'The Next-Router-State-Tree header is not a router state Lantern’s pages send.' };
    }
  }
  if (path === '/_next/image') {
    // Next's image optimizer, which Lantern does not use (NFT media are plain <img>): not offered at all.
    return { status: 404, code: 'not_found', message: 'Lantern resizes no images: /_next/image is not served.' };
  }
  return undefined;
}
