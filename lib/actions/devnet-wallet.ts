'use server';

import { headers } from 'next/headers';
import { isLanternError } from '@/lib/errors';
import { devnetWalletRequest, isDevnetWalletMethod } from '@/lib/operations/devnet-wallet';
import { enforceRateLimit } from '@/lib/security/rate-limit';

/**
 * The "Devnet account" connector's way to the devnet's node (lib/operations/devnet-wallet.ts): one of the
 * few calls a wallet needs to send a transaction it signed. An error value, never a throw, so the
 * connector can hand its message to the page as a wallet would.
 */
export async function devnetWalletCall(method: string, params: unknown): Promise<{ ok: true; result: unknown } | { ok: false; error: string }> {
  if (!isDevnetWalletMethod(method)) return { ok: false, error: `The devnet account does not send ${String(method).slice(0, 40)}.` };
  if (!Array.isArray(params) || params.length > 2) return { ok: false, error: 'params: a list of at most two values.' };
  try {
    await enforceRateLimit(await headers(), 'action');
    return { ok: true, result: await devnetWalletRequest(method, params) };
  } catch (e) {
    if (isLanternError(e)) return { ok: false, error: e.message };
    // The node's own refusal (a revert in the gas estimate, a nonce too low): its short message, never a URL.
    const short = (e as { shortMessage?: unknown }).shortMessage;
    return { ok: false, error: typeof short === 'string' ? short : 'The devnet node refused the call.' };
  }
}
