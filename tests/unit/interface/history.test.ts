import fc from 'fast-check';
import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { MAX_HISTORY_TOKEN_FILTER, historyPageSchema, historyQuerySchema, resolveHistoryRange, serializeHistoryPage } from '@/lib/interface/history';

const A = '0x267be1c1d684f78cb4f6a176c4911b741e4ffdc0';
const B = '0x003dde3494f30d861d063232c6a8c04394b686ff';
const TOKEN = '0xdac17f958d2ee523a2206206994597c13d831ec7';

const erc20 = (over: Record<string, unknown> = {}) => ({
  token_name: 'Tether USD',
  token_symbol: 'USDT',
  token_logo: null,
  token_decimals: '6',
  transaction_hash: '0xaa',
  address: TOKEN,
  block_number: '100',
  from_address: A,
  to_address: B,
  value: '1000',
  transaction_index: 3,
  log_index: 7,
  possible_spam: false,
  verified_contract: 'true',
  ...over,
});

const tx = (over: Record<string, unknown> = {}) => ({
  hash: '0xaa',
  nonce: '1',
  transaction_index: '3',
  from_address: A,
  from_address_label: null,
  from_address_entity: null,
  from_address_entity_logo: null,
  to_address: B,
  to_address_label: 'Binance 2',
  to_address_entity: null,
  to_address_entity_logo: null,
  value: '0',
  gas: 21000,
  gas_price: '1',
  receipt_cumulative_gas_used: '21000',
  receipt_gas_used: '21000',
  receipt_contract_address: null,
  receipt_status: '1',
  block_timestamp: '2024-01-01T00:00:00.000Z',
  block_number: 100,
  block_hash: '0xbb',
  nft_transfers: [],
  native_transfers: [],
  ...over,
});

const page = (over: Record<string, unknown> = {}) => ({ page: '0', page_size: '100', cursor: 'abc', result: [tx()], ...over });

