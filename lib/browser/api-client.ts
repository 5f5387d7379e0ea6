import 'client-only';
import type { ErrorInfo } from '@/lib/view/error-copy';

/**
 * The browser's way into Lantern's published API. When the server closes the API with API_KEYS, the
 * page carries a short-lived server-signed token in `<meta name="lantern-page-token">` (never a key),
 * sent here as X-Lantern-Page-Token.
 */
export class ApiError extends Error implements ErrorInfo {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly parameter?: string,
  ) {
    super(message);
  }
}

function pageToken(): string | null {
  if (typeof document === 'undefined') return null;
  return document.querySelector('meta[name="lantern-page-token"]')?.getAttribute('content') ?? null;
}

export async function apiGet<T>(path: string, query: Record<string, string | string[]>, signal?: AbortSignal): Promise<T> {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) for (const x of Array.isArray(v) ? v : [v]) params.append(k, x);
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = pageToken();
  if (token) headers['X-Lantern-Page-Token'] = token;
  let res: Response;
  try {
    res = await fetch(`${path}?${params}`, { headers, signal });
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    throw new ApiError(0, 'network_error', 'Your browser could not reach this Lantern server. Check the connection and retry.');
  }
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const b = (body ?? {}) as { code?: unknown; message?: unknown; parameter?: unknown };
    throw new ApiError(
      res.status,
      typeof b.code === 'string' ? b.code : 'http_error',
      typeof b.message === 'string' ? b.message : `The server answered ${res.status}.`,
      typeof b.parameter === 'string' ? b.parameter : undefined,
    );
  }
  return body as T;
}
