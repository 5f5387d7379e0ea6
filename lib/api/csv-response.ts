import 'server-only';

/**
 * A CSV download: `body` (text, or a stream of it) as an attachment named `lantern-<parts joined by
 * dashes>.csv`, each part reduced to letters, digits, `.`, `_` and `-` (a chain's label has spaces; a
 * name from a URL could hold a quote). Never cached, never sniffed.
 */
export function csvResponse(body: BodyInit, nameParts: string[]): Response {
  const name = ['lantern', ...nameParts].map((p) => p.replace(/[^\w.-]+/g, '-')).join('-');
  return new Response(body, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${name}.csv"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
