import { describe, expect, it } from 'vitest';
import { nftPageSchema, nftQuerySchema, serializeNftPage } from '@/lib/interface/nfts';

const OWNER = '0xd8da6bf26964af9d7eed9e03e53415d37aa96045';
const TOKEN = '0x495f947276749ce646f68ac8c248420045cb7b5e';

const item = (over: Record<string, unknown> = {}) => ({
  token_address: TOKEN,
  token_id: '15',
  contract_type: 'ERC721',
  owner_of: OWNER,
  block_number: '88256',
  block_number_minted: 88256,
  token_uri: null,
  metadata: null,
  amount: '1',
  name: null,
  symbol: null,
  token_hash: 'abc',
  last_token_uri_sync: null,
  last_metadata_sync: null,
  ...over,
});

const page = (over: Record<string, unknown> = {}) => ({ status: 'SYNCED', total: '2', page: '1', page_size: '100', cursor: 'next', result: [item()], ...over });

describe('nftPageSchema', () => {
  it('accepts result as one object or as a list, always giving a list', () => {
    expect(nftPageSchema.parse(page({ result: item() })).result).toHaveLength(1);
    expect(nftPageSchema.parse(page({ result: [item(), item({ token_id: '16' })] })).result).toHaveLength(2);
    expect(nftPageSchema.parse(page({ result: [] })).result).toEqual([]);
  });

  it('reads total, page and page_size as numbers or strings; total may be null', () => {
    expect(nftPageSchema.parse(page())).toMatchObject({ total: 2, page: 1, page_size: 100 });
    expect(nftPageSchema.parse(page({ total: 1456, page: 1, page_size: 100 }))).toMatchObject({ total: 1456, page: 1 });
    expect(nftPageSchema.parse(page({ total: null })).total).toBeNull();
  });

  it.each([null, '', undefined])('cursor %j means no next page', (cursor) => {
    const raw: Record<string, unknown> = page({ cursor });
    if (cursor === undefined) delete raw.cursor;
    expect(nftPageSchema.parse(raw).cursor).toBeNull();
  });

  it.each([
    [true, true],
    ['true', true],
    [false, false],
    ['false', false],
    [null, null],
    [undefined, null],
  ])('possible_spam / verified_collection %j -> %j', (wire, internal) => {
    const p = nftPageSchema.parse(page({ result: [item({ possible_spam: wire, verified_collection: wire })] }));
    expect(p.result[0].possible_spam).toBe(internal);
    expect(p.result[0].verified_collection).toBe(internal);
  });

  it('keeps null names, labels and unknown keys', () => {
    const p = nftPageSchema.parse(page({ extra_top: 'x', result: [item({ rarity_label: null, minter_address: null, last_sale: { price: '1' } })] }));
    expect(p.extra_top).toBe('x');
    expect(p.result[0]).toMatchObject({ name: null, symbol: null, rarity_label: null, minter_address: null, last_sale: { price: '1' }, block_number_minted: '88256' });
  });

  it('keeps an attribute without a value, rather than refusing the whole listing for it', () => {
    const p = nftPageSchema.parse(page({ result: [item({ normalized_metadata: { name: 'x', attributes: [{ trait_type: 'Eyes' }, { trait_type: 'Hat', value: 'Cap' }] } })] }));
    expect(p.result[0].normalized_metadata?.attributes).toMatchObject([{ trait_type: 'Eyes' }, { trait_type: 'Hat', value: 'Cap' }]);
  });

  it('takes metadata sent as an object and keeps it as the raw JSON string', () => {
    expect(nftPageSchema.parse(page({ result: [item({ metadata: { name: 'x' } })] })).result[0].metadata).toBe('{"name":"x"}');
  });

  it('rejects an unknown status and a wrong-shaped item, naming the field', () => {
    expect(nftPageSchema.safeParse(page({ status: 'BROKEN' })).error?.issues[0].path).toEqual(['status']);
    const r = nftPageSchema.safeParse(page({ result: [item({ token_address: null })] }));
    expect(r.success).toBe(false);
  });

  it('reads a token id sent as a whole number exactly, and refuses one that is not whole instead of throwing', () => {
    expect(nftPageSchema.parse(page({ result: [item({ token_id: 2 ** 60 })] })).result[0].token_id).toBe('1152921504606846976');
    for (const token_id of [1.5, -1]) {
      const r = nftPageSchema.safeParse(page({ result: [item({ token_id })] }));
      expect(r.success).toBe(false);
      expect(r.error?.issues[0].path[0]).toBe('result');
    }
  });
});

