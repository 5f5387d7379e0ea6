import { NextResponse, type NextRequest } from 'next/server';
import { config as lanternConfig } from '@/lib/config';
import { originOf, securityHeaders } from '@/lib/security/headers';

/**
 * Runs before every page and API request: a per-request CSP nonce and security headers, a request
 * id for the logs, and CORS for the published API (closed unless CORS_ORIGINS names the origin).
 */
// WalletConnect's relay, RPC and modal hosts: allowed only when WALLETCONNECT_PROJECT_ID is set.
const WALLETCONNECT_HTTP = ['https://*.walletconnect.com', 'https://*.walletconnect.org', 'https://*.web3modal.org', 'https://*.reown.com'];

export function proxy(request: NextRequest) {
  const c = lanternConfig();
  const nonce = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
  const incomingId = request.headers.get('x-request-id');
  const requestId = incomingId && /^[\w.:-]{8,128}$/.test(incomingId) ? incomingId : crypto.randomUUID();
  const headers = securityHeaders({
    nonce,
    production: c.env === 'production',
    imageOrigins: [
      ...[c.ipfsGateway, c.arweaveGateway].map(originOf).filter((o): o is string => !!o),
      ...(c.walletConnectProjectId ? WALLETCONNECT_HTTP : []), // wallet logos in the QR modal
    ],
    connectOrigins: c.walletConnectProjectId ? [...WALLETCONNECT_HTTP, 'wss://*.walletconnect.com', 'wss://*.walletconnect.org'] : [],
  });

  const isApi = request.nextUrl.pathname.startsWith('/api/');
  const origin = request.headers.get('origin');
  const corsAllowed = isApi && origin !== null && c.corsOrigins.includes(origin);
  const cors: Record<string, string> = corsAllowed
    ? {
        'Access-Control-Allow-Origin': origin!,
        'Access-Control-Allow-Headers': 'Content-Type, X-API-Key, X-Lantern-Page-Token',
        'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
        'Access-Control-Max-Age': '600',
        Vary: 'Origin',
      }
    : {};

  if (isApi && !wellEncoded(request.nextUrl.pathname)) {
    // Next would throw decoding such a path parameter and answer 500; it is the caller's mistake.
    return NextResponse.json(
      { message: 'The path contains malformed percent-encoding.', code: 'invalid_request' },
      { status: 400, headers: { ...headers, ...cors, 'X-Request-Id': requestId } },
    );
  }

  if (isApi && request.method === 'OPTIONS') {
    // Preflight: allowed origins get the CORS headers; others get none, so the browser refuses.
    return new NextResponse(null, { status: 204, headers: { ...cors, 'X-Request-Id': requestId } });
  }

  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('x-nonce', nonce);
  requestHeaders.set('x-request-id', requestId);
  requestHeaders.set('Content-Security-Policy', headers['Content-Security-Policy']);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  for (const [k, v] of Object.entries({ ...headers, ...cors })) response.headers.set(k, v);
  response.headers.set('X-Request-Id', requestId);
  return response;
}

function wellEncoded(pathname: string): boolean {
  try {
    pathname.split('/').forEach((segment) => decodeURIComponent(segment));
    return true;
  } catch {
    return false;
  }
}

export const config = {
  // Everything but build assets and icons: those carry no user data and are cached immutably.
  matcher: [{ source: '/((?!_next/static|_next/image|favicon.ico|icon.svg).*)' }],
};
