// What Next does around a route's answer, done the same way where `npm start`'s front sends an answer
// itself (scripts/lib/api-front.mjs, lib/api/answer-cache.ts): its compression and its Vary header.
// tests/integration/api-front.test.ts holds both to Next's own answers.

/** Whether Accept-Encoding allows gzip (named, or `*`, with no q=0). */
export function acceptsGzip(header) {
  if (!header) return false;
  let star = false;
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const allowed = q === undefined || Number(q.slice(2)) > 0;
    if (name.trim() === 'gzip') return allowed;
    if (name.trim() === '*') star = allowed;
  }
  return star;
}

/**
 * Next's compression compresses any non-empty answer it may (its 1 KB threshold is read from a
 * Content-Length, which a route's streamed answer does not have when its headers go out).
 */
export function gzipWanted(body, contentType, acceptEncoding) {
  return body.length > 0 && COMPRESSIBLE.test(contentType ?? '') && acceptsGzip(acceptEncoding);
}

/** The Vary Next's app router sets on every route's answer (its RSC requests share the paths). */
export const ROUTE_VARY = 'rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch';

/** Next's compression compresses these (its `compressible` filter, for what the API sends). */
export const COMPRESSIBLE = /^(application\/(json|[\w.+-]+\+json)|text\/)/i;