describe('historyPageSchema', () => {
  it('turns page numbers and big numbers sent as numbers into the internal shape', () => {
    const p = historyPageSchema.parse(page({ page: 2, page_size: 25 }));
    expect(p.page).toBe(2);
    expect(p.page_size).toBe(25);
    expect(p.result[0].gas).toBe('21000');
    expect(p.result[0].block_number).toBe('100');
    expect(historyPageSchema.parse(page()).page_size).toBe(100);
  });

  it.each([
    ['null', null],
    ['empty', ''],
    ['absent', undefined],
  ])('cursor %s means no next page', (_, cursor) => {
    const raw: Record<string, unknown> = page({ cursor });
    if (cursor === undefined) delete raw.cursor;
    expect(historyPageSchema.parse(raw).cursor).toBeNull();
  });

  it.each([
    'from_address_label',
    'from_address_entity',
    'from_address_entity_logo',
    'to_address_label',
    'to_address_entity',
    'to_address_entity_logo',
  ])('%s may be null, empty or absent and is then null', (key) => {
    expect(historyPageSchema.parse(page({ result: [tx({ [key]: null })] })).result[0][key]).toBeNull();
    expect(historyPageSchema.parse(page({ result: [tx({ [key]: '' })] })).result[0][key]).toBeNull();
    const t: Record<string, unknown> = tx();
    delete t[key];
    expect(historyPageSchema.parse(page({ result: [t] })).result[0][key]).toBeNull();
    expect(historyPageSchema.parse(page({ result: [tx({ [key]: 'Opensea' })] })).result[0][key]).toBe('Opensea');
  });

  it('accepts a null to_address (contract creation) and null optional numbers', () => {
    const p = historyPageSchema.parse(page({ result: [tx({ to_address: null, gas: null, nonce: null })] }));
    expect(p.result[0]).toMatchObject({ to_address: null, gas: null, nonce: null });
  });

  it.each([
    [true, true],
    [false, false],
    ['true', true],
    ['false', false],
    ['TRUE', true],
    [null, null],
  ])('possible_spam / verified_contract %j -> %j', (wire, internal) => {
    const p = historyPageSchema.parse(page({ result: [tx({ erc20_transfers: [erc20({ possible_spam: wire, verified_contract: wire })] })] }));
    expect(p.result[0].erc20_transfer[0].possible_spam).toBe(internal);
    expect(p.result[0].erc20_transfer[0].verified_contract).toBe(internal);
  });

  it('rejects a boolean it cannot read, naming the field', () => {
    const r = historyPageSchema.safeParse(page({ result: [tx({ possible_spam: 'maybe' })] }));
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].path).toEqual(['result', 0, 'possible_spam']);
  });

  it.each([
    ['send', 'send'],
    ['receive', 'receive'],
    ['outgoing', 'send'],
    ['incoming', 'receive'],
  ])('direction %s -> %s on native, NFT and ERC-20 transfers', (wire, internal) => {
    const p = historyPageSchema.parse(
      page({
        result: [
          tx({
            native_transfers: [{ from_address: A, to_address: B, value: '1', value_formatted: '0.000000000000000001', direction: wire, internal_transaction: 'false', token_symbol: 'ETH', token_logo: null }],
            nft_transfers: [{ token_address: TOKEN, token_id: '1', from_address: A, to_address: B, log_index: '4', direction: wire, possible_spam: 'false', verified_collection: null }],
            erc20_transfers: [erc20({ direction: wire })],
          }),
        ],
      }),
    );
    const t = p.result[0];
    expect(t.native_transfers[0].direction).toBe(internal);
    expect(t.nft_transfers[0].direction).toBe(internal);
    expect(t.erc20_transfer[0].direction).toBe(internal);
    expect(t.native_transfers[0].internal_transaction).toBe(false);
    expect(t.nft_transfers[0].log_index).toBe(4);
  });

  it('rejects an unknown direction', () => {
    const r = historyPageSchema.safeParse(page({ result: [tx({ native_transfers: [{ from_address: A, value: '1', direction: 'sideways' }] })] }));
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].path).toEqual(['result', 0, 'native_transfers', 0, 'direction']);
  });

  it('merges erc20_transfer and erc20_transfers into one erc20_transfer list', () => {
    const one = erc20({ log_index: 1 });
    const two = erc20({ log_index: 2 });
    expect(historyPageSchema.parse(page({ result: [tx({ erc20_transfer: [one] })] })).result[0].erc20_transfer).toHaveLength(1);
    expect(historyPageSchema.parse(page({ result: [tx({ erc20_transfers: [one] })] })).result[0].erc20_transfer).toHaveLength(1);
    const both = historyPageSchema.parse(page({ result: [tx({ erc20_transfer: [one], erc20_transfers: [one, two] })] })).result[0];
    expect(both.erc20_transfer.map((t) => t.log_index)).toEqual([1, 2]);
    expect(both).not.toHaveProperty('erc20_transfers');
    expect(historyPageSchema.parse(page()).result[0].erc20_transfer).toEqual([]);
  });

  it('takes the same list sent twice (as Lantern sends it) once, and lists of one length but other entries as their union', () => {
    const one = erc20({ log_index: 1 });
    const two = erc20({ log_index: 2 });
    const three = erc20({ log_index: 3 });
    const same = historyPageSchema.parse(page({ result: [tx({ erc20_transfer: [one, two], erc20_transfers: [one, two] })] })).result[0];
    expect(same.erc20_transfer.map((t) => t.log_index)).toEqual([1, 2]);
    const other = historyPageSchema.parse(page({ result: [tx({ erc20_transfer: [one, two], erc20_transfers: [two, three] })] })).result[0];
    expect(other.erc20_transfer.map((t) => t.log_index)).toEqual([1, 2, 3]);
    const reordered = historyPageSchema.parse(page({ result: [tx({ erc20_transfer: [one, two], erc20_transfers: [two, one] })] })).result[0];
    expect(reordered.erc20_transfer.map((t) => t.log_index)).toEqual([1, 2]);
  });

  it('keeps extra fields it does not know', () => {
    const p = historyPageSchema.parse(
      page({
        surprise: 1,
        result: [tx({ category: 'token send', summary: 'Sent 1 USDT', method_label: 'transfer', transaction_fee: '0.0001', brand_new: { x: 1 }, erc20_transfers: [erc20({ extra: 'kept' })] })],
      }),
    );
    expect(p.surprise).toBe(1);
    expect(p.result[0]).toMatchObject({ category: 'token send', summary: 'Sent 1 USDT', method_label: 'transfer', transaction_fee: '0.0001', brand_new: { x: 1 } });
    expect(p.result[0].erc20_transfer[0].extra).toBe('kept');
  });

  it('leaves internal_transactions absent unless sent', () => {
    expect(historyPageSchema.parse(page()).result[0].internal_transactions).toBeUndefined();
    const withInternal = historyPageSchema.parse(
      page({ result: [tx({ internal_transactions: [{ transaction_hash: '0xaa', block_number: 100, from: A, to: B, value: '5', gas: '1', gas_used: '1', input: '0x', output: '0x', type: 'CALL', block_hash: '0xbb' }] })] }),
    );
    expect(withInternal.result[0].internal_transactions?.[0]).toMatchObject({ block_number: '100', type: 'CALL' });
  });

  it('rejects a wrong-shaped page, naming the field', () => {
    const r = historyPageSchema.safeParse(page({ result: [tx({ hash: 5 })] }));
    expect(r.error?.issues[0].path).toEqual(['result', 0, 'hash']);
    expect(historyPageSchema.safeParse(page({ page: 'two' })).error?.issues[0].path).toEqual(['page']);
    expect(historyPageSchema.safeParse(page({ result: [tx({ value: '1.5' })] })).success).toBe(false);
  });
});

