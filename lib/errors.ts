/**
 * The one error type every layer throws. Route handlers turn it into `{message, code}` with its status;
 * pages turn it into an error state. Messages are written for the person reading them and never carry
 * a secret (the hosted client scrubs upstream text before it gets here).
 */
export type ErrorCode =
  | 'invalid_request'
  | 'invalid_parameter'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'expectation_failed'
  | 'uri_too_long'
  | 'request_headers_too_large'
  | 'request_timeout'
  | 'rate_limited'
  | 'too_many_streams'
  | 'version_not_found'
  | 'block_not_found'
  | 'block_pruned'
  | 'transaction_not_found'
  | 'transaction_pending'
  | 'challenge_expired'
  | 'challenge_not_found'
  | 'challenge_used'
  | 'signature_mismatch'
  | 'challenge_not_yet_valid'
  | 'message_mismatch'
  | 'contract_wallet_refused'
  | 'chain_unsupported'
  | 'wrong_chain'
  | 'domain_mismatch'
  | 'uri_mismatch'
  | 'origin_not_allowed'
  | 'challenge_not_issued_here'
  | 'not_signed_in'
  | 'upstream_bad_request'
  | 'upstream_key_rejected'
  | 'upstream_rate_limited'
  | 'upstream_timeout'
  | 'upstream_unavailable'
  | 'upstream_bad_response'
  | 'upstream_misconfigured'
  | 'database_unavailable'
  | 'internal_error';

export class LanternError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  /** Seconds, sent as `Retry-After` when set. */
  readonly retryAfter?: number;
  /** For 400s: the request parameter that was wrong. */
  readonly parameter?: string;
  /** For upstream failures: which source failed (`ledger-node:local`, `evm-node`, `hosted:host`), for the log line. */
  readonly source?: string;

  constructor(status: number, code: ErrorCode, message: string, extra: { retryAfter?: number; parameter?: string; source?: string } = {}) {
    super(message);
    this.name = 'LanternError';
    this.status = status;
    this.code = code;
    this.retryAfter = extra.retryAfter;
    this.parameter = extra.parameter;
    this.source = extra.source;
  }

  toJSON() {
    return { message: this.message, code: this.code, ...(this.parameter ? { parameter: this.parameter } : {}) };
  }
}

export const badParameter = (parameter: string, message: string) =>
  new LanternError(400, 'invalid_parameter', message, { parameter });

export const notFound = (message: string, code: ErrorCode = 'not_found') => new LanternError(404, code, message);

/**
 * Also true for a LanternError made by another bundle's copy of this module (route bundles may each hold
 * one, and a promise or client shared on globalThis can carry one across), where instanceof is false.
 */
export function isLanternError(e: unknown): e is LanternError {
  if (e instanceof LanternError) return true;
  const x = e as { name?: unknown; status?: unknown; code?: unknown; toJSON?: unknown } | null | undefined;
  return x?.name === 'LanternError' && typeof x.status === 'number' && typeof x.code === 'string' && typeof x.toJSON === 'function';
}
