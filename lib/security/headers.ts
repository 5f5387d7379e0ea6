/**
 * Security headers for every response. The CSP carries a fresh nonce per request: Next.js reads it
 * from the request's CSP header and stamps its own scripts with it, and 'strict-dynamic' lets those
 * load their chunks, so no inline script without the nonce can run.
 */
export interface HeaderOptions {
  nonce: string;
  production: boolean;
  /** Origins NFT images may come from besides self and data: (the configured IPFS/Arweave gateways). */
  imageOrigins: string[];
  /** Extra origins the page may connect to (WalletConnect relays when configured). */
  connectOrigins?: string[];
}

export function contentSecurityPolicy(o: HeaderOptions): string {
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'", `'nonce-${o.nonce}'`, "'strict-dynamic'", ...(o.production ? [] : ["'unsafe-eval'"])],
    // React and Tailwind set style attributes; styles cannot run code, so inline styles stay allowed.
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', ...o.imageOrigins],
    'font-src': ["'self'"],
    'connect-src': ["'self'", ...(o.connectOrigins ?? []), ...(o.production ? [] : ['ws:'])],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  return Object.entries(directives)
    .map(([k, v]) => `${k} ${v.join(' ')}`)
    .join('; ');
}

export function securityHeaders(o: HeaderOptions): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(o),
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
    ...(o.production ? { 'Strict-Transport-Security': 'max-age=63072000; includeSubDomains' } : {}),
  };
}

/**
 * Origins NFT images load from directly (the CSP's img-src besides self and data:): the IPFS and
 * Arweave gateways and NFT_MEDIA_ORIGINS. An image anywhere else goes through Lantern's media proxy
 * (app/api/nft-media), which passes raster images only.
 */
export function directImageOrigins(c: { ipfsGateway: string; arweaveGateway: string; nftMediaOrigins: readonly string[] }): string[] {
  return [c.ipfsGateway, c.arweaveGateway, ...c.nftMediaOrigins].map(originOf).filter((o): o is string => !!o);
}

export function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** Headers for JSON answers of the published API: nothing in them may run, frame or be sniffed. */
export function apiSecurityHeaders(production: boolean): Record<string, string> {
  return {
    'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    ...(production ? { 'Strict-Transport-Security': 'max-age=63072000; includeSubDomains' } : {}),
  };
}

/** CORS for the published API: closed unless the request's Origin is one of the configured ones. */
export function corsHeaders(origin: string | null, allowed: string[]): Record<string, string> {
  if (origin === null || !allowed.includes(origin)) return {};
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Headers': 'Content-Type, X-API-Key, X-Lantern-Page-Token',
    'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
    'Access-Control-Max-Age': '600',
    Vary: 'Origin',
  };
}

/** A caller's X-Request-Id when it looks like an id, else a fresh one. */
export function requestIdFor(incoming: string | null): string {
  return incoming && /^[\w.:-]{8,128}$/.test(incoming) ? incoming : crypto.randomUUID();
}
