'use server';

import { headers } from 'next/headers';
import { isLanternError } from '@/lib/errors';
import { devnetDriver, type DevnetDriverState } from '@/lib/devnet/driver';
import { enforceRateLimit } from '@/lib/security/rate-limit';

/**
 * The home page's "Keep the devnet moving": starts or stops `npm run dev`'s live driver. Refused (an
 * error value, nothing sent anywhere) unless this is `npm run dev` on its own devnets.
 */
export async function switchDevnetDriver(on: boolean): Promise<{ ok: true; state: DevnetDriverState } | { ok: false; error: string }> {
  if (typeof on !== 'boolean') return { ok: false, error: 'Say whether to start or stop.' };
  try {
    await enforceRateLimit(await headers(), 'action');
  } catch (e) {
    return { ok: false, error: isLanternError(e) ? e.message : 'Try again in a moment.' };
  }
  const state = await devnetDriver(on ? 'start' : 'stop');
  return state ? { ok: true, state } : { ok: false, error: 'Only `npm run dev` on its own devnets can keep the devnet moving.' };
}
