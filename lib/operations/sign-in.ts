import 'server-only';
import { config } from '@/lib/config';
import type { ChallengeRequestBody, ChallengeResponse, VerifyBody, VerifyResult } from '@/lib/interface/auth';
import { hostedRequestChallenge, hostedVerifyChallenge } from '@/lib/sources/hosted/auth';
import { localRequestChallenge, localVerifyChallenge } from '@/lib/sources/siwe-local';

/** Makes the EIP-4361 message to sign. */
export async function requestChallenge(body: ChallengeRequestBody): Promise<ChallengeResponse> {
  if (config().mode === 'hosted') return hostedRequestChallenge(body);
  return localRequestChallenge(body);
}

/** Verifies a signed challenge and answers the session record. */
export async function verifyChallenge(body: VerifyBody): Promise<VerifyResult> {
  if (config().mode === 'hosted') return hostedVerifyChallenge(body);
  return localVerifyChallenge(body);
}
