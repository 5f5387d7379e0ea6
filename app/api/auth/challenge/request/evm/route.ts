import { api, otherMethods, readJsonBody } from '@/lib/api/handler';
import { challengeRequestBodySchema, serializeChallengeResponse } from '@/lib/interface/auth';
import { requestChallenge } from '@/lib/operations/sign-in';

export const dynamic = 'force-dynamic';

export const POST = api(async (req) => serializeChallengeResponse(await requestChallenge(await readJsonBody(req, challengeRequestBodySchema))), {
  status: 201,
});

export const { OPTIONS, GET, PUT, PATCH, DELETE } = otherMethods('POST');
