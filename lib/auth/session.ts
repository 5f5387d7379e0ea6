import 'server-only';
import { createHash, createHmac } from 'node:crypto';
import { cookies } from 'next/headers';
import { sealData, unsealData } from 'iron-session';
import { z } from 'zod';
import { config } from '@/lib/config';
import type { VerifyResult } from '@/lib/interface/auth';
import { addressSchema } from '@/lib/interface/common';

/**
 * The signed-in session: an iron-session sealed cookie (encrypted and authenticated with a key derived
 * from SESSION_SECRET), so any instance of a deployment reads it and none keeps state in memory.
 * httpOnly, SameSite=Lax, Secure in production; it ends at the signed message's Expiration Time
 * when it had one, else after 7 days. Sign-out deletes it.
 */

export const SESSION_COOKIE = 'lantern_session';
/** Binds a verify to the browser whose sign-in dialog asked for that exact challenge. */
export const CHALLENGE_COOKIE = 'lantern_siwe';
const DEFAULT_SESSION_S = 7 * 24 * 3600;

const sessionSchema = z.object({
  address: addressSchema,
  chainId: z.number().int().positive(),
  profileId: z.string().regex(/^0x[0-9a-f]{64}$/i),
  /** Unix ms when the session ends. */
  expiresAt: z.number().int(),
});
export type Session = z.output<typeof sessionSchema>;

function key(purpose: string): string {
  return createHmac('sha256', config().sessionSecret).update(`lantern:${purpose}:v1`).digest('hex');
}

function cookieOptions(maxAgeS: number) {
  return { httpOnly: true, sameSite: 'lax' as const, secure: config().env === 'production', path: '/', maxAge: maxAgeS };
}

/** The current session for server components and actions; null when signed out or expired. */
export async function getSession(): Promise<Session | null> {
  const raw = (await cookies()).get(SESSION_COOKIE)?.value;
  if (!raw) return null;
  try {
    const data = sessionSchema.safeParse(await unsealData(raw, { password: key('session-cookie') }));
    if (!data.success || data.data.expiresAt <= Date.now()) return null;
    return data.data;
  } catch {
    return null;
  }
}

/** Server actions only (cookies can be set there). */
export async function startSession(record: VerifyResult): Promise<Session> {
  const now = Date.now();
  const expiresAt = record.expirationTime ? Date.parse(record.expirationTime) : now + DEFAULT_SESSION_S * 1000;
  const maxAge = Math.max(1, Math.floor((expiresAt - now) / 1000));
  const session: Session = { address: record.address, chainId: record.chainId, profileId: record.profileId, expiresAt };
  const seal = await sealData(session, { password: key('session-cookie'), ttl: maxAge + 60 });
  (await cookies()).set(SESSION_COOKIE, seal, cookieOptions(maxAge));
  return session;
}

export async function endSession(): Promise<void> {
  const jar = await cookies();
  if (jar.has(SESSION_COOKIE)) jar.set(SESSION_COOKIE, '', cookieOptions(0));
}

const digest = (message: string) => createHash('sha256').update(message).digest('hex');

/** Remembers, for this browser only, which challenge message its sign-in dialog was given. */
export async function rememberChallenge(message: string, timeoutS: number): Promise<void> {
  const seal = await sealData({ m: digest(message) }, { password: key('challenge-cookie'), ttl: timeoutS + 5 });
  (await cookies()).set(CHALLENGE_COOKIE, seal, cookieOptions(timeoutS));
}

/** True when this browser was given exactly this message by requestChallengeAction; forgets it. */
export async function takeChallenge(message: string): Promise<boolean> {
  const jar = await cookies();
  const raw = jar.get(CHALLENGE_COOKIE)?.value;
  if (!raw) return false;
  jar.set(CHALLENGE_COOKIE, '', cookieOptions(0));
  try {
    const data = (await unsealData<{ m?: string }>(raw, { password: key('challenge-cookie') })) ?? {};
    return data.m === digest(message);
  } catch {
    return false;
  }
}
