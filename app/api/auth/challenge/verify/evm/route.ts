import { api, otherMethods, readJsonBody } from '@/lib/api/handler';
import { serializeVerifyResponse, verifyBodySchema } from '@/lib/interface/auth';
import { verifyChallenge } from '@/lib/operations/sign-in';

export const dynamic = 'force-dynamic';

export const POST = api(async (req) => serializeVerifyResponse(await verifyChallenge(await readJsonBody(req, verifyBodySchema))), {
  status: 201,
});

export const { OPTIONS, GET, PUT, PATCH, DELETE } = otherMethods('POST');
