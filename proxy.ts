import { NextResponse, type NextRequest } from 'next/server';
import { config as lanternConfig } from '@/lib/config';
import { checkActionHead, checkRequest, render } from '@/lib/edge';
import { directImageOrigins, requestIdFor, securityHeaders } from '@/lib/security/headers';
import { checksummedWalletPath } from '@/lib/view/wallet-path';

// WalletConnect's relay, RPC and modal hosts: allowed only when WALLETCONNECT_PROJECT_ID is set.
const WALLETCONNECT_HTTP = ['https://*.walletconnect.com', 'https://*.walletconnect.org', 'https://*.web3modal.org', 'https://*.reown.com'];

/**
 * Runs before every page: the edge guard's request checks (lib/edge/request.ts: methods a page does not
 * serve, OPTIONS, a malformed path or router state, /_next/image; a POST's Origin and size), then a per-request CSP nonce and
 * security headers, and a request id. Under `npm start` the node:http front has run the same checks
 * already; under `next start` and `npm run dev` this is where they run. The published API skips this
 * hop (it costs a third of its throughput): lib/api/handler.ts sets the API's own headers, and its route
 * handlers answer the methods they do not serve.
 */
export function proxy(request: NextRequest) {
  const c = lanternConfig();
  // The path as sent (nextUrl's is normalised): a malformed %-sequence must still be seen as one.
  const url = new URL(request.url);
  const path = url.pathname;
  const header = (name: string) => request.headers.get(name) ?? undefined;
  const refused = checkRequest(request.method, path, header);
  // Any POST to a page may be a server action: its Origin and declared size (lib/edge/actions.ts).
  const action = !refused && request.method === 'POST' ? checkActionHead(header, c.publicOrigins) : undefined;
  const answer = refused ?? (action && 'status' in action ? action : undefined);
  if (answer) {
    const { status, headers, body } = render(path, answer);
    return new NextResponse(body || null, { status, headers });
  }
  // A wallet page named in any case but the checksummed one: its one URL, before Next renders anything.
  const checksummed = request.method === 'GET' || request.method === 'HEAD' ? checksummedWalletPath(path, url.search) : null;
  // Next makes a same-origin Location relative again (the page's own redirect sends it relative too).
  if (checksummed) return NextResponse.redirect(new URL(checksummed, url), 308);
  const nonce = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
  const requestId = requestIdFor(request.headers.get('x-request-id'));
  const headers = securityHeaders({
    nonce,
    production: c.env === 'production',
    imageOrigins: [
      ...directImageOrigins(c),
      ...(c.walletConnectProjectId ? WALLETCONNECT_HTTP : []), // wallet logos in the QR modal
    ],
    connectOrigins: c.walletConnectProjectId ? [...WALLETCONNECT_HTTP, 'wss://*.walletconnect.com', 'wss://*.walletconnect.org'] : [],
  });

  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('x-nonce', nonce);
  requestHeaders.set('x-request-id', requestId);
  requestHeaders.set('Content-Security-Policy', headers['Content-Security-Policy']);
  if (action && 'forwardedHost' in action) requestHeaders.set('x-forwarded-host', action.forwardedHost);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
  response.headers.set('X-Request-Id', requestId);
  return response;
}

export const config = {
  // Pages: not the API (see above), nor build assets and public/ files (next.config.mjs sets their headers).
  // /_next/image is matched so the guard can say it is not served.
  matcher: [
    { source: '/((?!api/|_next/static|favicon\\.ico|icon\\.svg|icon-.*\\.png|apple-touch-icon\\.png|manifest\\.webmanifest|robots\\.txt).*)' },
  ],
};
