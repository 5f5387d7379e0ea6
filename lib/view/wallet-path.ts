import { getAddress } from 'viem';
import { ADDRESS_RE } from '@/lib/format';

/**
 * The one rule for a wallet's URL: every wallet has exactly one, its address in checksummed form. The
 * wallet pages (lib/server/page.ts `walletFromParam`) and proxy.ts both ask it: proxy.ts answers the
 * redirect before Next renders anything (the page's own redirect came only after the wallet's layout
 * had rendered, 100 to 450 ms later), and the page keeps its own for any path the proxy does not see.
 */

/** The wallet pages that redirect to their checksummed URL (the CSV downloads and images take any case). */
const WALLET_PAGE = /^\/wallet\/([^/]+)(\/activity|\/nfts|\/approvals|\/tokens)?$/;

/**
 * A path parameter with any %-escapes Next left in it decoded; as it came when they do not decode
 * (`%ZZ`: malformed), so a page shows what was asked instead of failing.
 */
export function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The checksummed form of a wallet named in a URL (decoded), or null when it is not an address. */
export function checksumWallet(decoded: string): `0x${string}` | null {
  return ADDRESS_RE.test(decoded) ? getAddress(decoded.toLowerCase()) : null;
}

/**
 * Where a request for `pathname` (as sent, still %-encoded) with `search` (`?...` or empty) must go
 * instead: the same wallet page under the checksummed address; null when it is not a wallet page, not
 * an address (the page's 404 says so) or already checksummed.
 */
export function checksummedWalletPath(pathname: string, search: string): string | null {
  const m = WALLET_PAGE.exec(pathname);
  if (!m) return null;
  const decoded = safeDecode(m[1]!);
  const checksummed = checksumWallet(decoded);
  if (!checksummed || checksummed === decoded) return null;
  return `/wallet/${checksummed}${m[2] ?? ''}${search}`;
}
