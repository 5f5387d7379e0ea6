import { describe, expect, it } from 'vitest';
import {
  challengeRequestBodySchema,
  challengeResponseSchema,
  serializeChallengeResponse,
  serializeVerifyResponse,
  verifyBodySchema,
  verifyResponseSchema,
} from '@/lib/interface/auth';
import { addressSchema, chainIdSchema } from '@/lib/interface/common';

const ADDRESS = '0xAb5801a7D398351b8bE11C439e05C5B3259aeC9B';
const body = (over: Record<string, unknown> = {}) => ({ domain: 'lantern.test', chainId: 1, address: ADDRESS, uri: 'https://lantern.test/', timeout: 60, ...over });
const failsOn = (schema: { safeParse: (v: unknown) => { success: boolean; error?: { issues: { path: PropertyKey[] }[] } } }, v: unknown) => {
  const r = schema.safeParse(v);
  expect(r.success, JSON.stringify(v)).toBe(false);
  return r.error!.issues[0].path[0];
};

describe('common pieces', () => {
  it('addressSchema checksums any letter case', () => {
    expect(addressSchema.parse(ADDRESS.toLowerCase())).toBe(ADDRESS);
    expect(addressSchema.parse(ADDRESS.toUpperCase().replace('0X', '0x'))).toBe(ADDRESS);
    expect(addressSchema.safeParse('0x123').success).toBe(false);
    expect(addressSchema.safeParse(`${ADDRESS}00`).success).toBe(false);
  });

  it.each([
    [1, 1],
    ['1', 1],
    ['0x1', 1],
    ['0xe708', 59144],
    ['59141', 59141],
  ])('chainId %j -> %j', (wire, id) => {
    expect(chainIdSchema.parse(wire)).toBe(id);
  });

  it.each([0, -1, 1.5, 'eth', '', '0x'])('chainId %j is rejected', (wire) => {
    expect(chainIdSchema.safeParse(wire).success).toBe(false);
  });
});

describe('challengeRequestBodySchema', () => {
  it('accepts a minimal and a full body', () => {
    expect(challengeRequestBodySchema.parse(body({ chainId: '0x1', address: ADDRESS.toLowerCase() }))).toEqual(body());
    const full = body({ statement: 'Sign in to Lantern', expirationTime: '2030-01-01T00:00:00.000Z', notBefore: '2029-01-01T00:00:00Z', resources: ['https://lantern.test/a'] });
    expect(challengeRequestBodySchema.parse(full)).toEqual(full);
  });

  it.each([
    [{ timeout: 14 }, 'timeout'],
    [{ timeout: 121 }, 'timeout'],
    [{ timeout: 30.5 }, 'timeout'],
    [{ timeout: undefined }, 'timeout'],
    [{ domain: 'https://lantern.test/' }, 'domain'],
    [{ domain: '' }, 'domain'],
    [{ chainId: 'eth' }, 'chainId'],
    [{ address: '0xnope' }, 'address'],
    [{ uri: 'not a uri' }, 'uri'],
    [{ statement: 'line one\nURI: https://evil.test' }, 'statement'],
    [{ expirationTime: 'tomorrow' }, 'expirationTime'],
    [{ notBefore: '2030-01-01' }, 'notBefore'],
    [{ resources: ['nope'] }, 'resources'],
    [{ notBefore: '2031-01-01T00:00:00Z', expirationTime: '2030-01-01T00:00:00Z' }, 'expirationTime'],
  ])('%j is an error on %s', (over, name) => {
    expect(failsOn(challengeRequestBodySchema, body(over))).toBe(name);
  });
});

describe('challenge response', () => {
  it('requires id, message and profileId and serialises exactly those', () => {
    const r = challengeResponseSchema.parse({ id: 'a', message: 'm', profileId: '0x1', extra: 1 });
    expect(serializeChallengeResponse(r)).toEqual({ id: 'a', message: 'm', profileId: '0x1' });
    expect(failsOn(challengeResponseSchema, { id: 'a', message: 'm' })).toBe('profileId');
  });
});

describe('verifyBodySchema', () => {
  it('accepts a message and a hex signature', () => {
    expect(verifyBodySchema.parse({ message: 'hi', signature: `0x${'ab'.repeat(65)}` }).signature).toHaveLength(132);
  });

  it.each([
    [{ message: '', signature: '0xabcd' }, 'message'],
    [{ message: 'x'.repeat(8 * 1024 + 1), signature: '0xabcd' }, 'message'],
    [{ message: 'é'.repeat(4 * 1024 + 1), signature: '0xabcd' }, 'message'], // over 8 KB in UTF-8
    [{ message: 'hi', signature: 'abcd' }, 'signature'],
    [{ message: 'hi', signature: '0xabc' }, 'signature'],
    [{ message: 'hi', signature: '0xzz' }, 'signature'],
    [{ message: 'hi' }, 'signature'],
  ])('%# is an error on %s', (b, name) => {
    expect(failsOn(verifyBodySchema, b)).toBe(name);
  });
});

describe('verifyResponseSchema', () => {
  const record = {
    id: 'fRyt67D3eRss3RrX',
    domain: 'defi.finance',
    chainId: '0x1',
    address: ADDRESS.toLowerCase(),
    uri: 'https://defi.finance/',
    version: '1',
    nonce: 'abc',
    profileId: '0xbf',
  };

  it('normalises chainId to a number, address to checksum, absent optionals to null', () => {
    const r = verifyResponseSchema.parse(record);
    expect(r).toMatchObject({ chainId: 1, address: ADDRESS, statement: null, expirationTime: null, notBefore: null, resources: [] });
    expect(verifyResponseSchema.parse({ ...record, statement: null, expirationTime: null }).statement).toBeNull();
  });

  it('serialises chainId as a number and leaves out optionals the message did not carry; round-trips', () => {
    const r = verifyResponseSchema.parse(record);
    const wire = serializeVerifyResponse(r);
    expect(wire.chainId).toBe(1);
    expect(wire).not.toHaveProperty('statement');
    expect(wire).not.toHaveProperty('expirationTime');
    expect(verifyResponseSchema.parse(wire)).toEqual(r);
    const full = verifyResponseSchema.parse({ ...record, statement: 's', expirationTime: '2030-01-01T00:00:00.000Z', notBefore: '2029-01-01T00:00:00.000Z' });
    expect(serializeVerifyResponse(full)).toMatchObject({ statement: 's', expirationTime: '2030-01-01T00:00:00.000Z' });
    expect(verifyResponseSchema.parse(serializeVerifyResponse(full))).toEqual(full);
  });
});
