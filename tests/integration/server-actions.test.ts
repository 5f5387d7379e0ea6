import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HDAccount } from 'viem/accounts';
import { startLantern, type LanternInstance } from '../support/lantern';
import { PG_ADMIN_URL, freshDatabase } from '../support/services';
import { startSignInChain, type SignInChain } from '../support/sign-in-chain';

/**
 * Hostile server-action requests against a real `npm start` (lib/edge/ in front of
 * Next), on its own PostgreSQL database so the tables can be read while it runs. Every refusal is an
 * exact status and JSON message, sent with a valid session cookie (so the action would have written
 * had it run), and the saved_wallets, auth_challenges and sessions tables stay exactly as they were. The
 * same actions sent as the browser sends them still work. Signing out while the database is down still
 * clears the cookie, and says the end was not recorded.
 */

let chain: SignInChain;
let lantern: LanternInstance;
let db: { url: string; drop: () => Promise<void> };
let client: pg.Client;
let account: HDAccount;
let session: string;

function actionId(name: string): string {
  const manifest = JSON.parse(readFileSync(path.resolve('.next/server/server-reference-manifest.json'), 'utf8'));
  const entry = Object.entries(manifest.node as Record<string, { exportedName?: string }>).find(([, v]) => v.exportedName === name);
  if (!entry) throw new Error(`server action ${name} not in the build manifest`);
  return entry[0];
}

const { encodeReply } = createRequire(import.meta.url)('next/dist/compiled/react-server-dom-turbopack/client.node') as {
  encodeReply: (v: unknown) => Promise<FormData | string>;
};

interface Sent {
  status: number;
  type: string | null;
  text: string;
  json: { message?: string; code?: string } | undefined;
  setCookie: string[];
  notFoundHeader: string | null;
}

async function send(name: string, body: BodyInit, opts: { type?: string; origin?: string | null; cookie?: string; stream?: boolean; id?: string } = {}): Promise<Sent> {
  const headers: Record<string, string> = { 'next-action': opts.id ?? actionId(name), accept: 'text/x-component' };
  if (opts.type !== undefined) headers['content-type'] = opts.type;
  if (opts.origin !== null) headers.origin = opts.origin ?? lantern.url;
  if (opts.cookie) headers.cookie = opts.cookie;
  const res = await fetch(lantern.url + '/', { method: 'POST', headers, body, ...(opts.stream ? { duplex: 'half' } : {}) } as RequestInit);
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, type: res.headers.get('content-type'), text, json, setCookie: res.headers.getSetCookie(), notFoundHeader: res.headers.get('x-nextjs-action-not-found') };
}

