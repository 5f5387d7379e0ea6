/**
 * EIP-4361 (Sign-In with Ethereum) field rules, checked before a challenge is made so a bad field is a
 * 400 naming it, never a message a wallet shows differently from what it signs.
 *
 * - statement: one line of text. Line breaks of any kind (\n, \r, U+0085, U+2028, U+2029) would let
 *   it forge the lines after it; bidirectional controls would let it show one text and sign another;
 *   other control characters and lone surrogates have no business in a sentence shown to a person.
 * - domain: an RFC 3986 authority, in the form EIP-4361 tooling (viem's createSiweMessage) makes
 *   messages for: a DNS name, an IPv4 address or localhost, with an optional port.
 * - uri and resources: RFC 3986 URIs (ASCII only, well-formed %-escapes, a scheme).
 */

const LINE_BREAK = /[\n\r\u0085\u2028\u2029]/u;
const BIDI_CONTROL = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;
const CONTROL = /[\p{Cc}\p{Cs}]/u;

/** Why a statement is refused, or undefined when it is fine. */
export function statementProblem(s: string): string | undefined {
  if (LINE_BREAK.test(s)) return 'statement must be a single line (no \\n, \\r, U+0085, U+2028 or U+2029)';
  if (BIDI_CONTROL.test(s)) return 'statement must not contain bidirectional control characters (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C)';
  if (CONTROL.test(s)) return 'statement must not contain control characters';
  return undefined;
}

const DNS_NAME = /^([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,63}$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** host[:port] where host is a DNS name, an IPv4 address or localhost and port is 0..65535. */
export function isSiweDomain(s: string): boolean {
  const m = /^([^:]+)(?::(\d{1,5}))?$/.exec(s);
  if (!m) return false;
  const [, host, port] = m;
  if (port !== undefined && Number(port) > 65535) return false;
  return host.length <= 253 && (DNS_NAME.test(host) || IPV4.test(host) || host.toLowerCase() === 'localhost');
}

// RFC 3986 section 2: the only characters a URI may hold (unreserved, reserved and '%').
const URI_CHARS = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]*$/;
const BAD_ESCAPE = /%(?![0-9A-Fa-f]{2})/;
// Appendix B's split, with the scheme required (an absolute URI).
const URI_PARTS = /^([A-Za-z][A-Za-z0-9+.-]*):(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/;
// authority = [ userinfo "@" ] host [ ":" port ]; host = IP-literal / reg-name (IPv4 is a reg-name here).
const AUTHORITY = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:%]*@)?(?:\[[0-9A-Fa-f:.vV]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]*)(?::\d*)?$/;

/** An absolute RFC 3986 URI. */
export function isRfc3986Uri(s: string): boolean {
  if (!URI_CHARS.test(s) || BAD_ESCAPE.test(s)) return false;
  const m = URI_PARTS.exec(s);
  if (!m) return false;
  const [, , authority, path, query = '', fragment = ''] = m;
  // '[' and ']' only delimit an IP literal in the authority; '#' only starts the fragment.
  if (/[[\]]/.test(path + query + fragment) || fragment.includes('#')) return false;
  if (authority !== undefined) return AUTHORITY.test(authority) && (path === '' || path.startsWith('/'));
  return !path.startsWith('//');
}
