import 'server-only';
import type { KeptText } from '@/lib/cache';
import { keepAnswer, type Keep } from './answer-cache';

/**
 * A Response for JSON text the caches already hold. A string body is checked for lone surrogates and
 * UTF-8 encoded on every response (3.4 ms for a 300 KB history page, more than the rest of the request);
 * bytes go out as they are. So the bytes of recently sent texts are kept, keyed by the text itself (the
 * cache hands back the same string object on a hit, whose hash V8 keeps), within MAX_BYTES.
 */
const MAX_BYTES = 32 * 1024 * 1024;
const encoded = new Map<string, Uint8Array>();
let total = 0;
const encoder = new TextEncoder();

export function jsonBytes(text: string): Uint8Array {
  const hit = encoded.get(text);
  if (hit) {
    encoded.delete(text); // least recently used first
    encoded.set(text, hit);
    return hit;
  }
  const bytes = encoder.encode(text);
  if (bytes.byteLength > MAX_BYTES / 8) return bytes; // a rare giant is not worth evicting the rest for
  encoded.set(text, bytes);
  total += bytes.byteLength;
  for (const [k, v] of encoded) {
    if (total <= MAX_BYTES) break;
    encoded.delete(k);
    total -= v.byteLength;
  }
  return bytes;
}

/**
 * A 200 (or `init.status`) whose body is `text`, sent as UTF-8 bytes with Content-Type: application/json.
 * `keep`: how long the same request is sure to get the same answer (lib/api/answer-cache.ts).
 */
export function jsonTextResponse(text: string, init: { status?: number; headers?: Record<string, string>; keep?: Keep } = {}): Response {
  const bytes = jsonBytes(text);
  // A copy-free view: Response reads the bytes, it never writes them.
  const res = new Response(bytes as BodyInit, { status: init.status ?? 200, headers: { 'Content-Type': 'application/json', ...init.headers } });
  return keepAnswer(res, bytes, init.keep);
}

/** An operation's answer as JSON text with how long it holds (`getWalletHistoryBody` and the like). */
export function keptJsonResponse({ text, keep }: KeptText): Response {
  return jsonTextResponse(text, { keep });
}
