'use server';

import { headers } from 'next/headers';
import { revalidatePath } from 'next/cache';
import { actionError, type ActionResult } from '@/lib/auth/action-result';
import { endSession } from '@/lib/auth/session';
import { beginSignIn, completeSignIn, deleteMyData, signOutEverywhere } from '@/lib/auth/sign-in';
import { enforceRateLimit } from '@/lib/security/rate-limit';

/**
 * Sign-in actions: each is rate-limited, hands the request's Origin to the rules in lib/auth/sign-in.ts,
 * and answers a value the UI shows (never a thrown error).
 */

function withChain(e: unknown) {
  const r = actionError(e, 'Sign-in');
  const want = (e as { chainId?: number }).chainId;
  if (typeof want === 'number') r.error.chainId = want;
  return r;
}

export async function requestChallengeAction(address: string, chainId: number): Promise<ActionResult<{ message: string }>> {
  try {
    const h = await headers();
    await enforceRateLimit(h, 'action');
    const { message } = await beginSignIn(h.get('origin'), address, chainId);
    return { ok: true, message };
  } catch (e) {
    return withChain(e);
  }
}

export async function verifyChallengeAction(message: string, signature: string): Promise<ActionResult<{ address: string; chainId: number }>> {
  try {
    const h = await headers();
    await enforceRateLimit(h, 'action');
    const session = await completeSignIn(h.get('origin'), message, signature);
    revalidatePath('/', 'layout');
    return { ok: true, address: session.address, chainId: session.chainId };
  } catch (e) {
    return withChain(e);
  }
}

/** Signs this browser out; when the end could not be recorded (database down) it is still signed out, and told so. */
export async function signOutAction(): Promise<ActionResult> {
  try {
    await endSession();
    return { ok: true };
  } catch (e) {
    return actionError(e, 'Signing out');
  } finally {
    revalidatePath('/', 'layout');
  }
}

/** Ends every session of the signed-in person, on every device and instance. */
export async function signOutEverywhereAction(): Promise<void> {
  await signOutEverywhere();
  revalidatePath('/', 'layout');
}

/** Deletes the signed-in person's saved wallets, then ends all their sessions: nothing of theirs stays. */
export async function deleteMyDataAction(_prev?: unknown): Promise<ActionResult<{ deleted: number }>> {
  try {
    await enforceRateLimit(await headers(), 'action');
    const deleted = await deleteMyData();
    revalidatePath('/', 'layout');
    return { ok: true, deleted };
  } catch (e) {
    return actionError(e, 'Deleting your data');
  }
}
