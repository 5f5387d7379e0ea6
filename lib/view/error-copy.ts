/**
 * What an error state says, from the published API's error `code` (and status): the one vocabulary of
 * every page, wallet, transaction and ledger alike. The person sees the cause in plain words, what to
 * do next, and whether retrying can help; the server's message is shown under it as detail. Where the
 * same failure reads differently per page, it is only the thing named: the wallet's data provider here,
 * the ledger node in ledger-error-copy.ts (a module of its own, so wallet pages do not download it).
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

/** What reads the same on every page, wallet or ledger: the limits, the operator's key, the page token. */
export function sharedErrorCopy(code: string): ErrorCopy | null {
  switch (code) {
    case 'upstream_rate_limited':
    case 'rate_limited':
      return { title: 'Rate limited', hint: 'Too many requests in a short time. Wait a few seconds, then retry.', retry: true };
    case 'upstream_key_rejected':
      return { title: 'API key rejected', hint: 'The data provider rejected this server’s API key. The operator needs to check DATA_API_KEY.', retry: false };
    case 'unauthorized':
      return { title: 'Not allowed', hint: 'This page’s access token expired. Reload the page.', retry: false };
    case 'database_unavailable':
      return { title: 'Lantern’s database is not answering', hint: 'It is down or starting up. This usually passes within seconds; retry shortly.', retry: true };
    default:
      return null;
  }
}

/** A wallet's or a transaction's error (the ledger's are worded by ledger-error-copy.ts, on the same shared entries). */
export function errorCopy(error: Pick<ErrorInfo, 'code' | 'status'>): ErrorCopy {
  const { code, status } = error;
  const shared = sharedErrorCopy(code);
  if (shared) return shared;
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
