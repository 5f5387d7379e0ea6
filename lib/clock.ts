/**
 * The time Lantern's rate-limit windows, cache lifetimes, sign-in challenges and sessions are measured
 * by. Production reads the wall clock; unit tests set `clock.now` to move time without sleeping, and
 * put it back afterwards. A test server started with LANTERN_TEST_CLOCK_OFFSET_MS runs that far ahead
 * of the wall clock, so an integration test sees a challenge or a session end without waiting for it:
 * read once at start, from the environment only; nothing a request carries can move it.
 */
const offsetMs = Number(process.env.LANTERN_TEST_CLOCK_OFFSET_MS) || 0;

export const clock = { now: (): number => Date.now() + offsetMs };
