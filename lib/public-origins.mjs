// Where Lantern is served (PUBLIC_URL), parsed one way for lib/config.ts and for scripts/server.mjs,
// which guards server actions before Next sees them. Plain JavaScript so the server script can import it.

/**
 * PUBLIC_URL to normalised origins (`scheme://host[:port]`, lowercase, no default port, no path).
 * Throws an Error whose message names PUBLIC_URL and the rule; the value itself may be shown, it is public.
 * @param {string | undefined} raw
 * @returns {string[]}
 */
export function parsePublicOrigins(raw) {
  const entries = (raw ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  return entries.map((entry) => {
    let u;
    try {
      u = new URL(entry);
    } catch {
      throw new Error(`PUBLIC_URL: "${entry}" is not a URL; give the origin people open Lantern at, such as https://lantern.example.com`);
    }
    if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error(`PUBLIC_URL: "${entry}" must be an http(s) origin`);
    if (u.username || u.password || u.search || u.hash || (u.pathname !== '/' && u.pathname !== '')) {
      throw new Error(`PUBLIC_URL: "${entry}" must be an origin only (scheme, host and port; no path, query or credentials)`);
    }
    return u.origin.toLowerCase();
  });
}

/**
 * The origins a development server answers at when PUBLIC_URL is unset: its own, by both loopback names.
 * @param {number | string} port
 * @returns {string[]}
 */
export function developmentOrigins(port) {
  return [`http://localhost:${port}`, `http://127.0.0.1:${port}`];
}

/**
 * The configured origin a request's Origin header names, or undefined. The header only picks among
 * configured origins; it never adds one.
 * @param {string[]} origins
 * @param {string | null | undefined} header
 * @returns {string | undefined}
 */
export function matchOrigin(origins, header) {
  if (!header) return undefined;
  let o;
  try {
    o = new URL(header).origin.toLowerCase();
  } catch {
    return undefined;
  }
  return origins.includes(o) ? o : undefined;
}