/** The action's value in a flight reply: the row holding `{"ok":...}`. */
const value = (r: Sent) => {
  const line = r.text.split('\n').find((l) => /^[0-9a-f]+:\{"ok":/.test(l));
  return line ? JSON.parse(line.slice(line.indexOf(':') + 1)) : undefined;
};

const TEXT = 'text/plain;charset=UTF-8';

async function tables() {
  const w = await client.query('SELECT count(*)::int AS n FROM saved_wallets');
  const c = await client.query('SELECT count(*)::int AS n FROM auth_challenges');
  // Sessions: rows, and ended ones (a sign-out that ran would have set revoked_at).
  const s = await client.query('SELECT count(*)::int AS n, count(revoked_at)::int AS revoked FROM sessions');
  return { saved_wallets: w.rows[0].n as number, auth_challenges: c.rows[0].n as number, sessions: s.rows[0].n as number, revoked_sessions: s.rows[0].revoked as number };
}

/** A saveWalletAction request exactly as React's form sends it, with a chosen Origin. */
async function saveForm(address: string, label: string) {
  const data = new FormData();
  data.append('address', address);
  data.append('label', label);
  return (await encodeReply([null, data])) as FormData;
}

/** A real sign-in through the actions, as the page does it: the session cookie. */
async function signIn(who: HDAccount): Promise<string> {
  const req = await send('requestChallengeAction', JSON.stringify([who.address, 31337]), { type: TEXT });
  const message = value(req).message as string;
  const siwe = req.setCookie.find((c) => c.startsWith('lantern_siwe='))!.split(';')[0];
  const verified = await send('verifyChallengeAction', JSON.stringify([message, await who.signMessage({ message })]), { type: TEXT, cookie: siwe });
  expect(value(verified)).toMatchObject({ ok: true });
  return verified.setCookie.find((c) => c.startsWith('lantern_session='))!.split(';')[0];
}

beforeAll(async () => {
  chain = await startSignInChain();
  db = await freshDatabase();
  lantern = await startLantern({ EVM_RPC_URL: chain.rpcUrl, DATABASE_URL: db.url });
  client = new pg.Client({ connectionString: db.url });
  await client.connect();
  account = chain.accounts[3];
  session = await signIn(account);
}, 180_000);

afterAll(async () => {
  await client?.end();
  await lantern?.stop();
  await db?.drop();
});

const ORIGIN_MESSAGE = 'This form or action must be sent from Lantern’s own pages: the request’s Origin is missing or not one of PUBLIC_URL’s origins.';
const deep = (n: number) => `[${'['.repeat(n)}${']'.repeat(n)}, 1]`;

describe('hostile server actions are refused before they run', () => {
  it.each([
    ['cross-origin save', 'saveWalletAction', 'form', { origin: 'https://evil.example' }, 403, 'origin_not_allowed', ORIGIN_MESSAGE],
    ['save without Origin', 'saveWalletAction', 'form', { origin: null }, 403, 'origin_not_allowed', ORIGIN_MESSAGE],
    ['save from Origin null', 'saveWalletAction', 'form', { origin: 'null' }, 403, 'origin_not_allowed', ORIGIN_MESSAGE],
    ['save from a look-alike origin', 'saveWalletAction', 'form', { origin: 'http://127.0.0.1.evil.example' }, 403, 'origin_not_allowed', ORIGIN_MESSAGE],
    ['cross-origin challenge', 'requestChallengeAction', 'args', { origin: 'https://evil.example' }, 403, 'origin_not_allowed', ORIGIN_MESSAGE],
    ['invalid JSON', 'requestChallengeAction', '["0x1", 31337', { type: TEXT }, 400, 'invalid_request', 'The action’s arguments are not valid JSON.'],
    ['arguments not an array', 'requestChallengeAction', '{"0": 1}', { type: TEXT }, 400, 'invalid_request', 'The action’s arguments must be a JSON array.'],
    ['a 2 MB argument', 'requestChallengeAction', JSON.stringify(['x'.repeat(2 * 1024 * 1024), 31337]), { type: TEXT }, 413, 'payload_too_large', 'The action’s body is larger than 64 KB.'],
    ['a 2 MB argument sent chunked', 'requestChallengeAction', 'stream', { type: TEXT }, 413, 'payload_too_large', 'The action’s body is larger than 64 KB.'],
    ['nesting 5,000 deep', 'requestChallengeAction', deep(5000), { type: TEXT }, 400, 'invalid_request', 'The action’s arguments are nested deeper than 32 levels.'],
    ['nesting 33 deep', 'requestChallengeAction', deep(33), { type: TEXT }, 400, 'invalid_request', 'The action’s arguments are nested deeper than 32 levels.'],
    ['a promise reference', 'requestChallengeAction', '["$@1", 31337]', { type: TEXT }, 400, 'invalid_request', 'The action’s arguments hold a reference Lantern does not take: "$@1".'],
    ['a server reference', 'requestChallengeAction', '["$F1", 31337]', { type: TEXT }, 400, 'invalid_request', 'The action’s arguments hold a reference Lantern does not take: "$F1".'],
    ['a FormData reference without multipart', 'saveWalletAction', '[null, "$K1"]', { type: TEXT }, 400, 'invalid_request', 'The action’s arguments hold a reference Lantern does not take: "$K1".'],
    ['a __proto__ key', 'saveWalletAction', '[{"__proto__": {"ok": true}}, null]', { type: TEXT }, 400, 'invalid_request', 'The action’s arguments hold a "__proto__" key.'],
    ['multipart without boundary', 'saveWalletAction', '--x\r\n\r\n', { type: 'multipart/form-data' }, 400, 'invalid_request', 'A multipart/form-data body needs a boundary parameter in its Content-Type.'],
    ['malformed multipart', 'saveWalletAction', 'not multipart at all', { type: 'multipart/form-data; boundary=abc' }, 400, 'invalid_request', 'The multipart/form-data body is malformed.'],
    ['multipart without the arguments row', 'saveWalletAction', 'multipart-no-root', {}, 400, 'invalid_request', 'The action’s arguments are missing (no field "0").'],
    ['multipart with a promise in the arguments row', 'saveWalletAction', 'multipart-promise', {}, 400, 'invalid_request', 'The action’s arguments hold a reference Lantern does not take: "$@2".'],
    ['multipart with a file', 'saveWalletAction', 'multipart-file', {}, 400, 'invalid_request', 'Field "1_address" is a file; Lantern\'s actions take none.'],
    ['JSON content type', 'requestChallengeAction', 'args', { type: 'application/json' }, 415, 'unsupported_media_type', 'A server action’s arguments are sent as text/plain (JSON) or multipart/form-data.'],
    ['cross-origin sign-out', 'signOutAction', '[]', { type: TEXT, origin: 'https://evil.example' }, 403, 'origin_not_allowed', ORIGIN_MESSAGE],
    ['cross-origin sign-out everywhere', 'signOutEverywhereAction', '[]', { type: TEXT, origin: 'https://evil.example' }, 403, 'origin_not_allowed', ORIGIN_MESSAGE],
    ['sign-out with a promise reference', 'signOutAction', '["$@1"]', { type: TEXT }, 400, 'invalid_request', 'The action’s arguments hold a reference Lantern does not take: "$@1".'],
  ] as const)('%s: %i %s', async (_name, action, kind, opts, status, code, message) => {
    const before = await tables();
    const target = chain.accounts[8].address;
    let body: BodyInit;
    let type: string | undefined = 'type' in opts ? opts.type : undefined;
    if (kind === 'form') body = await saveForm(target, 'Hostile');
    else if (kind === 'args') {
      body = JSON.stringify([chain.accounts[8].address, 31337]);
      type ??= TEXT;
    } else if (kind === 'stream') {
      const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
      let sent = 0;
      body = new ReadableStream({
        pull(c) {
          if (sent++ < 32) c.enqueue(chunk);
          else c.close();
        },
      });
    } else if (kind.startsWith('multipart-')) {
      const f = new FormData();
      if (kind === 'multipart-no-root') f.append('1_address', target);
      if (kind === 'multipart-promise') f.append('0', '[null, "$@2"]');
      if (kind === 'multipart-file') {
        f.append('0', '[null, "$K1"]');
        f.append('1_address', new Blob([target]), 'address.txt');
      }
      body = f;
    } else body = kind;
    const origin = 'origin' in opts ? opts.origin : undefined;
    const r = await send(action, body, { type, origin, cookie: session, stream: kind === 'stream' });
    expect(r.status, r.text.slice(0, 200)).toBe(status);
    expect(r.type).toBe('application/json');
    expect(r.json).toEqual({ message, code });
    expect(r.setCookie).toEqual([]);
    expect(await tables()).toEqual(before);
  });

  it('the same actions sent as the page sends them still run and write', async () => {
    const before = await tables();
    const target = chain.accounts[8].address;
    const saved = await send('saveWalletAction', await saveForm(target, 'Legit'), { cookie: session });
    expect(saved.status).toBe(200);
    expect(value(saved)).toMatchObject({ ok: true, address: target, label: 'Legit' });
    const asked = await send('requestChallengeAction', JSON.stringify([account.address, 31337]), { type: TEXT });
    expect(value(asked)).toMatchObject({ ok: true });
    expect(await tables()).toEqual({ ...before, saved_wallets: before.saved_wallets + 1, auth_challenges: before.auth_challenges + 1 });
    const row = await client.query('SELECT label FROM saved_wallets WHERE address = $1', [target]);
    expect(row.rows).toEqual([{ label: 'Legit' }]);
    // The instance logged no failure for any of the refusals above.
    expect(lantern.output()).not.toMatch(/Maximum call stack|Connection closed|Invalid Server Actions request|Body exceeded|unhandled error/i);
  });
});

describe('an action id this build does not have', () => {
  it('is a JSON 404 carrying the header Next’s client reads (it asks to reload); nothing runs, nothing is logged', async () => {
    const before = await tables();
    const unknown = 'cc'.repeat(21);
    const r = await send('signOutAction', '[]', { type: TEXT, cookie: session, id: unknown });
    expect([r.status, r.type, r.notFoundHeader, r.json]).toEqual([
      404,
      'application/json',
      '1',
      { code: 'not_found', message: `This version of Lantern has no server action "${unknown}": the page was probably loaded before Lantern was updated; reload it.` },
    ]);
    const malformed = await send('signOutAction', '[]', { type: TEXT, cookie: session, id: 'not-an-id' });
    expect([malformed.status, malformed.json]).toEqual([400, { code: 'invalid_request', message: '"not-an-id" is not a server action id.' }]);
    expect(r.setCookie).toEqual([]);
    expect(await tables()).toEqual(before);
    expect(lantern.output()).not.toMatch(/Server Action|Failed to find|\n\s+at .+:\d+:\d+/);
  });
});

describe('signing out while the database is down', () => {
  it('clears the cookie anyway, and says the end was not recorded (so the cookie’s copies still work)', async () => {
    const other = chain.accounts[5];
    const cookie = await signIn(other);
    // The database refuses connections, and Lantern's are cut (this test's own is spared).
    const name = new URL(db.url).pathname.slice(1);
    const mine = (await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    let out: Sent;
    try {
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> $2', [name, mine]);
      out = await send('signOutAction', '[]', { type: TEXT, cookie });
    } finally {
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
      await admin.end();
    }
    expect(out.status).toBe(200);
    expect(value(out)).toEqual({
      ok: false,
      error: {
        code: 'upstream_unavailable',
        message:
          'You are signed out in this browser, but Lantern could not record it (its database is not answering): a copy of this session’s cookie would still work until it expires. Once Lantern is back, sign in and choose “Sign out on every device”.',
      },
    });
    expect(out.setCookie.filter((c) => /^lantern_session=;/.test(c) && /Max-Age=0/i.test(c)).length).toBe(1);
    // Honest: the copy still works once the database is back, until it is ended everywhere.
    const revoked = await client.query('SELECT count(revoked_at)::int AS n FROM sessions WHERE address = $1', [other.address]);
    expect(revoked.rows[0].n).toBe(0);
    expect(value(await send('signOutEverywhereAction', '[]', { type: TEXT, cookie }))).toBeUndefined();
    const after = await client.query('SELECT count(*)::int AS n, count(revoked_at)::int AS revoked FROM sessions WHERE address = $1', [other.address]);
    expect(after.rows[0]).toEqual({ n: 1, revoked: 1 });
  });
});
