// The query flag `npm run dev`'s warm-up adds to its own requests (scripts/lib/warm-up.mjs): `next dev`
// leaves them out of its request log (next.config.mjs) and the API logs them at debug, not info, so the
// terminal shows one warm-up summary line instead of a 400, 404 or 405 per route, which read like failures.
// Plain JavaScript, so the scripts, the Next config and the app share it.
export const WARM_UP_FLAG = 'lantern-warm-up';
