/**
 * What an error state says, from the published API's error `code` (and status): the one vocabulary of
 * every page, wallet, transaction and ledger alike. The person sees the cause in plain words, what to
 * do next, and whether retrying can help; the server's message is shown under it as detail. Where the
 * same failure reads differently per page, it is only the thing named: the wallet's data provider, or
 * the ledger node.
 */
export interface ErrorCopy {
  title: string;
  hint: string;
  retry: boolean;
}

/** An error as it crosses from server to client props: plain data. */
export interface ErrorInfo {
  code: string;
  message: string;
  status: number;
  parameter?: string;
}

/** What failed to load: a wallet's data (history, NFTs, a transaction) or a ledger block. */
export type ErrorSubject = 'wallet' | 'ledger';

/** The ledger's error states, each with its own test id (`ledger-error-<kind>`) and wording. */
export type LedgerErrorKind = 'invalid_version' | 'invalid_network' | 'not_found' | 'pruned' | 'unavailable' | 'failed';

/** 2^64 - 1, spelled out so this module (shipped to the browser) need not load the ledger schemas. */
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

export function errorCopy(error: Pick<ErrorInfo, 'code' | 'status' | 'parameter'>, subject: ErrorSubject = 'wallet'): ErrorCopy {
  const { code, status } = error;
  // The limits and the operator's key read the same on every page.
  switch (code) {
    case 'upstream_rate_limited':
    case 'rate_limited':
      return { title: 'Rate limited', hint: 'Too many requests in a short time. Wait a few seconds, then retry.', retry: true };
    case 'upstream_key_rejected':
      return { title: 'API key rejected', hint: 'The data provider rejected this server’s API key. The operator needs to check DATA_API_KEY.', retry: false };
    case 'unauthorized':
      return { title: 'Not allowed', hint: 'This page’s access token expired. Reload the page.', retry: false };
  }
  if (subject === 'ledger') return LEDGER[ledgerErrorKind(error)];
  switch (code) {
    case 'upstream_unavailable':
      return { title: 'The data provider is down', hint: 'Lantern could not reach the source of this wallet’s data. It usually comes back on its own.', retry: true };
    case 'upstream_timeout':
      return { title: 'The data provider took too long', hint: 'The request timed out. Busy wallets sometimes do; retry, or narrow the date range.', retry: true };
    case 'upstream_bad_response':
      return { title: 'The data provider sent an unreadable answer', hint: 'Lantern checks every answer and this one did not match the interface.', retry: true };
    case 'invalid_parameter':
    case 'upstream_bad_request':
      return { title: 'A filter is not valid', hint: 'Something in the address bar is not a value Lantern accepts. Fix it or reset the filters.', retry: false };
    case 'transaction_not_found':
      return { title: 'Transaction not found', hint: 'No transaction has this hash on this chain. Check the hash, or pick the chain it was sent on.', retry: false };
    case 'transaction_pending':
      return { title: 'Pending', hint: 'This transaction is waiting to be included in a block. Retry in a few seconds.', retry: true };
    case 'not_found':
      return { title: 'Not found', hint: 'The data provider does not know this wallet on this chain.', retry: false };
    default:
      return {
        title: status && status >= 500 ? 'Lantern could not load this' : 'Something went wrong',
        hint: 'The request failed. Retrying may help.',
        retry: true,
      };
  }
}
