import { z } from 'zod';
import { addressSchema, chainIdSchema, compact, hexSchema } from './common';
import { isRfc3986Uri, isSiweDomain, statementProblem } from './eip4361';

/**
 * Sign-in: POST {auth_url}/challenge/request/evm (the operation the interface leaves out, modelled on
 * the provider's) and POST {auth_url}/challenge/verify/evm (201).
 */

const MAX_MESSAGE_BYTES = 8 * 1024;
const isoDateTime = z.iso.datetime({ offset: true, error: 'expected an ISO 8601 timestamp such as 2030-01-01T00:00:00Z' });

// ---------------------------------------------------------------------------------------------------
// Challenge request

/** An absolute RFC 3986 URI (EIP-4361's uri and resources), also one WHATWG URL parsers read. */
const rfc3986Uri = (what: string) =>
  z
    .string({ error: `${what}: expected an absolute URI such as https://example.com/` })
    .max(2048, `${what} is longer than 2048 characters`)
    .refine(isRfc3986Uri, `expected an absolute RFC 3986 URI such as https://example.com/ (ASCII only: no spaces, control characters or raw Unicode; %-escapes well formed)`)
    .pipe(z.url({ error: 'expected an absolute URI such as https://example.com/' }));

export const challengeRequestBodySchema = z
  .object({
    // EIP-4361 domain: an RFC 3986 authority (host[:port]), no scheme, path or whitespace. Not trimmed:
    // a space or line break around it is refused, not silently dropped.
    domain: z
      .string()
      .min(1, 'domain is required')
      .max(253 + 6)
      .refine(isSiweDomain, 'expected an RFC 3986 authority such as example.com or localhost:3000 (host and optional port; no scheme, path, user info or spaces)'),
    chainId: chainIdSchema,
    address: addressSchema,
    // A statement is one line of plain text in the message (see eip4361.ts for why each rule).
    statement: z
      .string()
      .max(1024)
      .superRefine((s, ctx) => {
        const problem = statementProblem(s);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .optional(),
    uri: rfc3986Uri('uri'),
    expirationTime: isoDateTime.optional(),
    notBefore: isoDateTime.optional(),
    resources: z.array(rfc3986Uri('resources entry')).max(32, 'at most 32 resources').optional(),
    timeout: z.number().int('timeout is in whole seconds').min(15, 'timeout must be at least 15 seconds').max(120, 'timeout must be at most 120 seconds'),
  })
  .superRefine((b, ctx) => {
    if (b.expirationTime && b.notBefore && Date.parse(b.notBefore) > Date.parse(b.expirationTime)) {
      ctx.addIssue({ code: 'custom', path: ['expirationTime'], message: 'expirationTime must not be before notBefore' });
    }
  });
export type ChallengeRequestBody = z.output<typeof challengeRequestBodySchema>;

export const challengeResponseSchema = z.looseObject({
  id: z.string().min(1),
  message: z.string().min(1),
  profileId: z.string().min(1),
});
export type ChallengeResponse = z.output<typeof challengeResponseSchema>;

/** What Lantern answers (201): exactly `{id, message, profileId}`. */
export function serializeChallengeResponse(r: ChallengeResponse) {
  return { id: r.id, message: r.message, profileId: r.profileId };
}

// ---------------------------------------------------------------------------------------------------
// Verify

export const verifyBodySchema = z.object({
  message: z
    .string()
    .min(1, 'message is required')
    .refine((m) => Buffer.byteLength(m, 'utf8') <= MAX_MESSAGE_BYTES, `message is longer than ${MAX_MESSAGE_BYTES} bytes`),
  // 65-byte EOA signatures and longer smart-wallet (EIP-1271/6492) ones; bounded like the message.
  signature: hexSchema.min(4, 'signature is empty').max(2 + 2 * MAX_MESSAGE_BYTES, 'signature is too long'),
});
export type VerifyBody = z.output<typeof verifyBodySchema>;

const optionalText = z
  .string()
  .nullish()
  .transform((v) => v ?? null);

/**
 * The session record. Providers send chainId as number or string ("1"); Lantern keeps a number.
 * Optional EIP-4361 fields (statement, expirationTime, notBefore) are null when the message had none.
 */
export const verifyResponseSchema = z.looseObject({
  id: z.string().min(1),
  domain: z.string(),
  chainId: chainIdSchema,
  address: addressSchema,
  statement: optionalText,
  uri: z.string(),
  expirationTime: optionalText,
  notBefore: optionalText,
  resources: z
    .array(z.string())
    .nullish()
    .transform((v) => v ?? []),
  version: z.union([z.string(), z.number().transform(String)]),
  nonce: z.string(),
  profileId: z.string(),
});
export type VerifyResult = z.output<typeof verifyResponseSchema>;

/**
 * What Lantern answers (201): the interface's record. chainId a number; optional fields that the
 * message did not carry are left out (not null), as EIP-4361 leaves them out of the message.
 */
export function serializeVerifyResponse(r: VerifyResult) {
  return compact({
    ...r,
    statement: r.statement ?? undefined,
    expirationTime: r.expirationTime ?? undefined,
    notBefore: r.notBefore ?? undefined,
  });
}
