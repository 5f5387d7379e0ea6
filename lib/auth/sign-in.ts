import 'server-only';
import { parseSiweMessage } from 'viem/siwe';
import { z } from 'zod';
import { chainById } from '@/lib/chains';
import { clock } from '@/lib/clock';
import { config } from '@/lib/config';
import { LanternError } from '@/lib/errors';
import { addressSchema, chainIdSchema } from '@/lib/interface/common';
import { requestChallenge, signInChains, verifyChallenge } from '@/lib/operations/sign-in';
import { matchOrigin } from '@/lib/public-origins.mjs';
import { deleteAllSavedWallets } from './saved-wallets';
import { DEFAULT_SESSION_S, endAllSessions, endSession, getSession, rememberChallenge, startSession, takeChallenge, type Session } from './session';

/**
 * Sign-in for Lantern's own pages (lib/actions/auth.ts adapts these to server actions). The message's
 * domain and URI are one of PUBLIC_URL's origins, never anything a request says: the browser's Origin
 * header only picks among the configured origins, and a request from any other origin is refused
 * (scripts/server.mjs refuses it before Next, this again). A hostile site's server relaying the actions
 * therefore gets messages for Lantern's own domain, which the victim's wallet flags when asked to sign
 * them elsewhere. A verify is accepted only for a message this same browser was given by
 * beginSignIn (a sealed cookie holds its digest), so a signature collected through the published API can
 * never become a Lantern session either.
 */

const STATEMENT = 'Sign in to Lantern';
const TIMEOUT_S = 120;

function siteFor(originHeader: string | null): { origin: string; host: string } {
  const origin = matchOrigin(config().publicOrigins, originHeader);
  if (!origin) {
    throw new LanternError(403, 'origin_not_allowed', 'Sign in from Lantern’s own page: this request did not come from an origin in PUBLIC_URL.');
  }
  return { origin, host: new URL(origin).host };
}

/** A chain the sources do not sign in on: 400 wrong_chain, carrying the chain to switch to. */
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

const requestInput = z.object({ address: addressSchema, chainId: chainIdSchema });

/** The message for `address` to sign on this site, remembered (sealed cookie) for the verify that follows. */
export async function beginSignIn(originHeader: string | null, address: string, chainId: number): Promise<{ message: string }> {
  const input = requestInput.safeParse({ address, chainId });
  if (!input.success) throw new LanternError(400, 'invalid_request', 'The wallet gave an address or chain Lantern cannot read.');
  const site = siteFor(originHeader);
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
  return { message };
}

const verifyInput = z.object({ message: z.string().min(1).max(8192), signature: z.string().regex(/^0x([0-9a-fA-F]{2}){1,8192}$/) });

/** Checks a signed message against this site and this browser's challenge, then starts the session. */
export async function completeSignIn(originHeader: string | null, message: string, signature: string): Promise<Session> {
  const input = verifyInput.safeParse({ message, signature });
  if (!input.success) throw new LanternError(400, 'invalid_request', 'The wallet returned a message or signature Lantern cannot read.');
  const site = siteFor(originHeader);
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
  return startSession(record);
}

/** Ends every session of the signed-in person, on every device and instance (else just this one). */
export async function signOutEverywhere(): Promise<void> {
  const s = await getSession();
  if (s) await endAllSessions(s.profileId);
  else await endSession();
}

/** Deletes the signed-in person's saved wallets, then ends all their sessions: nothing of theirs stays. */
export async function deleteMyData(): Promise<number> {
  const s = await getSession();
  if (!s) throw new LanternError(401, 'not_signed_in', 'Sign in to delete your saved data.');
  const deleted = await deleteAllSavedWallets(s.profileId);
  await endAllSessions(s.profileId);
  return deleted;
}
