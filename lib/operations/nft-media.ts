import 'server-only';
import { config } from '@/lib/config';
import { LanternError } from '@/lib/errors';
import { HostGate } from '@/lib/security/host-gate';
import { OutboundRefused, fetchPublicImage, type RasterType } from '@/lib/security/outbound';

/**
 * The media proxy's fetch (app/api/nft-media): one NFT image by URL, under lib/security/outbound's
 * rules (public addresses only, each redirect re-checked, NFT_METADATA_ALLOW_HOSTS as the only
 * exception), at most MEDIA_MAX_BYTES, raster formats only (sniffed from the bytes). Per host at most 4
 * at once and 20 starts a second. Kept in process for an hour (at most CACHE_MAX_BYTES in all);
 * concurrent requests for one URL make one fetch. Failures are not kept.
 */
export const MEDIA_MAX_BYTES = 5 * 1024 * 1024;
const MEDIA_TIMEOUT_MS = 8_000;
const CACHE_MAX_BYTES = 64 * 1024 * 1024;
const CACHE_MS = 60 * 60 * 1000;

const gate = new HostGate({ concurrency: 4, intervalMs: 50 });
const cache = new Map<string, { body: Buffer; type: RasterType; at: number }>();
let cachedBytes = 0;
const inflight = new Map<string, Promise<{ body: Buffer; type: RasterType }>>();

export async function getNftMedia(url: string): Promise<{ body: Buffer; type: RasterType }> {
  const hit = cache.get(url);
  if (hit && Date.now() - hit.at < CACHE_MS) {
    cache.delete(url); // most recently used last
    cache.set(url, hit);
    return hit;
  }
  let job = inflight.get(url);
  if (!job) {
    job = fetchOne(url).finally(() => inflight.delete(url));
    inflight.set(url, job);
  }
  return job;
}

async function fetchOne(url: string): Promise<{ body: Buffer; type: RasterType }> {
  try {
    const { body, type } = await fetchPublicImage(url, {
      allowHosts: config().nftMetadataAllowHosts,
      maxBytes: MEDIA_MAX_BYTES,
      timeoutMs: MEDIA_TIMEOUT_MS,
      maxRedirects: 3,
      gate,
    });
    remember(url, body, type);
    return { body, type };
  } catch (e) {
    if (!(e instanceof OutboundRefused)) throw e;
    if (e.reason === 'not_image') throw new LanternError(415, 'unsupported_media_type', `The image is not one Lantern passes on: ${e.message}.`);
    if (e.reason === 'http_status' && (e.httpStatus === 404 || e.httpStatus === 410)) throw new LanternError(404, 'not_found', `The image's server answered ${e.message}.`);
    throw new LanternError(502, 'upstream_bad_response', `The image could not be fetched (${e.reason}): ${e.message}.`);
  }
}

function remember(url: string, body: Buffer, type: RasterType) {
  const old = cache.get(url);
  if (old) {
    cachedBytes -= old.body.length;
    cache.delete(url);
  }
  cache.set(url, { body, type, at: Date.now() });
  cachedBytes += body.length;
  for (const [k, v] of cache) {
    if (cachedBytes <= CACHE_MAX_BYTES) break;
    cache.delete(k);
    cachedBytes -= v.body.length;
  }
}
