import { isLedgerPath, ledgerErrorBody } from '@/lib/api/ledger-errors';
import { LanternError, type ErrorCode } from '@/lib/errors';

/**
 * An answer the guard gives instead of Next: a JSON error (`code`, `message`) or, for OPTIONS, an empty 204.
 * Both the node:http front (server.ts) and proxy.ts write it, each in its own response type.
 */
export interface Answer {
  status: number;
  code?: ErrorCode;
  message?: string;
  headers?: Record<string, string>;
}

export const BASE_HEADERS = { 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' } as const;

/** The body the route handlers would send (lib/api/responses.ts errorResponse): ledger paths in the node's shape. */
export function errorBody(pathname: string, status: number, code: ErrorCode, message: string): string {
  const e = new LanternError(status, code, message);
  return JSON.stringify(isLedgerPath(pathname) ? ledgerErrorBody(e) : e.toJSON());
}

/** Status, headers and body of an answer for `pathname`. */
export function render(pathname: string, a: Answer): { status: number; headers: Record<string, string>; body: string } {
  if (!a.code) return { status: a.status, headers: { ...BASE_HEADERS, ...a.headers }, body: '' };
  const body = errorBody(pathname, a.status, a.code, a.message ?? '');
  return { status: a.status, headers: { ...BASE_HEADERS, 'Content-Type': 'application/json', 'Content-Length': String(new TextEncoder().encode(body).length), ...a.headers }, body };
}
