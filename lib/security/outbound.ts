import 'server-only';
import { lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Outbound requests whose URL someone else chose (NFT token URIs). The server must never be steered
 * into its own network: every address it would connect to is checked BEFORE connecting, including
 * each redirect's and the address DNS actually returned (the socket connects to the checked address,
 * so a name that re-resolves to 127.0.0.1 between check and connect cannot slip through).
 *
 * Only public unicast addresses pass (ipaddr.js classifies: `unicast` is what is left after loopback,
 * private, link-local, CGNAT, multicast, reserved, benchmarking, unique-local, mapped, ... ranges).
 * Hosts named in an explicit allow list (`NFT_METADATA_ALLOW_HOSTS`) pass whatever their address.
 */

export type RefusalReason =
  | 'scheme_not_allowed'
  | 'credentials_in_url'
  | 'address_not_public'
  | 'dns_failed'
  | 'too_many_redirects'
  | 'bad_redirect'
  | 'http_status'
  | 'timeout'
  | 'too_large'
  | 'not_json'
  | 'not_image'
  | 'network_error'
  | 'invalid_url';

export class OutboundRefused extends Error {
  constructor(
    readonly reason: RefusalReason,
    message: string,
    readonly httpStatus?: number,
  ) {
    super(message);
  }
}

/** Cloud metadata services: named on their own so no future range table can let them through. */
const METADATA_SERVICES = new Set(['169.254.169.254', 'fd00:ec2::254', '100.100.100.200', 'fd00:ec2:0:0:0:0:0:254']);

/** Why an IP address (text, any form Node or the URL parser produce) is not public, or null when it is. */
export function nonPublicReason(address: string): string | null {
  const text = address.replace(/^\[|\]$/g, '');
  // Zone ids (fe80::1%eth0) only exist for link-local: refuse outright.
  if (text.includes('%')) return 'scoped IPv6 address';
  if (!ipaddr.isValid(text)) return 'not an IP address';
  let ip = ipaddr.parse(text);
  if (METADATA_SERVICES.has(ip.toString()) || METADATA_SERVICES.has(ip.toNormalizedString())) return 'cloud metadata service';
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    const range = v6.range();
    const parts = v6.parts;
    // IPv4-mapped (::ffff:a.b.c.d), IPv4-translated and IPv4-compatible (::a.b.c.d): an IPv4 address in
    // disguise, which some stacks connect to as IPv4. Refused whatever the IPv4 is.
    if (range === 'ipv4Mapped' || range === 'rfc6145') return `IPv4 address in IPv6 form (${range})`;
    if (parts.slice(0, 6).every((p) => p === 0)) return range === 'unicast' ? 'IPv4-compatible IPv6 address' : range;
    // NAT64 (64:ff9b::/96 and the local-use /48): public only when the IPv4 inside is.
    if (range === 'rfc6052') {
      const v4 = ipaddr.IPv4.parse(`${parts[6] >> 8}.${parts[6] & 255}.${parts[7] >> 8}.${parts[7] & 255}`);
      if (v4.range() !== 'unicast' || parts[2] !== 0) return `NAT64 of a non-public address (${v4.range()})`;
      ip = v4;
    } else if (range !== 'unicast') {
      return range; // loopback, linkLocal, uniqueLocal, multicast, 6to4, teredo, reserved, benchmarking, ...
    }
    return null;
  }
  const range = (ip as ipaddr.IPv4).range();
  return range === 'unicast' ? null : range; // private, loopback, linkLocal, carrierGradeNat, reserved, ...
}

export interface OutboundPolicy {
  /** `host` or `host:port` entries whose addresses are not checked (an operator's own IPFS node, tests). */
  allowHosts: readonly string[];
}

/** A URL's host as the allow list spells it: lowercase, IPv6 without brackets. */
function hostKey(u: URL): { host: string; port: string } {
  const host = u.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  const port = u.port || (u.protocol === 'https:' ? '443' : '80');
  return { host, port };
}

export function isAllowListed(u: URL, policy: OutboundPolicy): boolean {
  const { host, port } = hostKey(u);
  return policy.allowHosts.some((entry) => {
    const e = entry.trim().toLowerCase();
    const m = /^\[?([^\]]+?)\]?(?::(\d{1,5}))?$/.exec(e);
    if (!m) return false;
    // An entry with a port allows that port only; a bare host allows every port.
    // `::1` has colons of its own: an unbracketed IPv6 entry never carries a port.
    if (!e.startsWith('[') && e.split(':').length > 2) return e === host;
    return m[1] === host && (m[2] === undefined || m[2] === port);
  });
}

/**
 * The checks that need no connection: scheme, credentials, and a host that is an IP literal. WHATWG
 * URL parsing already turns 2130706433, 0x7f000001, 0177.0.0.1 and 127.1 into 127.0.0.1, so those
 * forms are refused here as the loopback they are.
 */
