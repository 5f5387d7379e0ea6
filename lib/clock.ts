import { config } from './config';

/**
 * The time Lantern's rate-limit windows, cache lifetimes, sign-in challenges and sessions are measured
 * by. Production reads the wall clock; unit tests set `clock.now` to move time without sleeping, and
 * put it back afterwards. A test server started with LANTERN_TEST_CLOCK_OFFSET_MS runs that far ahead
 * of the wall clock, so an integration test sees a challenge or a session end without waiting for it:
 * from the validated configuration only; nothing a request carries can move it.
 */
export const clock = { now: (): number => Date.now() + config().testClockOffsetMs };
