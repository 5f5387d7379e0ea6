import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startLantern, type LanternInstance } from '../support/lantern';

/**
 * Hostile input across the published API: every request below is malformed by construction (bad
 * path parameter, bad query value, bad body, wrong method or content type, unknown path). Each must
 * get a 4xx with a JSON body — never a 5xx — and the instance must stay healthy throughout.
 */
let lantern: LanternInstance;

beforeAll(async () => {
  lantern = await startLantern({ DEVNET_EVM_PORT: String(inject('evmPort')), DEVNET_LEDGER_PORT: String(inject('ledgerPort')) });
});
afterAll(() => lantern?.stop());

// Deterministic PRNG so a failure reproduces.
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = rng(20261121);
const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
const GOOD = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';

const badAddresses = ['0x', '0x123', 'vitalik', GOOD + '00', GOOD.slice(0, -1) + 'g', '%00', '%ZZ', '..%2F..%2Fetc', '0x' + 'f'.repeat(400), '%F0%9F%92%A9', ' ', '0X' + GOOD.slice(2) + 'z'];
const badValues = ['-1', '1e309', 'NaN', '0x10', '1.5', '', '%00', '%ZZ', "'; DROP TABLE x; --", 'true', '9'.repeat(40), '%E2%80%AE', 'a'.repeat(3000)];
const historyParams = ['chain', 'from_block', 'to_block', 'from_date', 'to_date', 'include_internal_transactions', 'nft_metadata', 'cursor', 'order', 'limit'];
const nftParams = ['chain', 'format', 'limit', 'exclude_spam', 'token_addresses', 'cursor', 'normalizeMetadata', 'media_items'];
// Values that are invalid for the given parameter whatever else is sent.
const invalidFor: Record<string, string[]> = {
  chain: ['dogecoin', '0x0', 'eth%00', '1'],
  from_block: ['-1', 'x', '1.5', '99999999999999999999'],
  to_block: ['-5', 'abc'],
  from_date: ['not-a-date', '2026-13-45'],
  to_date: ['yesterday', '31/12/2026'],
  include_internal_transactions: ['maybe', '2', 'yes please'],
  nft_metadata: ['perhaps'],
  cursor: ['a'.repeat(3000), 'forged-cursor-value', '%ZZ'],
  order: ['sideways', 'up'],
  limit: ['0', '101', '-3', 'ten', '1e3'],
  format: ['octal', 'base64'],
  exclude_spam: ['sometimes'],
  token_addresses: ['0x123', 'not-an-address'],
  normalizeMetadata: ['kinda'],
  media_items: ['2'],
};

