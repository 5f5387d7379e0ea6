import { describe, expect, it } from 'vitest';
import { errorCopy } from '@/lib/view/error-copy';
import { ledgerErrorCopy, ledgerErrorKind } from '@/lib/view/ledger-error-copy';

// One error vocabulary for every page: the ledger's wording is built on the same shared entries as the wallet's.
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
    expect(ledgerErrorCopy({ code: 'upstream_unavailable', status: 503 })).toEqual({
      title: 'The ledger node is not answering',
      hint: 'This is usually temporary. Nothing about the version is wrong.',
      retry: true,
    });
    expect(ledgerErrorCopy({ code: 'block_pruned', status: 410 }).title).toBe('This version has been pruned');
    expect(ledgerErrorCopy({ code: 'invalid_parameter', status: 400, parameter: 'version' }).hint).toContain('0 to 18446744073709551615');
  });

  it('words the limits and the operator’s key alike on every page', () => {
    for (const copy of [errorCopy, ledgerErrorCopy]) {
      expect(copy({ code: 'upstream_rate_limited', status: 429 })).toEqual({ title: 'Rate limited', hint: 'Too many requests in a short time. Wait a few seconds, then retry.', retry: true });
      expect(copy({ code: 'upstream_key_rejected', status: 502 }).title).toBe('API key rejected');
    }
  });

  it('says the database is down, not the data provider, when it is Lantern’s own database', () => {
    for (const copy of [errorCopy, ledgerErrorCopy]) {
      expect(copy({ code: 'database_unavailable', status: 503 })).toEqual({
        title: 'Lantern’s database is not answering',
        hint: 'It is down or starting up. This usually passes within seconds; retry shortly.',
        retry: true,
      });
    }
  });
});
