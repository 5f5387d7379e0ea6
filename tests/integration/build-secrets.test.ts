import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CANARY_DATA_API_KEY, CANARY_SESSION_SECRET } from '../support/canaries.mjs';

// `npm test` builds with these canary values set; nothing the browser can download may contain them.
function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

describe('the production build', () => {
  it('ships no secret in any browser-downloadable file (static chunks, prerendered HTML and RSC payloads)', () => {
    const prerendered = files('.next/server/app').filter((f) => /\.(html|rsc|body|meta)$/.test(f));
    const all = [...files('.next/static'), ...prerendered];
    expect(all.length).toBeGreaterThan(5);
    for (const f of all) {
      const text = readFileSync(f, 'latin1');
      expect(text.includes(CANARY_DATA_API_KEY), f).toBe(false);
      expect(text.includes(CANARY_SESSION_SECRET), f).toBe(false);
    }
  });
});
