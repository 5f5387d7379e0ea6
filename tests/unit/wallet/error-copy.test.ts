import { describe, expect, it } from 'vitest';
import { errorCopy, ledgerErrorKind } from '@/lib/view/error-copy';

// One error vocabulary for every page: the ledger's states and the wallet's come from one function.
describe('error copy', () => {
  it('names each ledger failure by its status, as the ledger page shows it', () => {
    expect(ledgerErrorKind({ code: 'invalid_parameter', status: 400, parameter: 'network' })).toBe('invalid_network');
    expect(ledgerErrorKind({ code: 'invalid_parameter', status: 400, parameter: 'version' })).toBe('invalid_version');
    expect(ledgerErrorKind({ code: 'version_not_found', status: 404 })).toBe('not_found');
    expect(ledgerErrorKind({ code: 'block_pruned', status: 410 })).toBe('pruned');
    expect(ledgerErrorKind({ code: 'upstream_unavailable', status: 503 })).toBe('unavailable');
    expect(ledgerErrorKind({ code: 'upstream_timeout', status: 504 })).toBe('unavailable');
    expect(ledgerErrorKind({ code: 'internal_error', status: 500 })).toBe('failed');
  });

  it('words the same failure for the thing that failed: the wallet’s provider or the ledger node', () => {
    expect(errorCopy({ code: 'upstream_unavailable', status: 503 })).toEqual({
      title: 'The data provider is down',
      hint: 'Lantern could not reach the source of this wallet’s data. It usually comes back on its own.',
      retry: true,
    });
    expect(errorCopy({ code: 'upstream_unavailable', status: 503 }, 'ledger')).toEqual({
      title: 'The ledger node is not answering',
      hint: 'This is usually temporary. Nothing about the version is wrong.',
      retry: true,
    });
    expect(errorCopy({ code: 'block_pruned', status: 410 }, 'ledger').title).toBe('This version has been pruned');
    expect(errorCopy({ code: 'invalid_parameter', status: 400, parameter: 'version' }, 'ledger').hint).toContain('0 to 18446744073709551615');
  });

  it('words the limits and the operator’s key alike on every page', () => {
    for (const subject of ['wallet', 'ledger'] as const) {
      expect(errorCopy({ code: 'upstream_rate_limited', status: 429 }, subject)).toEqual({ title: 'Rate limited', hint: 'Too many requests in a short time. Wait a few seconds, then retry.', retry: true });
      expect(errorCopy({ code: 'upstream_key_rejected', status: 502 }, subject).title).toBe('API key rejected');
    }
  });
});