describe('serializeHistoryPage', () => {
  const parsed = historyPageSchema.parse(
    page({
      page: 3,
      cursor: null,
      result: [
        tx({
          possible_spam: false,
          category: 'send',
          erc20_transfers: [erc20()],
          native_transfers: [{ from_address: A, to_address: B, value: '1', direction: 'incoming', internal_transaction: true }],
          nft_transfers: [{ token_address: TOKEN, token_id: 9, possible_spam: true, verified_collection: 'false', log_index: 1, transaction_index: '2' }],
        }),
      ],
    }),
  );
  const wire = serializeHistoryPage(parsed);

  it('writes the interface shape: strings for page numbers and booleans, "" for no cursor', () => {
    expect(wire).toMatchObject({ page: '3', page_size: '100', cursor: '' });
    const t = wire.result[0];
    expect(t.possible_spam).toBe('false');
    expect(t.category).toBe('send');
    expect(t.from_address_label).toBeNull();
    expect(t.erc20_transfer).toEqual(t.erc20_transfers);
    expect(t.erc20_transfer[0]).toMatchObject({ possible_spam: 'false', verified_contract: 'true', log_index: 7, transaction_index: 3, token_logo: null });
    expect(t.native_transfers[0]).toMatchObject({ direction: 'receive', internal_transaction: 'true' });
    expect(t.nft_transfers[0]).toMatchObject({ possible_spam: 'true', verified_collection: 'false', token_id: '9', log_index: 1, transaction_index: 2 });
    expect(t).not.toHaveProperty('internal_transactions');
  });

  it('round-trips: parse(serialize(parse(x))) equals parse(x)', () => {
    expect(historyPageSchema.parse(JSON.parse(JSON.stringify(wire)))).toEqual(parsed);
  });
});

