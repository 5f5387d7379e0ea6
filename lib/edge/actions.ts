// Server actions (any POST to a page) under `npm start`: refused unless Origin is one of PUBLIC_URL's
// origins (403), larger than MAX_ACTION_BYTES (413), or not a request React's reply decoder reads safely
// (400/415): only the argument shapes Lantern's actions take get through, so the action itself never
// runs on anything else. An action id this build does not have: 404 (Next would log a stack for it).
// The body is read here and replayed to Next unchanged.
import { IncomingMessage, type ServerResponse } from 'node:http';
import type { ErrorCode } from '@/lib/errors';
import { matchOrigin } from '@/lib/public-origins.mjs';
import type { Answer } from './answers';
import { isApiPath } from './routes';
import { send } from './server';

/** Largest server-action body: Lantern's largest (a signed 8 KB message) is far below. */
export const MAX_ACTION_BYTES = 64 * 1024;
/** Deepest nesting of arrays and objects in an action's arguments (Lantern's are at most 3 deep). */
export const MAX_ACTION_DEPTH = 32;

class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const headerOf = (req: IncomingMessage, name: string) => {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
};

/**
 * The checks of a server action that need only its head, run by guardAction (`npm start`) and by
 * proxy.ts (`next start`, `npm run dev`) for every POST to a page: its Origin must be one of
 * PUBLIC_URL's, its declared length at most MAX_ACTION_BYTES. Passing, it gives the X-Forwarded-Host
 * to hand Next: Next refuses (with a 500) an action whose Origin differs from X-Forwarded-Host/Host; the
 * Origin was just checked against PUBLIC_URL, which is also where the action takes its domain from, so
 * the request's own Host (forged, or a proxy's internal name) has no say.
 */
export function checkActionHead(header: (name: string) => string | undefined, publicOrigins: string[]): Answer | { forwardedHost: string } {
  const origin = matchOrigin(publicOrigins, header('origin'));
  if (!origin) {
    return { status: 403, code: 'origin_not_allowed', message: 'This form or action must be sent from Lantern’s own pages: the request’s Origin is missing or not one of PUBLIC_URL’s origins.' };
  }
  const declared = Number(header('content-length'));
  if (Number.isFinite(declared) && declared > MAX_ACTION_BYTES) return { status: 413, code: 'payload_too_large', message: TOO_LARGE };
  return { forwardedHost: new URL(origin).host };
}

/** A request Next may treat as a server action: any POST outside the published API. */
export function isActionRequest(req: IncomingMessage): boolean {
  return req.method === 'POST' && !isApiPath((req.url ?? '').split('?')[0]);
}

/**
 * The ids of the server actions a build has (Next's server-reference-manifest.json, node and edge), or
 * undefined when the manifest cannot be read (then Next alone judges ids).
 */
export function actionIdsOf(manifestJson: string): Set<string> | undefined {
  try {
    const m = JSON.parse(manifestJson);
    return new Set([...Object.keys(m.node ?? {}), ...Object.keys(m.edge ?? {})]);
  } catch {
    return undefined;
  }
}

/**
 * Checks a server-action request and, when it passes, calls `pass(replayed)` with a request that
 * carries the same body for Next. Otherwise answers 403/400/404/413/415 and the action never runs.
 * `actionIds`: the build's action ids (actionIdsOf); an id not among them is answered 404 here.
 */
export async function guardAction(
  req: IncomingMessage,
  res: ServerResponse,
  publicOrigins: string[],
  pass: (replayed: IncomingMessage) => void,
  actionIds?: Set<string>,
): Promise<void> {
  const path = (req.url ?? '').split('?')[0];
  try {
    const head = checkActionHead((name) => headerOf(req, name), publicOrigins);
    if ('status' in head) throw new Refusal(head.status, head.code ?? 'invalid_request', head.message ?? '', head.headers);
    req.headers['x-forwarded-host'] = head.forwardedHost;
    if (req.headers['next-action'] !== undefined) checkActionId(String(req.headers['next-action']), actionIds);
    const body = await readLimited(req, MAX_ACTION_BYTES);
    await checkActionBody(req.headers, body, actionIds);
    pass(replay(req, body));
  } catch (e) {
    if (!(e instanceof Refusal)) throw e;
    // Clients write the whole body before they read an answer: read what is left (up to a bound) so
    // they get this one instead of a broken pipe; past the bound, answer and close the connection.
    const drained = await discard(req, MAX_DISCARD_BYTES);
    send(res, path, { status: e.status, code: e.code, message: e.message, headers: { ...e.headers, ...(drained ? {} : { Connection: 'close' }) } });
  }
}

/** How much of a refused body is read and thrown away before answering. */
const MAX_DISCARD_BYTES = 8 * 1024 * 1024;

function discard(req: IncomingMessage, limit: number): Promise<boolean> {
  if (req.complete) return Promise.resolve(true);
  return new Promise((resolve) => {
    let size = 0;
    const done = (ok: boolean) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      resolve(ok);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) done(false);
    };
    const onEnd = () => done(true);
    const onError = () => done(false);
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', onError);
    req.resume();
  });
}

const TOO_LARGE = `The action’s body is larger than ${MAX_ACTION_BYTES / 1024} KB.`;
const tooLarge = () => new Refusal(413, 'payload_too_large', TOO_LARGE);

function readLimited(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', () => reject(new Refusal(400, 'invalid_request', 'The request body could not be read.')));
  });
}