interface Case {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

function query(params: string[], mustBreak: string): string {
  const parts = [`${mustBreak}=${encodeURIComponent(pick(invalidFor[mustBreak] ?? ['x']))}`];
  for (let i = 0; i < Math.floor(rand() * 4); i++) parts.push(`${pick(params)}=${pick(badValues)}`);
  return parts.sort(() => rand() - 0.5).join('&');
}

function randomJson(depth = 0): unknown {
  const r = rand();
  if (depth > 3 || r < 0.3) return pick([null, true, 0, -1, 1e308, 'x', '\u0000', '0x', 'a'.repeat(100)]);
  if (r < 0.6) return Array.from({ length: Math.floor(rand() * 4) }, () => randomJson(depth + 1));
  return Object.fromEntries(Array.from({ length: Math.floor(rand() * 4) }, () => [pick(['message', 'signature', 'domain', 'address', 'chainId', 'timeout', 'uri', '__proto__', 'constructor']), randomJson(depth + 1)]));
}

function generate(n: number): Case[] {
  const cases: Case[] = [];
  const json = { 'Content-Type': 'application/json' };
  while (cases.length < n) {
    switch (Math.floor(rand() * 10)) {
      case 0:
        cases.push({ method: 'GET', path: `/api/v2.2/wallets/${pick(badAddresses)}/history?${query(historyParams, pick(historyParams))}` });
        break;
      case 1:
        cases.push({ method: 'GET', path: `/api/v2.2/wallets/${GOOD}/history?${query(historyParams, pick(Object.keys(invalidFor).filter((k) => historyParams.includes(k) && k !== 'cursor')))}` });
        break;
      case 2:
        cases.push({ method: 'GET', path: `/api/v2.2/${pick([GOOD, ...badAddresses])}/nft?${query(nftParams, pick(Object.keys(invalidFor).filter((k) => nftParams.includes(k) && k !== 'cursor')))}` });
        break;
      case 3:
        cases.push({
          method: 'GET',
          path: `/api/ledger/${pick(['mainnet', 'testnet', 'local', 'devnet', 'MAINNET', '%00', '..'])}/blocks/by_version/${pick(['-1', '1.5', '18446744073709551616', 'abc', '0x10', '%20', '1e5', '99999999999999999999999'])}`,
        });
        break;
      case 4:
        cases.push({ method: 'POST', path: pick(['/api/auth/challenge/request/evm', '/api/auth/challenge/verify/evm']), headers: json, body: JSON.stringify(randomJson()) });
        break;
      case 5: {
        // Bodies up to 1 MB: some over the 64 KB limit, some truncated JSON.
        const size = pick([10, 1000, 65 * 1024, 300 * 1024, 1024 * 1024]);
        const body = size > 64 * 1024 ? '{"message":"' + 'x'.repeat(size) + '"}' : '{"message": "' + 'y'.repeat(size);
        cases.push({ method: 'POST', path: '/api/auth/challenge/verify/evm', headers: json, body });
        break;
      }
      case 6:
        cases.push({
          method: 'POST',
          path: pick(['/api/auth/challenge/request/evm', '/api/auth/challenge/verify/evm']),
          headers: { 'Content-Type': pick(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', '']) },
          body: 'message=hi&signature=0x00',
        });
        break;
      case 7:
        cases.push({
          method: pick(['PUT', 'PATCH', 'DELETE']),
          path: pick([`/api/v2.2/wallets/${GOOD}/history`, `/api/v2.2/${GOOD}/nft`, '/api/ledger/local/blocks/by_version/10', '/api/auth/challenge/verify/evm']),
          headers: json,
          body: '{}',
        });
        break;
      case 8:
        cases.push({ method: pick(['GET', 'DELETE']), path: pick(['/api/auth/challenge/request/evm', '/api/auth/challenge/verify/evm']) });
        break;
      default:
        cases.push({ method: pick(['GET', 'POST']), path: pick(['/api/v3/wallets', '/api//v2.2//x', '/api/v2.2/wallets', '/api/v2.2/%2e%2e/nft', '/api/v2.2/wallets/x/y/z', '/api/ledger', '/api/' + 'z'.repeat(2000)]) });
    }
  }
  return cases;
}

describe('fuzzing the published API', () => {
  it('answers 2,000+ malformed requests with JSON 4xx and stays healthy', async () => {
    const cases = generate(2100);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    for (let i = 0; i < cases.length; i += 8) {
      await Promise.all(
        cases.slice(i, i + 8).map(async (c) => {
          const res = await fetch(lantern.url + c.path, { method: c.method, headers: c.headers, body: c.body });
          const text = await res.text();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          let isJson = false;
          try {
            JSON.parse(text);
            isJson = (res.headers.get('content-type') ?? '').includes('application/json');
          } catch {
            // not JSON
          }
          if (res.status < 400 || res.status >= 500 || !isJson) {
            failures.push(`${c.method} ${c.path.slice(0, 120)} -> ${res.status} ${text.slice(0, 120)}`);
          }
        }),
      );
      if (i % 400 === 0) expect((await fetch(`${lantern.url}/api/health`)).status).toBe(200);
    }
    expect(failures.slice(0, 15)).toEqual([]);
    expect([...statuses.keys()].every((s) => s >= 400 && s < 500)).toBe(true);
    expect((await fetch(`${lantern.url}/api/health`)).status).toBe(200);
    expect(lantern.output()).not.toMatch(/unhandledRejection|Unhandled/i);
  });
});
