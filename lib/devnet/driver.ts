import 'server-only';
import { config } from '@/lib/config';

/**
 * The devnet's live driver as the home page switches it: `npm run dev` runs it (scripts/lib/
 * devnet-driver-control.mjs) and hands this server its loopback switch in LANTERN_DEVNET_DRIVER.
 * Null wherever that is not so (production, hosted mode, a server started any other way): no button, and
 * the action refuses.
 */
export interface DevnetDriverState {
  running: boolean;
  interval_s: number;
  sent: number;
}

export function devnetDriverAvailable(): boolean {
  return config().devnetDriver !== null;
}

export async function devnetDriver(action?: 'start' | 'stop'): Promise<DevnetDriverState | null> {
  const url = config().devnetDriver;
  if (!url) return null;
  try {
    const res = await fetch(action ? `${url}/${action}` : url, { method: action ? 'POST' : 'GET', cache: 'no-store', signal: AbortSignal.timeout(10_000) });
    if (!res.ok) return null;
    return (await res.json()) as DevnetDriverState;
  } catch {
    // `npm run dev` is stopping, or was restarted without this server: as if there were no switch.
    return null;
  }
}