export function checkUrl(raw: string | URL, policy: OutboundPolicy): URL {
  let u: URL;
  try {
    u = typeof raw === 'string' ? new URL(raw) : raw;
  } catch {
    throw new OutboundRefused('invalid_url', 'not a URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new OutboundRefused('scheme_not_allowed', `scheme ${u.protocol} is not fetched (http and https only)`);
  if (u.username || u.password) throw new OutboundRefused('credentials_in_url', 'URLs with credentials are not fetched');
  if (isAllowListed(u, policy)) return u;
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host) || host.includes(':')) {
    const why = nonPublicReason(host);
    if (why) throw new OutboundRefused('address_not_public', `address ${host} is not public (${why})`);
  } else if (/^(0x[0-9a-f]*|\d+)(\.(0x[0-9a-f]*|\d+))*\.?$/i.test(host) || /^localhost\.?$/.test(host) || /\.localhost\.?$/.test(host)) {
    // Whatever numeric form the URL parser did not turn into an address is not a name either.
    throw new OutboundRefused('address_not_public', `host ${host} is not a public name`);
  }
  return u;
}

/** A name's addresses, as `dns.lookup(name, { all: true })` answers them. Injectable for tests. */
export type Resolver = (hostname: string, family: 0 | 4 | 6) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (hostname, family) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, family }, (err, addresses) => (err ? reject(err) : resolve(addresses as { address: string; family: number }[]))),
  );

/**
 * The lookup a socket uses for a name that is not allow-listed: it answers only public addresses, so the
 * socket connects to exactly what was checked. Called once per connection: a name that answered a
 * public address before and a private one now (DNS rebinding) is refused now.
 */
