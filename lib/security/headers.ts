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

export function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
