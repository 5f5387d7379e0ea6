import { sharedErrorCopy, type ErrorCopy, type ErrorInfo } from './error-copy';

/**
 * The ledger page's error states in the app's one vocabulary (error-copy.ts): the shared entries first
 * (limits, the operator's key), then the ledger's own, named by the status the ledger operation gave.
 */

/** The ledger's error states, each with its own test id (`ledger-error-<kind>`) and wording. */
export type LedgerErrorKind = 'invalid_version' | 'invalid_network' | 'not_found' | 'pruned' | 'unavailable' | 'failed';

/** 2^64 - 1, spelled out: error wording stays free of the ledger schemas (zod). */
const U64_MAX = '18446744073709551615';

export function ledgerErrorKind(e: Pick<ErrorInfo, 'code' | 'status' | 'parameter'>): LedgerErrorKind {
  if (e.status === 400) return e.parameter === 'network' ? 'invalid_network' : 'invalid_version';
  if (e.status === 404) return 'not_found';
  if (e.status === 410) return 'pruned';
  if (e.status === 502 || e.status === 503 || e.status === 504) return 'unavailable';
  return 'failed';
}

const LEDGER: Record<LedgerErrorKind, ErrorCopy> = {
  invalid_version: {
    title: 'That is not a ledger version',
    hint: `A version is the position of a transaction in the ledger: a whole number from 0 to ${U64_MAX} (an unsigned 64-bit integer), written in decimal digits only, with no sign, spaces, decimal point or hex prefix.`,
    retry: false,
  },
  invalid_network: { title: 'Unknown ledger network', hint: 'Choose mainnet, testnet or local.', retry: false },
  not_found: {
    title: 'Beyond the head of the ledger',
    hint: 'No transaction has been committed at this version yet. Try a lower version, or come back once the ledger has grown.',
    retry: false,
  },
  pruned: {
    title: 'This version has been pruned',
    hint: 'Ledger nodes keep only recent history: to bound their storage they delete (“prune”) old transactions and blocks below a moving floor. The block still exists in the ledger’s history, but this node no longer serves it. Try a newer version, or point Lantern at an archival node.',
    retry: false,
  },
  unavailable: { title: 'The ledger node is not answering', hint: 'This is usually temporary. Nothing about the version is wrong.', retry: true },
  failed: { title: 'The block could not be loaded', hint: 'The request failed. Retrying may help.', retry: true },
};

export function ledgerErrorCopy(error: Pick<ErrorInfo, 'code' | 'status' | 'parameter'>): ErrorCopy {
  return sharedErrorCopy(error.code) ?? LEDGER[ledgerErrorKind(error)];
}
