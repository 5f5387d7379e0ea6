import 'server-only';
import {
  challengeResponseSchema,
  verifyResponseSchema,
  type ChallengeRequestBody,
  type ChallengeResponse,
  type VerifyBody,
  type VerifyResult,
} from '@/lib/interface/auth';
import { hostedRequest } from './client';

export function hostedRequestChallenge(body: ChallengeRequestBody): Promise<ChallengeResponse> {
  return hostedRequest({ service: 'auth', method: 'POST', path: '/challenge/request/evm', body, schema: challengeResponseSchema });
}

export function hostedVerifyChallenge(body: VerifyBody): Promise<VerifyResult> {
  return hostedRequest({ service: 'auth', method: 'POST', path: '/challenge/verify/evm', body, schema: verifyResponseSchema });
}
