import 'server-only';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { cache } from 'react';
import { cookies } from 'next/headers';
import { sealData, unsealData } from 'iron-session';
import { getAddress, type Address } from 'viem';
import { clock } from '@/lib/clock';
import { config } from '@/lib/config';
import { db } from '@/lib/db';
import { LanternError } from '@/lib/errors';
import type { VerifyResult } from '@/lib/interface/auth';
import { log } from '@/lib/log';

/**
 * The signed-in session. Its state is a row in the database (`sessions`); the cookie carries only an
 * opaque random token, sealed with a key derived from SESSION_SECRET (iron-session), and the row is
 * found by the token's SHA-256. So sign-out ends the session for every copy of the cookie, on every
 * instance at once; "sign out everywhere" and deleting a person's saved data end all of theirs.
 * httpOnly, SameSite=Lax, Secure in production; it ends at the signed message's Expiration Time when it
 * had one, else after 7 days, as measured by lib/clock.ts (the database's own clock is never asked).
 */

export const SESSION_COOKIE = 'lantern_session';
/** Binds a verify to the browser whose sign-in dialog asked for that exact challenge. */
export const CHALLENGE_COOKIE = 'lantern_siwe';
/** A session's length when the message names no Expiration Time; the pages' sign-in names this one. */
export const DEFAULT_SESSION_S = 7 * 24 * 3600;

export interface Session {
  address: Address;
  chainId: number;
  profileId: string;
  /** Unix ms when the session ends. */
  expiresAt: number;
}

function key(purpose: string): string {
  return createHmac('sha256', config().sessionSecret).update(`lantern:${purpose}:v1`).digest('hex');
}

function cookieOptions(maxAgeS: number) {
  return { httpOnly: true, sameSite: 'lax' as const, secure: config().env === 'production', path: '/', maxAge: maxAgeS };
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The token in this request's session cookie, when the seal is ours; never trusted beyond that. */
async function cookieToken(): Promise<string | null> {
  const raw = (await cookies()).get(SESSION_COOKIE)?.value;
  if (!raw) return null;
  try {
    const data = await unsealData<{ t?: unknown }>(raw, { password: key('session-cookie') });
    return typeof data?.t === 'string' && /^[0-9a-f]{64}$/.test(data.t) ? data.t : null;
  } catch {
    return null;
  }
}

interface Row {
  profile_id: string;
  address: string;
  chain_id: string | number;
  expires_at: Date | string;
}

/**
 * The current session for server components and actions; null when signed out, expired or revoked.
 * One database read per request (React's cache), however many components ask.
 */
export const getSession = cache(async (): Promise<Session | null> => {
  const token = await cookieToken();
  if (!token) return null;
  try {
    const { rows } = await (await db()).query<Row>(
      `SELECT profile_id, address, chain_id, expires_at FROM sessions
       WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > to_timestamp($2::double precision / 1000)`,
      [hashToken(token), clock.now()],
    );
    const r = rows[0];
    if (!r) return null;
    return { address: getAddress(r.address), chainId: Number(r.chain_id), profileId: r.profile_id, expiresAt: new Date(r.expires_at).getTime() };
  } catch (e) {
    // The page still renders, signed out, and says nothing it cannot back; the log says why.
    log().warn({ err: (e as Error).message }, 'session lookup failed: database unavailable');
    return null;
  }
});

/** Server actions only (cookies can be set there). */
export async function startSession(record: VerifyResult): Promise<Session> {
  const now = clock.now();
  const expiresAt = record.expirationTime ? Date.parse(record.expirationTime) : now + DEFAULT_SESSION_S * 1000;
  const maxAge = Math.max(1, Math.floor((expiresAt - now) / 1000));
  const token = randomBytes(32).toString('hex');
  const address = getAddress(record.address);
  const d = await db();
  await d.query(
    `INSERT INTO sessions (token_hash, profile_id, address, chain_id, expires_at) VALUES ($1, $2, $3, $4, to_timestamp($5::double precision / 1000))`,
    [hashToken(token), record.profileId, address, record.chainId, expiresAt],
  );
  // Keep ended sessions a day for the record, then forget them.
  if (Math.random() < 0.02) {
    await d.query(`DELETE FROM sessions WHERE expires_at < now() - interval '1 day' OR revoked_at < now() - interval '1 day'`).catch(() => undefined);
  }
  const seal = await sealData({ t: token }, { password: key('session-cookie'), ttl: maxAge + 60 });
  (await cookies()).set(SESSION_COOKIE, seal, cookieOptions(maxAge));
  return { address, chainId: record.chainId, profileId: record.profileId, expiresAt };
}

/**
 * Ends this browser's session wherever its cookie was copied, and clears the cookie. The cookie is
 * cleared first, whatever happens: when the database cannot record the end, this browser is still
 * signed out, and the error (503) says that copies of the cookie are not.
 */
export async function endSession(): Promise<void> {
  const token = await cookieToken();
  const jar = await cookies();
  if (jar.has(SESSION_COOKIE)) jar.set(SESSION_COOKIE, '', cookieOptions(0));
  if (!token) return;
  try {
    await (await db()).query('UPDATE sessions SET revoked_at = now() WHERE token_hash = $1 AND revoked_at IS NULL', [hashToken(token)]);
  } catch (e) {
    log().warn({ err: (e as Error).message }, 'sign-out not recorded: database unavailable');
    throw new LanternError(
      503,
      'upstream_unavailable',
      'You are signed out in this browser, but Lantern could not record it (its database is not answering): a copy of this session’s cookie would still work until it expires. Once Lantern is back, sign in and choose “Sign out on every device”.',
    );
  }
}

/** Ends every session of a profile (sign out everywhere; deleting saved data). Returns how many ended. */
export async function endAllSessions(profileId: string): Promise<number> {
  const { rows } = await (await db()).query<{ token_hash: string }>(
    'UPDATE sessions SET revoked_at = now() WHERE profile_id = $1 AND revoked_at IS NULL RETURNING token_hash',
    [profileId],
  );
  const jar = await cookies();
  if (jar.has(SESSION_COOKIE)) jar.set(SESSION_COOKIE, '', cookieOptions(0));
  return rows.length;
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
