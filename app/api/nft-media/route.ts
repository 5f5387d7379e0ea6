import { errorResponse, otherMethods, withApiHeaders } from '@/lib/api/handler';
import { LanternError, badParameter } from '@/lib/errors';
import { getNftMedia } from '@/lib/operations/nft-media';
import { verifyMediaSignature } from '@/lib/server/nft-image';
import { requestIdFor } from '@/lib/security/headers';
import { enforceRateLimit } from '@/lib/security/rate-limit';

export const dynamic = 'force-dynamic';

const IMAGES_PER_MINUTE = 600;

/**
 * Lantern's NFT media proxy (not part of the published interface): `?u=<image URL>&s=<signature>`,
 * for images the CSP does not admit directly (lib/server/nft-image.ts). Only URLs this server's pages
 * signed are fetched; only PNG, JPEG, GIF, WebP and AVIF are passed on, under the type sniffed from the
 * bytes, with a CSP that lets nothing run even when opened on its own. Its own rate-limit bucket (600
 * a minute per client), so a page of images does not use up a client's API budget.
 */
export async function GET(req: Request): Promise<Response> {
  const requestId = requestIdFor(req.headers.get('x-request-id'));
  let res: Response;
  try {
    await enforceRateLimit(req.headers, 'nft-media', IMAGES_PER_MINUTE);
    const q = new URL(req.url).searchParams;
    const u = q.get('u');
    const s = q.get('s');
    if (!u || q.getAll('u').length > 1) throw badParameter('u', 'u: the image URL is required, once');
    if (!s || !verifyMediaSignature(u, s)) throw new LanternError(403, 'forbidden', 'This image URL was not signed by this server: the media proxy fetches only images its own pages show.');
    const { body, type } = await getNftMedia(u);
    res = new Response(new Uint8Array(body), {
      headers: {
        'Content-Type': type,
        'Content-Length': String(body.length),
        'Cache-Control': 'public, max-age=86400',
        'Content-Disposition': 'inline',
        'Cross-Origin-Resource-Policy': 'same-origin',
      },
    });
  } catch (e) {
    res = errorResponse(e, req, requestId);
  }
  return withApiHeaders(req, res, requestId);
}

export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods('GET');
