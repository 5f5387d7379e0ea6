import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { createSiweMessage } from 'viem/siwe';
import { challengeRequestBodySchema } from '@/lib/interface/auth';

/**
 * EIP-4361 fields of the challenge request, against hostile strings: every refusal names the field,
 * and whatever the schema accepts, viem's EIP-4361 message builder (code we did not write) accepts
 * too and lays out as exactly the lines EIP-4361 defines, so no field can forge another line.
 */

const ADDRESS = '0xAb5801a7D398351b8bE11C439e05C5B3259aeC9B';
const body = (over: Record<string, unknown> = {}) => ({ domain: 'lantern.test', chainId: 1, address: ADDRESS, uri: 'https://lantern.test/', timeout: 60, ...over });

/** The fields viem's builder takes, from a parsed body. */
const siwe = (b: ReturnType<typeof challengeRequestBodySchema.parse>) =>
  createSiweMessage({ domain: b.domain, address: b.address, uri: b.uri, chainId: b.chainId, statement: b.statement, resources: b.resources, version: '1', nonce: 'abcdefgh1234', issuedAt: new Date(0) });

function refusedOn(over: Record<string, unknown>) {
  const r = challengeRequestBodySchema.safeParse(body(over));
  if (r.success) return undefined;
  return r.error.issues[0].path[0];
}

const LINE_BREAKS = ['\n', '\r', '\r\n', '\u0085', '\u2028', '\u2029', '\u000b', '\u000c'];
const BIDI = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c'];
const CONTROL = [...Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)), '\u007f', ...Array.from({ length: 32 }, (_, i) => String.fromCharCode(0x80 + i))];
const LONE_SURROGATES = ['\ud800', '\udfff'];
const hostileChar = fc.constantFrom(...LINE_BREAKS, ...BIDI, ...CONTROL, ...LONE_SURROGATES);

/** `text` with `bad` put in at a position chosen by the generator. */
const withInserted = (text: fc.Arbitrary<string>, bad: fc.Arbitrary<string>) =>
  fc.tuple(text, bad, fc.nat()).map(([t, b, i]) => {
    const at = i % (t.length + 1);
    return t.slice(0, at) + b + t.slice(at);
  });

const plainText = fc.string({ unit: fc.constantFrom(...'abcXYZ019 .,:;!?-_\'"()[]{}<>@#$%&*+=/\\|~^`é中😀'.split(/(?:)/u)), maxLength: 80 });

describe('statement', () => {
  test.prop([withInserted(plainText, hostileChar)], { numRuns: 500 })('any line break, bidi control, control character or lone surrogate is a 400 on statement', (statement) => {
    expect(refusedOn({ statement })).toBe('statement');
  });

  it.each([
    ['\u2028', /single line/],
    ['\u0085', /single line/],
    ['\r', /single line/],
    ['\u202e', /bidirectional control/],
    ['\u2066', /bidirectional control/],
    ['\t', /control characters/],
    ['\u0000', /control characters/],
  ])('%j says what is wrong', (bad, message) => {
    const r = challengeRequestBodySchema.safeParse(body({ statement: `Sign in${bad}now` }));
    expect(r.error!.issues[0].message).toMatch(message);
  });

  test.prop([plainText], { numRuns: 300 })('plain text, Unicode and emoji included, is accepted and stays one line of the message', (statement) => {
    const parsed = challengeRequestBodySchema.parse(body({ statement: statement || undefined }));
    const message = siwe(parsed);
    const lines = message.split(/\r\n|[\n\r\u0085\u2028\u2029]/);
    // header, address, blank, [statement,] blank, URI, Version, Chain ID, Nonce, Issued At
    expect(lines).toHaveLength(statement ? 10 : 9);
    if (statement) expect(lines[3]).toBe(statement);
  });
});

const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?$/);
const dnsName = fc.tuple(fc.array(label, { minLength: 1, maxLength: 3 }), fc.stringMatching(/^[a-z]{2,6}$/)).map(([ls, tld]) => [...ls, tld].join('.'));
const port = fc.option(fc.integer({ min: 0, max: 65535 }), { nil: undefined });
const domain = fc
  .tuple(fc.oneof(dnsName, fc.ipV4(), fc.constant('localhost')), port)
  .map(([host, p]) => (p === undefined ? host : `${host}:${p}`));
// Characters no RFC 3986 authority or URI may hold raw.
const notUriChar = fc.constantFrom(' ', '\t', '\n', '\u2028', '\u0085', '\u202e', '\u200f', '\u0000', '\u007f', 'é', '中', '"', '<', '>', '\\', '^', '`', '{', '|', '}');

describe('domain', () => {
  test.prop([domain], { numRuns: 300 })('a host (DNS name, IPv4, localhost) with an optional port is accepted, and viem builds a message for it', (d) => {
    const parsed = challengeRequestBodySchema.parse(body({ domain: d, uri: `https://${d}/` }));
    expect(() => siwe(parsed)).not.toThrow();
  });

  test.prop([withInserted(domain, fc.oneof(notUriChar, fc.constantFrom('/', '?', '#', '@')))], { numRuns: 500 })('whitespace, controls, Unicode, a path, query, fragment or user info: 400 on domain', (d) => {
    expect(refusedOn({ domain: d })).toBe('domain');
  });

  it.each(['https://lantern.test', 'lantern.test:99999', 'lantern.test:', ' lantern.test', 'lantern.test\n', 'user@lantern.test', '[::1]:3000', '-a.test', 'a..test'])('%j is a 400 on domain', (d) => {
    expect(refusedOn({ domain: d })).toBe('domain');
  });
});

describe('uri and resources', () => {
  const webUrl = fc.webUrl({ withQueryParameters: true, withFragments: true });

  test.prop([webUrl], { numRuns: 300 })('RFC 3986 URLs are accepted as resources, and viem builds a message with them', (u) => {
    const parsed = challengeRequestBodySchema.parse(body({ resources: [u] }));
    expect(() => siwe(parsed)).not.toThrow();
  });

  test.prop([withInserted(webUrl, notUriChar)], { numRuns: 500 })('a URI with whitespace, a control, bidi or raw Unicode character: 400 naming uri or resources', (u) => {
    expect(refusedOn({ uri: u })).toBe('uri');
    expect(refusedOn({ resources: ['https://lantern.test/ok', u] })).toBe('resources');
  });

  it.each(['https://lantern.test/%zz', 'https://lantern.test/%4', 'https://lantern.test/a#b#c', 'https://lantern.test/[x]', 'lantern.test/no-scheme', '1http://lantern.test/', ''])('%j is a 400 on uri', (u) => {
    expect(refusedOn({ uri: u })).toBe('uri');
  });
});
