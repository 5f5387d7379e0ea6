import { readFileSync } from 'node:fs';
import { config } from './config';

/**
 * The time Lantern's rate-limit windows, cache lifetimes, sign-in challenges and sessions are measured
 * by. Production reads the wall clock; unit tests set `clock.now` to move time without sleeping, and
 * put it back afterwards. A test server started with LANTERN_TEST_CLOCK_OFFSET_MS runs that far ahead
 * of the wall clock, so an integration test sees a challenge or a session end without waiting for it;
 * with LANTERN_TEST_CLOCK_FILE it also runs ahead by the milliseconds that file holds, read at every
 * reading, so a test moves a running server's time forward (a cache lifetime passing) by writing it.
 * From the validated configuration and the test's own file only; nothing a request carries can move it.
 */
export const clock = { now: (): number => Date.now() + config().testClockOffsetMs + fileOffset() };

function fileOffset(): number {
  const file = config().testClockFile;
  if (!file) return 0;
  try {
    const n = Number(readFileSync(file, 'utf8').trim());
    return Number.isSafeInteger(n) && n >= 0 ? n : 0;
  } catch {
    return 0;
  }
}
