import 'server-only';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { config } from '@/lib/config';
import { directImageOrigins, originOf } from '@/lib/security/headers';

/**
 * How a page shows an NFT image (docs/evm-node.md, NFT images). data: images and images at an origin
 * the CSP admits (the gateways, NFT_MEDIA_ORIGINS) load straight from there; any other http(s) image
 * loads through Lantern's media proxy, `/api/nft-media?u=&s=`, which fetches it under the outbound
 * rules (public addresses only, every hop checked) and passes PNG, JPEG, GIF, WebP and AVIF only. The
 * URL is signed by this server, so the proxy fetches only images its own pages named: it is no open proxy.
 */
export const NFT_MEDIA_PATH = '/api/nft-media';

let cached: { secret: string; key: Buffer } | undefined;
function key(): Buffer {
  const secret = config().sessionSecret;
  if (!cached || cached.secret !== secret) cached = { secret, key: createHmac('sha256', secret).update('lantern:nft-media:v1').digest() };
  return cached.key;
}

export function mediaSignature(url: string): string {
  return createHmac('sha256', key()).update(url).digest('base64url');
}

export function verifyMediaSignature(url: string, signature: string): boolean {
  const want = Buffer.from(mediaSignature(url));
  const got = Buffer.from(signature);
  return got.length === want.length && timingSafeEqual(got, want);
}

/** The <img src> for an image already vetted by lib/view/nft-media (data:image, http(s) or a gateway URL). */
export function displayImageSrc(image: string | null): string | null {
  if (!image) return null;
  if (/^data:/i.test(image)) return image;
  const origin = originOf(image);
  if (!origin) return null;
  if (directImageOrigins(config()).includes(origin)) return image;
  return `${NFT_MEDIA_PATH}?${new URLSearchParams({ u: image, s: mediaSignature(image) })}`;
}