describe('serializeNftPage', () => {
  const parsed = nftPageSchema.parse(
    page({
      cursor: null,
      total: null,
      result: item({
        possible_spam: 'true',
        verified_collection: false,
        rarity_rank: '12',
        normalized_metadata: { name: 'Mug', image: null, attributes: [{ trait_type: 'Eye', value: 3 }] },
        media: { status: 'success', media_collection: { low: { url: 'https://x/low.png', width: 100, height: 100 } } },
      }),
    }),
  );
  const wire = serializeNftPage(parsed);

  it('writes the interface shape', () => {
    expect(wire).toMatchObject({ status: 'SYNCED', total: null, page: '1', page_size: '100', cursor: '' });
    expect(Array.isArray(wire.result)).toBe(true);
    expect(wire.result[0]).toMatchObject({ possible_spam: 'true', verified_collection: 'false', rarity_rank: 12, name: null });
    expect(serializeNftPage(nftPageSchema.parse(page())).total).toBe('2');
    // Not requested -> not present.
    expect(serializeNftPage(nftPageSchema.parse(page())).result[0]).not.toHaveProperty('media');
  });

  it('round-trips: parse(serialize(parse(x))) equals parse(x)', () => {
    expect(nftPageSchema.parse(JSON.parse(JSON.stringify(wire)))).toEqual(parsed);
  });
});

describe('nftQuerySchema', () => {
  const addr = (i: number) => `0x${i.toString(16).padStart(40, '0')}`;
  const failsOn = (q: Record<string, string | string[]>) => {
    const r = nftQuerySchema.safeParse(q);
    expect(r.success, JSON.stringify(q)).toBe(false);
    return r.error!.issues[0].path[0];
  };

  it('applies defaults', () => {
    expect(nftQuerySchema.parse({})).toEqual({ format: 'decimal', exclude_spam: false, token_addresses: [], normalizeMetadata: false, media_items: false, include_prices: false });
  });

  it('reads every parameter', () => {
    const q = nftQuerySchema.parse({
      chain: '0x1',
      format: 'HEX',
      limit: '1',
      exclude_spam: 'true',
      token_addresses: TOKEN,
      cursor: 'c',
      normalizeMetadata: 'true',
      media_items: 'false',
      include_prices: 'TRUE',
    });
    expect(q).toEqual({
      chain: '0x1',
      format: 'hex',
      limit: 1,
      exclude_spam: true,
      token_addresses: ['0x495f947276749Ce646f68AC8c248420045cb7b5e'],
      cursor: 'c',
      normalizeMetadata: true,
      media_items: false,
      include_prices: true,
    });
    expect(nftQuerySchema.parse({ token_addresses: [addr(1), addr(2)] }).token_addresses).toHaveLength(2);
    expect(nftQuerySchema.parse({ token_addresses: Array.from({ length: 10 }, (_, i) => addr(i)) }).token_addresses).toHaveLength(10);
  });

  it.each([
    [{ limit: '0' }, 'limit'],
    [{ limit: '101' }, 'limit'],
    [{ format: 'octal' }, 'format'],
    [{ exclude_spam: 'nope' }, 'exclude_spam'],
    [{ normalizeMetadata: 'yes' }, 'normalizeMetadata'],
    [{ media_items: '2' }, 'media_items'],
    [{ token_addresses: '0x1234' }, 'token_addresses'],
    [{ token_addresses: [TOKEN, 'nope'] }, 'token_addresses'],
    [{ token_addresses: Array.from({ length: 11 }, (_, i) => addr(i)) }, 'token_addresses'],
    [{ cursor: 'x'.repeat(2049) }, 'cursor'],
    [{ chain: ['eth', 'bsc'] }, 'chain'],
  ])('%j is an error on %s', (q, name) => {
    expect(failsOn(q)).toBe(name);
  });
});
