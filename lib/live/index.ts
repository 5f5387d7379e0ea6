import 'server-only';
import { LiveHub, type LiveStatus } from './hub';

/**
 * Live pages (the front of lib/live): each instance's hub, started with the server (lib/startup.ts) and
 * stopped before it exits (scripts/server.mjs runs lib/lifecycle.ts's hooks), so its streams end cleanly
 * and its leases pass on at once. Kept on globalThis: the route bundles and the start-up share one hub.
 */

export { LIVE_HEADERS, type LiveStatus } from './hub';

const g = globalThis as unknown as { __lanternLiveHub?: LiveHub };

export function liveHub(): LiveHub {
  g.__lanternLiveHub ??= new LiveHub();
  return g.__lanternLiveHub;
}

/** Ends every stream and stops following; a stopped hub refuses new streams (503) until the process ends. */
export async function stopLive(): Promise<void> {
  await g.__lanternLiveHub?.stop();
}

/** What /api/health reports: the bus, open streams, the chains this instance follows. Null before the hub starts. */
export function liveStatus(): LiveStatus | null {
  return g.__lanternLiveHub?.status() ?? null;
}
