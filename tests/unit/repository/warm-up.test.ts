import { describe, expect, it } from 'vitest';
import { WARM_UP_LOG_IGNORE, WARM_UP_PATHS, flagged } from '../../../scripts/lib/warm-up.mjs';

/**
 * `npm run dev` prints one line for its warm-up: its requests carry a flag that next.config.mjs tells
 * `next dev` not to log, so their deliberate 400s, 404s and 405s never read like failures in the terminal.
 */
describe('the development warm-up', () => {
  it('flags every warm-up request, keeping its path and query, and next dev leaves exactly those out of its log', async () => {
    // @ts-expect-error -- next.config.mjs is plain JavaScript with no declaration file
    const { default: nextConfig } = (await import('../../../next.config.mjs')) as { default: { logging?: { incomingRequests?: { ignore?: RegExp[] } } } };
    const ignore = nextConfig.logging?.incomingRequests?.ignore ?? [];
    expect(ignore).toContain(WARM_UP_LOG_IGNORE);
    for (const p of WARM_UP_PATHS) {
      const url = flagged(p);
      expect(url.startsWith(p)).toBe(true);
      expect(new URL(url, 'http://x').pathname).toBe(new URL(p, 'http://x').pathname);
      expect(ignore.some((r) => r.test(url)), url).toBe(true);
      expect(ignore.some((r) => r.test(p)), p).toBe(false);
    }
    expect(flagged('/search?q=')).toBe('/search?q=&lantern-warm-up');
    // A person's own request is logged as ever, even one that merely mentions warm-up.
    for (const real of ['/', '/wallet/0x70997970C51812dc3A010C7d01b50e0d17dc79C8', '/search?q=lantern-warm-upx', '/wallet/warm-up']) expect(ignore.some((r) => r.test(real)), real).toBe(false);
  });
});
