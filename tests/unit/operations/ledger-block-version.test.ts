import { describe, expect, it } from 'vitest';
import { getCachedBlockByVersion } from '@/lib/operations/ledger-block';

// The version is validated before the block cache is asked; valid texts are remembered, invalid ones never.
describe('ledger block lookups: the version asked for', () => {
  it('refuses a version that is not a u64, every time it is asked, as a 400 naming `version`', async () => {
    for (const bad of ['12a', '18446744073709551616', '-1', '']) {
      for (let i = 0; i < 2; i++) {
        await expect(getCachedBlockByVersion('local', bad)).rejects.toMatchObject({ status: 400, parameter: 'version' });
      }
    }
  });

  it('asks the cache for a valid version, the same again when it comes again, text or bigint', async () => {
    for (let i = 0; i < 2; i++) {
      await expect(getCachedBlockByVersion('local', '18446744073709551615')).resolves.toBeUndefined();
      await expect(getCachedBlockByVersion('local', 20000n)).resolves.toBeUndefined();
    }
    await expect(getCachedBlockByVersion('local', 18446744073709551616n)).rejects.toMatchObject({ status: 400, parameter: 'version' });
  });
});
