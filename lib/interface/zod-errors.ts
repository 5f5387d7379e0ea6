import type { z } from 'zod';

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
