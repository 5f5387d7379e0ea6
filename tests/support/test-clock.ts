import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A file a test server's clock reads (LANTERN_TEST_CLOCK_FILE, lib/clock.ts): `advance(ms)` moves that
 * server's time forward, so a cache lifetime passes without being waited for.
 */
export function testClock(): { file: string; advance: (ms: number) => void; remove: () => void } {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'lantern-clock-')), 'offset-ms');
  let ahead = 0;
  writeFileSync(file, '0');
  return {
    file,
    advance: (ms) => writeFileSync(file, String((ahead += ms))),
    remove: () => rmSync(path.dirname(file), { recursive: true, force: true }),
  };
}