export function checkedLookup(resolve: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    const family = (options.family === 4 || options.family === 6 ? options.family : 0) as 0 | 4 | 6;
    resolve(hostname, family).then(
      (list) => {
        // One non-public answer refuses the name: a name that points inside is not fetched at all.
        for (const a of list) {
          const why = nonPublicReason(a.address);
          if (why) return callback(new OutboundRefused('address_not_public', `${hostname} resolves to ${a.address}, which is not public (${why})`), '', 0);
        }
        if (list.length === 0) return callback(new OutboundRefused('dns_failed', `${hostname} has no address`), '', 0);
        if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
        callback(null, list[0].address, list[0].family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
}

const publicLookup = checkedLookup();

/** Runs one request to a host (`host:port`) under that host's limits; see lib/security/host-gate.ts. */
export interface HopGate {
  run<T>(host: string, fn: () => Promise<T>): Promise<T>;
}

export interface FetchJsonOptions extends OutboundPolicy {
  maxBytes: number;
  /** Whole-request deadline (connect, headers, body) per hop. */
  timeoutMs: number;
  maxRedirects: number;
  /** Called with the host of each connection made (tests and rate limits). */
  beforeConnect?: (u: URL) => Promise<void> | void;
  /** Per-host limits, applied to every hop (a redirect's target is gated as its own host). */
  gate?: HopGate;
  /** Name resolution for hosts that are not allow-listed (tests: a name answering what they choose). */
  resolve?: Resolver;
}

export interface FetchedJson {
  json: Record<string, unknown>;
  finalUrl: string;
}

const JSON_TYPES = /^(application\/(json|[a-z0-9.+-]*\+json|octet-stream)|text\/plain)\b/i;
const IMAGE_TYPES = /^(image\/(png|jpeg|jpg|gif|webp|avif)|application\/octet-stream|binary\/octet-stream)\b/i;

/** What one kind of body may be: the content types accepted and the Accept header sent. */
interface BodyKind {
  accept: string;
  types: RegExp;
  refusal: RefusalReason;
  agent: string;
}
const JSON_BODY: BodyKind = { accept: 'application/json', types: JSON_TYPES, refusal: 'not_json', agent: 'Lantern-NFT-metadata' };
const IMAGE_BODY: BodyKind = { accept: 'image/avif,image/webp,image/png,image/jpeg,image/gif', types: IMAGE_TYPES, refusal: 'not_image', agent: 'Lantern-NFT-media' };

/** Follows redirects (each hop checked and gated) to a body of the given kind. */
async function fetchPublicBody(raw: string, opts: FetchJsonOptions, kind: BodyKind): Promise<{ body: Buffer; finalUrl: string }> {
  let u = checkUrl(raw, opts);
  for (let hop = 0; ; hop++) {
    const target = u;
    const once = async () => {
      await opts.beforeConnect?.(target);
      return getOnce(target, opts, kind);
    };
    const res = opts.gate ? await opts.gate.run(target.host, once) : await once();
    if (res.kind === 'redirect') {
      if (hop >= opts.maxRedirects) throw new OutboundRefused('too_many_redirects', `more than ${opts.maxRedirects} redirects`);
      let next: URL;
      try {
        next = new URL(res.location, u);
      } catch {
        throw new OutboundRefused('bad_redirect', 'redirect to something that is not a URL');
      }
      u = checkUrl(next, opts); // every hop is checked again, before its connection
      continue;
    }
    return { body: res.body, finalUrl: u.toString() };
  }
}

/** GET one URL for a JSON object under every rule above; throws OutboundRefused with the reason. */
export async function fetchPublicJson(raw: string, opts: FetchJsonOptions): Promise<FetchedJson> {
  const { body, finalUrl } = await fetchPublicBody(raw, opts, JSON_BODY);
  let v: unknown;
  try {
    v = JSON.parse(body.toString('utf8'));
  } catch {
    throw new OutboundRefused('not_json', 'the body is not JSON');
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new OutboundRefused('not_json', 'the body is not a JSON object');
  return { json: v as Record<string, unknown>, finalUrl };
}

export type RasterType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' | 'image/avif';

/**
 * A raster image's type from its first bytes (never from what the server says): PNG, JPEG, GIF, WebP,
 * AVIF. Anything else, SVG and HTML included, is null: those are the formats that can carry script.
 */
export function sniffRaster(b: Uint8Array): RasterType | null {
  const at = (i: number, ...bytes: number[]) => bytes.every((x, k) => b[i + k] === x);
  const ascii = (i: number, text: string) => at(i, ...[...text].map((c) => c.charCodeAt(0)));
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (at(0, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (ascii(0, 'GIF87a') || ascii(0, 'GIF89a')) return 'image/gif';
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return 'image/webp';
  if (ascii(4, 'ftyp') && (ascii(8, 'avif') || ascii(8, 'avis'))) return 'image/avif';
  return null;
}

/** GET one URL for a raster image (sniffed, see sniffRaster) under every rule above. */
export async function fetchPublicImage(raw: string, opts: FetchJsonOptions): Promise<{ body: Buffer; type: RasterType; finalUrl: string }> {
  const { body, finalUrl } = await fetchPublicBody(raw, opts, IMAGE_BODY);
  const type = sniffRaster(body);
  if (!type) throw new OutboundRefused('not_image', 'the body is not a PNG, JPEG, GIF, WebP or AVIF image');
  return { body, type, finalUrl };
}

type Hop = { kind: 'redirect'; location: string } | { kind: 'body'; body: Buffer };

function getOnce(u: URL, opts: FetchJsonOptions, kind: BodyKind): Promise<Hop> {
  const allowed = isAllowListed(u, opts);
  const mod = u.protocol === 'https:' ? https : http;
  return new Promise<Hop>((resolve, reject) => {
    const fail = (e: OutboundRefused) => {
      req.destroy();
      reject(e);
    };
    const req = mod.request(
      u,
      {
        method: 'GET',
        headers: { Accept: kind.accept, 'User-Agent': kind.agent },
        // Allow-listed hosts resolve normally; every other name goes through the checking lookup.
        lookup: allowed ? undefined : opts.resolve ? checkedLookup(opts.resolve) : publicLookup,
        agent: false,
        timeout: opts.timeoutMs,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if ([301, 302, 303, 307, 308].includes(status)) {
          res.resume();
          const location = res.headers.location;
          if (!location) return fail(new OutboundRefused('bad_redirect', `HTTP ${status} without Location`, status));
          return resolve({ kind: 'redirect', location }), req.destroy();
        }
        if (status < 200 || status >= 300) {
          res.resume();
          return fail(new OutboundRefused('http_status', `HTTP ${status}`, status));
        }
        const type = res.headers['content-type'];
        if (type && !kind.types.test(type)) return fail(new OutboundRefused(kind.refusal, `content type ${type.slice(0, 80)} is not ${kind === JSON_BODY ? 'JSON' : 'a raster image'}`));
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > opts.maxBytes) return fail(new OutboundRefused('too_large', `larger than ${opts.maxBytes} bytes`));
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > opts.maxBytes) return fail(new OutboundRefused('too_large', `larger than ${opts.maxBytes} bytes`));
          chunks.push(c);
        });
        res.on('error', () => fail(new OutboundRefused('network_error', 'connection lost while reading')));
        res.on('end', () => {
          if (size > opts.maxBytes) return;
          clearTimeout(deadline);
          resolve({ kind: 'body', body: Buffer.concat(chunks) });
        });
      },
    );
    // `timeout` above is per idle socket; this bounds the whole hop (a server that trickles bytes).
    const deadline = setTimeout(() => fail(new OutboundRefused('timeout', `no complete answer within ${opts.timeoutMs} ms`)), opts.timeoutMs);
    req.on('timeout', () => fail(new OutboundRefused('timeout', `no answer within ${opts.timeoutMs} ms`)));
    req.on('error', (e) => {
      clearTimeout(deadline);
      reject(e instanceof OutboundRefused ? e : new OutboundRefused('network_error', (e as NodeJS.ErrnoException).code ?? 'connection failed'));
    });
    req.on('close', () => clearTimeout(deadline));
    req.end();
  });
}
