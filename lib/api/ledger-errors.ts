import 'server-only';
import type { ErrorCode, LanternError } from '@/lib/errors';

/**
 * Errors on the ledger paths (`/api/ledger/...`) in the ledger node's own shape, `{message, error_code,
 * vm_error_code}` (the fullnode's AptosError), so ledger SDKs pointed at a Lantern read them as they read
 * a node's. Lantern's own `code` (and `parameter`) stay alongside for clients written against them.
 */

export const isLedgerPath = (pathname: string) => pathname.startsWith('/api/ledger/');

/** The fullnode's `error_code` for each of Lantern's codes (the node's vocabulary: AptosErrorCode). */
function nodeErrorCode(code: ErrorCode): string {
  switch (code) {
    case 'version_not_found':
      return 'version_not_found';
    case 'block_not_found':
      return 'block_not_found';
    case 'block_pruned':
      // by_version is the only ledger lookup: the node says the version was pruned.
      return 'version_pruned';
    case 'invalid_parameter':
    case 'invalid_request':
    case 'upstream_bad_request':
      return 'invalid_input';
    case 'not_found':
    case 'method_not_allowed':
    case 'unauthorized':
    case 'forbidden':
    case 'payload_too_large':
    case 'unsupported_media_type':
    case 'origin_not_allowed':
    case 'expectation_failed':
    case 'uri_too_long':
    case 'request_headers_too_large':
    case 'request_timeout':
      return 'web_framework_error';
    default:
      return 'internal_error';
  }
}

export function ledgerErrorBody(e: LanternError): Record<string, unknown> {
  return { ...e.toJSON(), error_code: nodeErrorCode(e.code), vm_error_code: null };
}
