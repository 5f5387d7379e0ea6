import 'server-only';
import { isLanternError } from '@/lib/errors';
import { log } from '@/lib/log';

/** What sign-in and saved-wallet actions answer: values the UI shows, never a thrown error. */
export interface ActionError {
  code: string;
  message: string;
  /** wrong_chain: the chain to switch to. */
  chainId?: number;
  /** For form fields. */
  field?: string;
}
export type ActionResult<T extends object = object> = ({ ok: true } & T) | { ok: false; error: ActionError };

export function actionError(e: unknown, what: string): { ok: false; error: ActionError } {
  if (isLanternError(e)) return { ok: false, error: { code: e.code, message: e.message, ...(e.parameter ? { field: e.parameter } : {}) } };
  log().error({ err: e instanceof Error ? e.message : String(e) }, `${what} failed unexpectedly`);
  return { ok: false, error: { code: 'internal_error', message: `${what} failed unexpectedly; the error has been logged. Try again.` } };
}