describe('historyQuerySchema', () => {
  const ok = (q: Record<string, string | string[]>) => historyQuerySchema.parse(q);
  const failsOn = (q: Record<string, string | string[]>) => {
    const r = historyQuerySchema.safeParse(q);
    expect(r.success, JSON.stringify(q)).toBe(false);
    return r.error!.issues[0].path[0];
  };

  it('applies defaults', () => {
    expect(ok({})).toEqual({ include_internal_transactions: false, nft_metadata: false, order: 'DESC', token_addresses: [] });
  });

  it('reads numbers, dates, booleans, order and cursor from strings', () => {
    const q = ok({
      chain: 'eth',
      from_block: '10',
      to_block: '20',
      from_date: '1700000000',
      to_date: '2024-01-31',
      include_internal_transactions: 'true',
      nft_metadata: 'FALSE',
      cursor: 'c',
      order: 'asc',
      limit: '100',
    });
    expect(q).toMatchObject({ chain: 'eth', from_block: 10, to_block: 20, include_internal_transactions: true, nft_metadata: false, cursor: 'c', order: 'ASC', limit: 100 });
    expect(q.from_date?.toISOString()).toBe('2023-11-14T22:13:20.000Z');
    expect(q.to_date?.toISOString()).toBe('2024-01-31T00:00:00.000Z');
    expect(ok({ to_date: '2024-01-31T12:00:00Z' }).to_date?.toISOString()).toBe('2024-01-31T12:00:00.000Z');
  });

  it('treats blank values as absent', () => {
    expect(ok({ cursor: '', limit: '', chain: '' })).toEqual(ok({}));
  });

  it.each([
    [{ limit: '0' }, 'limit'],
    [{ limit: '1000' }, 'limit'],
    [{ limit: '10.5' }, 'limit'],
    [{ limit: 'ten' }, 'limit'],
    [{ from_block: '-1' }, 'from_block'],
    [{ to_block: 'latest' }, 'to_block'],
    [{ from_date: 'not a date' }, 'from_date'],
    [{ to_date: '2024-13-45' }, 'to_date'],
    [{ order: 'up' }, 'order'],
    [{ include_internal_transactions: 'yes' }, 'include_internal_transactions'],
    [{ nft_metadata: '1' }, 'nft_metadata'],
    [{ cursor: 'x'.repeat(2049) }, 'cursor'],
    [{ limit: ['1', '2'] }, 'limit'],
    [{ from_block: '20', to_block: '10' }, 'from_block'],
    [{ from_date: '2024-02-01', to_date: '2024-01-01' }, 'from_date'],
    [{ token_addresses: '0x1234' }, 'token_addresses'],
    [{ token_addresses: ['0x5FbDB2315678afecb367f032d93F642f64180aa3', 'usdc'] }, 'token_addresses'],
    [{ token_addresses: '0x5FbDB2315678afecb367f032d93F642f64180aa3,nope' }, 'token_addresses'],
    [{ token_addresses: Array.from({ length: MAX_HISTORY_TOKEN_FILTER + 1 }, (_, i) => `0x${String(i).padStart(40, '0')}`) }, 'token_addresses'],
  ])('%j is an error on %s', (q, name) => {
    expect(failsOn(q)).toBe(name);
  });

  it('from_block beats from_date and to_block beats to_date', () => {
    // The dates alone would be reversed; the blocks win, so it is valid.
    const q = ok({ from_block: '1', to_block: '5', from_date: '2024-02-01', to_date: '2024-01-01' });
    expect(resolveHistoryRange(q)).toEqual({ fromBlock: 1, toBlock: 5 });
    expect(resolveHistoryRange(ok({ from_date: '1700000000', to_block: '9' }))).toEqual({ fromDate: new Date(1700000000 * 1000), toBlock: 9 });
  });
});

// token_addresses (Lantern's extension): one value, repeated keys (an array) and the comma form are one list.
describe('historyQuerySchema token_addresses', () => {
  const address = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => `0x${Buffer.from(b).toString('hex')}`);
  const cased = address.chain((a) => fc.constantFrom(a, a.toUpperCase().replace('0X', '0x'), getAddress(a)));

  it('reads any list of addresses in any of its forms, in any letter case, as their checksummed list', () => {
    fc.assert(
      fc.property(fc.array(cased, { minLength: 1, maxLength: MAX_HISTORY_TOKEN_FILTER }), fc.constantFrom('array', 'comma', 'padded'), (list, form) => {
        const raw = form === 'array' ? list : form === 'comma' ? list.join(',') : list.map((a) => ` ${a} `).join(',');
        const q = historyQuerySchema.parse({ token_addresses: list.length === 1 && form === 'array' ? list[0]! : raw });
        expect(q.token_addresses).toEqual(list.map((a) => getAddress(a.toLowerCase())));
      }),
    );
  });

  it('blank entries are dropped; a bad one anywhere is a 400 on token_addresses', () => {
    const a = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
    expect(historyQuerySchema.parse({ token_addresses: ['', a, ','] }).token_addresses).toEqual([a]);
    fc.assert(
      fc.property(fc.array(address, { maxLength: 4 }), fc.string({ maxLength: 12 }).filter((s) => !/^\s*(0x[0-9a-fA-F]{40})?\s*$/.test(s) && !s.includes(',')), (list, bad) => {
        const r = historyQuerySchema.safeParse({ token_addresses: [...list, bad] });
        expect(r.success).toBe(false);
        expect(r.error!.issues[0]!.path[0]).toBe('token_addresses');
      }),
    );
  });
});
