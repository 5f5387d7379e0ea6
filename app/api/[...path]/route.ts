import { LanternError } from '@/lib/errors';
import { errorResponse, withApiHeaders } from '@/lib/api/handler';

// Unknown paths under /api answer JSON like every other API error, never the HTML 404 page.
const notFound = async (req: Request) =>
  withApiHeaders(req, errorResponse(new LanternError(404, 'not_found', `No API operation at ${new URL(req.url).pathname}.`), req));

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
export const HEAD = notFound;
export const OPTIONS = notFound;
