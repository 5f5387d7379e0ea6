import 'server-only';
import type { ChallengeRequestBody, ChallengeResponse, VerifyBody, VerifyResult } from '@/lib/interface/auth';
import { sources } from '@/lib/sources';
import { servesLocalDevnet } from './chains';

/** Makes the EIP-4361 message to sign. */
export async function requestChallenge(body: ChallengeRequestBody): Promise<ChallengeResponse> {
  return sources().signIn.requestChallenge(body);
}

/** Verifies a signed challenge and answers the session record. */
export async function verifyChallenge(body: VerifyBody): Promise<VerifyResult> {
  return sources().signIn.verifyChallenge(body);
}

/**
 * Chains a person may sign in on: with Lantern's own verification the chain it reads (so contract
 * wallets can be checked); with the hosted auth API any chain, as it decides ('any').
 */
export function signInChains(): Promise<number[] | 'any'> {
  return sources().signIn.chains();
}

/** What the connect dialog offers: the chains, and whether the devnet's built-in account is one of them. */
export async function connectOptions(): Promise<{ devnet: boolean; chainIds: number[] }> {
  const s = sources();
  const { chains } = await s.chains();
  return { devnet: await servesLocalDevnet(), chainIds: s.signIn.offeredChains(chains) };
}