/** A request with the same head as `req` whose body is `body`, for Next to read as if nothing happened. */
function replay(req: IncomingMessage, body: Buffer): IncomingMessage {
  const r = new IncomingMessage(req.socket);
  r.method = req.method;
  r.url = req.url;
  r.httpVersion = req.httpVersion;
  r.httpVersionMajor = req.httpVersionMajor;
  r.httpVersionMinor = req.httpVersionMinor;
  r.headers = req.headers;
  r.rawHeaders = req.rawHeaders;
  r.push(body);
  r.push(null);
  r.complete = true;
  return r;
}

/** Next's id length (a 2-digit info byte and a 40-digit hash). */
const ACTION_ID_LENGTH = 42;

/**
 * An action this build does not have: a page loaded before an update, or a made-up id. Next would
 * answer it with a bare text and log a stack; this answer carries the header Next's client router reads
 * (`x-nextjs-action-not-found`), so a page still says "reload" as it would.
 */
function checkActionId(id: string, actionIds: Set<string> | undefined): void {
  if (!actionIds) return;
  const shown = JSON.stringify(id.slice(0, ACTION_ID_LENGTH + 2));
  const headers = { 'x-nextjs-action-not-found': '1' };
  if (id.length !== ACTION_ID_LENGTH || !/^[0-9a-f]+$/.test(id)) {
    throw new Refusal(400, 'invalid_request', `${shown} is not a server action id.`, headers);
  }
  if (!actionIds.has(id)) {
    throw new Refusal(404, 'not_found', `This version of Lantern has no server action ${shown}: the page was probably loaded before Lantern was updated; reload it.`, headers);
  }
}

async function checkActionBody(headers: IncomingMessage['headers'], body: Buffer, actionIds: Set<string> | undefined): Promise<void> {
  const type = String(headers['content-type'] ?? '').trim();
  const fetchAction = headers['next-action'] !== undefined;
  if (/^multipart\/form-data\s*(;|$)/i.test(type)) {
    if (!/;\s*boundary=("[^"]+"|[^;\s]+)/i.test(type)) throw new Refusal(400, 'invalid_request', 'A multipart/form-data body needs a boundary parameter in its Content-Type.');
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(body), { headers: { 'content-type': type } }).formData();
    } catch {
      throw new Refusal(400, 'invalid_request', 'The multipart/form-data body is malformed.');
    }
    if (fetchAction && !form.has('0')) throw new Refusal(400, 'invalid_request', 'The action\u2019s arguments are missing (no field "0").');
    for (const [key, value] of form) {
      // Numbered fields (and an HTML form's `$ACTION_n:m`) are React reply rows: JSON that the decoder
      // follows. Other fields are plain form values (address, label, note) and stay text.
      const row = /^\d+$/.test(key) || /^\$ACTION_\d+:\d+$/.test(key);
      if (typeof value !== 'string') throw new Refusal(400, 'invalid_request', `Field ${JSON.stringify(key.slice(0, 64))} is a file; Lantern's actions take none.`);
      if (row) checkReplyRow(value, key === '0', true);
      // A form posted without JavaScript names its action in a field (React's decodeAction reads these).
      if (key.startsWith('$ACTION_ID_')) checkActionId(key.slice('$ACTION_ID_'.length), actionIds);
      if (/^\$ACTION_\d+:0$/.test(key)) checkActionId(/^\{"id":"([^"]*)"/.exec(value)?.[1] ?? '', actionIds);
    }
    return;
  }
  if (!fetchAction) {
    // Not an action: a POST of something else to a page. Next renders the page; nothing runs.
    if (type === '' || /^application\/x-www-form-urlencoded\b/i.test(type) || /^text\/plain\b/i.test(type)) return;
    throw new Refusal(415, 'unsupported_media_type', 'Pages take POSTs only from Lantern’s own forms (multipart/form-data).');
  }
  if (!/^text\/plain\b/i.test(type)) {
    throw new Refusal(415, 'unsupported_media_type', 'A server action’s arguments are sent as text/plain (JSON) or multipart/form-data.');
  }
  checkReplyRow(body.toString('utf8'), true, false);
}

// Reference strings React's reply decoder resolves. Lantern's action arguments (strings, numbers,
// null, plain objects, a FormData) only ever need these; others (promises `$@`, server references
// `$F`/`$h`, streams, blobs, temporary references, Maps, Sets, ...) make the decoder wait for rows
// that never come or build objects no action expects, and are refused.
const PLAIN_REFS = /^\$(\$|undefined$|NaN$|Infinity$|-Infinity$|-0$|D\d{4}-\d\d-\d\dT[\d:.]+Z$|n-?\d{1,80}$)/;
const FORM_REF = /^\$K[0-9a-f]{1,8}$/;

function checkReplyRow(text: string, root: boolean, multipart: boolean): void {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Refusal(400, 'invalid_request', 'The action’s arguments are not valid JSON.');
  }
  if (root && !Array.isArray(value)) throw new Refusal(400, 'invalid_request', 'The action’s arguments must be a JSON array.');
  // Iterative walk: a hostile depth must not overflow this server's stack either.
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.startsWith('$') && !PLAIN_REFS.test(v) && !(multipart && FORM_REF.test(v))) {
        throw new Refusal(400, 'invalid_request', `The action’s arguments hold a reference Lantern does not take: ${JSON.stringify(v.slice(0, 16))}.`);
      }
    } else if (v !== null && typeof v === 'object') {
      if (depth > MAX_ACTION_DEPTH) throw new Refusal(400, 'invalid_request', `The action’s arguments are nested deeper than ${MAX_ACTION_DEPTH} levels.`);
      for (const [k, child] of Object.entries(v)) {
        if (k === '__proto__') throw new Refusal(400, 'invalid_request', 'The action’s arguments hold a "__proto__" key.');
        stack.push([child, depth + 1]);
      }
    }
  }
}
