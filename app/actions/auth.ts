'use server';

import { headers } from 'next/headers';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { chainById } from '@/lib/chains';
import { clock } from '@/lib/clock';
import { config } from '@/lib/config';
import { LanternError } from '@/lib/errors';
import { enforceRateLimit } from '@/lib/security/rate-limit';
import { addressSchema, chainIdSchema } from '@/lib/interface/common';
import { requestChallenge, verifyChallenge } from '@/lib/operations/sign-in';
import { rpcChainId } from '@/lib/sources/siwe-local';
import { actionError, type ActionResult } from '@/lib/auth/action-result';
import { DEFAULT_SESSION_S, endAllSessions, endSession, getSession, rememberChallenge, startSession, takeChallenge } from '@/lib/auth/session';
import { deleteAllSavedWallets } from '@/lib/auth/saved-wallets';
import { parseSiweMessage } from 'viem/siwe';
import { matchOrigin } from '@/lib/security/public-origins.mjs';

/**
 * Sign-in for Lantern's own pages. The message's domain and URI are one of PUBLIC_URL's origins, never
 * anything a request says: the browser's Origin header only picks among the configured origins, and a
 * request from any other origin is refused (scripts/server.mjs refuses it before Next, this again).
 * A hostile site's server relaying these actions therefore gets messages for Lantern's own domain,
 * which the victim's wallet flags when asked to sign them elsewhere. A verify is accepted only for a
 * message this same browser was given by requestChallengeAction (a sealed cookie holds its digest), so
 * a signature collected through the published API can never become a Lantern session either.
 */

const STATEMENT = 'Sign in to Lantern';
const TIMEOUT_S = 120;

async function requestSite(): Promise<{ origin: string; host: string }> {
  const origin = matchOrigin(config().publicOrigins, (await headers()).get('origin'));
  if (!origin) {
    throw new LanternError(403, 'origin_not_allowed', 'Sign in from Lantern’s own page: this request did not come from an origin in PUBLIC_URL.');
  }
  return { origin, host: new URL(origin).host };
}

/**
 * Chains a person may sign in on: in node mode the chain Lantern reads (so contract wallets can be
 * checked); in hosted mode any chain, as the hosted auth API decides.
 */
async function signInChains(): Promise<number[] | 'any'> {
  if (config().mode === 'hosted') return 'any';
  try {
    return [await rpcChainId()];
  } catch {
    return config().evmIsDevnet ? [31337] : [];
  }
}

async function requireChain(chainId: number) {
  const chains = await signInChains();
  if (chains === 'any') return;
  if (chains.length === 0) throw new LanternError(503, 'upstream_unavailable', 'Lantern cannot reach its EVM node to know which network to use; try again.');
  if (!chains.includes(chainId)) {
    const want = chains[0];
    const name = chainById(want)?.label ?? `chain ${want}`;
    const err = new LanternError(400, 'wrong_chain', `Your wallet is on chain ${chainId}; Lantern signs in on ${name} (chain ${want}). Switch network and try again.`);
    throw Object.assign(err, { chainId: want });
  }
}

function withChain(e: unknown) {
  const r = actionError(e, 'Sign-in');
  const want = (e as { chainId?: number }).chainId;
  if (typeof want === 'number') r.error.chainId = want;
  return r;
}

const requestInput = z.object({ address: addressSchema, chainId: chainIdSchema });

export async function requestChallengeAction(address: string, chainId: number): Promise<ActionResult<{ message: string }>> {
  try {
    await enforceRateLimit(await headers(), 'action');
    const input = requestInput.safeParse({ address, chainId });
    if (!input.success) throw new LanternError(400, 'invalid_request', 'The wallet gave an address or chain Lantern cannot read.');
    const site = await requestSite();
    await requireChain(input.data.chainId);
    const { message } = await requestChallenge({
      domain: site.host,
      uri: site.origin,
      address: input.data.address,
      chainId: input.data.chainId,
      statement: STATEMENT,
      timeout: TIMEOUT_S,
      // The wallet shows the person when this sign-in ends; the session ends exactly then.
      expirationTime: new Date(clock.now() + DEFAULT_SESSION_S * 1000).toISOString(),
    });
    await rememberChallenge(message, TIMEOUT_S);
    return { ok: true, message };
  } catch (e) {
    return withChain(e);
  }
}

const verifyInput = z.object({ message: z.string().min(1).max(8192), signature: z.string().regex(/^0x([0-9a-fA-F]{2}){1,8192}$/) });

export async function verifyChallengeAction(message: string, signature: string): Promise<ActionResult<{ address: string; chainId: number }>> {
  try {
    await enforceRateLimit(await headers(), 'action');
    const input = verifyInput.safeParse({ message, signature });
    if (!input.success) throw new LanternError(400, 'invalid_request', 'The wallet returned a message or signature Lantern cannot read.');
    const site = await requestSite();
    // Checked before anything is spent: a message for another site, URI or chain is never ours.
    const p = parseSiweMessage(input.data.message);
    if (p.domain !== site.host) {
      throw new LanternError(400, 'domain_mismatch', `The message is for ${p.domain ?? 'no domain'}, not ${site.host}; it was not made for this site.`);
    }
    if (p.uri !== site.origin) throw new LanternError(400, 'uri_mismatch', `The message's URI is ${p.uri ?? 'missing'}, not ${site.origin}.`);
    if (typeof p.chainId !== 'number') throw new LanternError(400, 'invalid_request', 'The message has no chain id.');
    await requireChain(p.chainId);
    if (!(await takeChallenge(input.data.message))) {
      throw new LanternError(
        400,
        'challenge_not_issued_here',
        'This message was not requested by this browser’s sign-in (or its time ran out); start signing in again.',
      );
    }
    const record = await verifyChallenge(input.data);
    // Hosted verify answers what the provider saw; hold it to the same site and chain.
    if (record.domain !== site.host || record.uri !== site.origin || record.chainId !== p.chainId) {
      throw new LanternError(400, 'domain_mismatch', 'The verified message is not for this site.');
    }
    const session = await startSession(record);
    revalidatePath('/', 'layout');
    return { ok: true, address: session.address, chainId: session.chainId };
  } catch (e) {
    return withChain(e);
  }
}

export async function signOutAction(): Promise<void> {
  await endSession();
  revalidatePath('/', 'layout');
}

/** Ends every session of the signed-in person, on every device and instance. */
export async function signOutEverywhereAction(): Promise<void> {
  const s = await getSession();
  if (s) await endAllSessions(s.profileId);
  else await endSession();
  revalidatePath('/', 'layout');
}

/** Deletes the signed-in person's saved wallets, then ends all their sessions: nothing of theirs stays. */
export async function deleteMyDataAction(_prev?: unknown): Promise<ActionResult<{ deleted: number }>> {
  try {
    await enforceRateLimit(await headers(), 'action');
    const s = await getSession();
    if (!s) throw new LanternError(401, 'not_signed_in', 'Sign in to delete your saved data.');
    const deleted = await deleteAllSavedWallets(s.profileId);
    await endAllSessions(s.profileId);
    revalidatePath('/', 'layout');
    return { ok: true, deleted };
  } catch (e) {
    return actionError(e, 'Deleting your data');
  }
}
