import type { z } from 'zod';
import { LanternError } from '@/lib/errors';

/** `result[0].hash: expected string, received number` — the first issue, naming the field that failed. */
export function describeZodError(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid value';
  const path = issue.path.reduce<string>(
    (acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : acc ? `${acc}.${String(p)}` : String(p)),
    '',
  );
  return `${path || '(root)'}: ${issue.message}`;
}

/** A value that fails its schema, as the 400 that names it: the API, pages and actions word bad input alike. */
export function zodToBadParameter(error: z.ZodError): LanternError {
  const issue = error.issues[0];
  const name = issue?.path.length ? String(issue.path[0]) : undefined;
  return new LanternError(400, 'invalid_parameter', describeZodError(error), name ? { parameter: name } : {});
}
