import 'server-only';
import pino, { type Logger } from 'pino';
import { config } from '@/lib/config';

/**
 * Structured JSON logs. Every request's lines carry its id (set by proxy.ts, echoed as X-Request-Id).
 * Redaction is a second line of defence: no code path logs a key or secret on purpose.
 */
const g = globalThis as unknown as { __lanternLog?: Logger };

export function log(): Logger {
  g.__lanternLog ??= pino({
    level: config().logLevel,
    base: { service: 'lantern' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['headers["x-api-key"]', 'headers.cookie', 'headers.authorization', '*.apiKey', '*.secret'], censor: '[redacted]' },
  });
  return g.__lanternLog;
}

export function requestLog(req: Request, requestId = req.headers.get('x-request-id') ?? undefined): Logger {
  return log().child({ requestId });
}
