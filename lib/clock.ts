/**
 * The time Lantern's rate-limit windows and cache lifetimes are measured by. Production reads the
 * wall clock; tests set `clock.now` to move time without sleeping, and put it back afterwards.
 */
export const clock = { now: (): number => Date.now() };
