import { describe, expect, it } from 'vitest';
import { encodeAbiParameters, encodeEventTopics, parseAbi, type Hex } from 'viem';
import { ZERO_TOPIC, addressTopic, parseTransferLog, topicAddress, transferFilters } from '@/lib/sources/evm-node/logs';

// Transfer logs as the token standards define them (ERC-20, ERC-721, ERC-1155), encoded by viem from the
// standards' own event signatures: what parseTransferLog reads out must be what was encoded.
const abi = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Transfer721(address indexed from, address indexed to, uint256 indexed tokenId)',
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
  'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
]);
const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const ALICE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const BOB = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const OPERATOR = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
const lower = (a: string) => a.toLowerCase();

const erc20Topics = encodeEventTopics({ abi, eventName: 'Transfer', args: { from: ALICE, to: BOB } }) as Hex[];
// ERC-721's Transfer has the same signature hash as ERC-20's, with the token id as a third indexed topic.
const erc721Topics = [erc20Topics[0]!, ...(encodeEventTopics({ abi, eventName: 'Transfer721', args: { from: ALICE, to: BOB, tokenId: 42n } }) as Hex[]).slice(1)];
const log = (topics: Hex[], data: Hex, logIndex: Hex = '0x7') => ({ address: TOKEN, topics, data, logIndex });

describe('parseTransferLog', () => {
  it('an ERC-20 Transfer: from, to and value (data), the token lower-case, the log index as a number', () => {
    const data = encodeAbiParameters([{ type: 'uint256' }], [10n ** 18n + 5n]);
    expect(parseTransferLog(log(erc20Topics, data))).toEqual({
      erc20: { token: lower(TOKEN), from: lower(ALICE), to: lower(BOB), value: '1000000000000000005', logIndex: 7 },
    });
  });

  it('an ERC-20 Transfer with empty data moved 0; trailing data past the first word is ignored', () => {
    expect(parseTransferLog(log(erc20Topics, '0x')).erc20?.value).toBe('0');
    const twoWords = `${encodeAbiParameters([{ type: 'uint256' }], [3n])}${'f'.repeat(64)}` as Hex;
    expect(parseTransferLog(log(erc20Topics, twoWords)).erc20?.value).toBe('3');
  });

  it('an ERC-721 Transfer (four topics): one NFT, amount 1, no operator', () => {
    expect(parseTransferLog(log(erc721Topics, '0x', '0x0'))).toEqual({
      nft: [{ token: lower(TOKEN), standard: 'erc721', operator: null, from: lower(ALICE), to: lower(BOB), tokenId: '42', amount: '1', logIndex: 0 }],
    });
  });

  it('an ERC-1155 TransferSingle: operator, from, to from the topics; id and value from the data', () => {
    const topics = encodeEventTopics({ abi, eventName: 'TransferSingle', args: { operator: OPERATOR, from: ALICE, to: BOB } }) as Hex[];
    const data = encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [9n, 250n]);
    expect(parseTransferLog(log(topics, data, '0x1a'))).toEqual({
      nft: [{ token: lower(TOKEN), standard: 'erc1155', operator: lower(OPERATOR), from: lower(ALICE), to: lower(BOB), tokenId: '9', amount: '250', logIndex: 26 }],
    });
  });

  it('an ERC-1155 TransferBatch: one move per id, each with its value', () => {
    const topics = encodeEventTopics({ abi, eventName: 'TransferBatch', args: { operator: OPERATOR, from: ALICE, to: BOB } }) as Hex[];
    const data = encodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint256[]' }], [[1n, 2n], [10n, 20n]]);
    const moves = parseTransferLog(log(topics, data, '0x2')).nft!;
    expect(moves.map((m) => [m.standard, m.operator, m.from, m.to, m.tokenId, m.amount, m.logIndex])).toEqual([
      ['erc1155', lower(OPERATOR), lower(ALICE), lower(BOB), '1', '10', 2],
      ['erc1155', lower(OPERATOR), lower(ALICE), lower(BOB), '2', '20', 2],
    ]);
    // A batch with fewer values than ids (a malformed contract): the missing values are 0.
    const short = encodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint256[]' }], [[1n, 2n], [10n]]);
    expect(parseTransferLog(log(topics, short)).nft!.map((m) => m.amount)).toEqual(['10', '0']);
  });

  it('not a transfer: another event, a topic count the standards do not use, data that does not decode', () => {
    const approval = encodeEventTopics({ abi: parseAbi(['event Approval(address indexed owner, address indexed spender, uint256 value)']), eventName: 'Approval', args: { owner: ALICE, spender: BOB } }) as Hex[];
    expect(parseTransferLog(log(approval, encodeAbiParameters([{ type: 'uint256' }], [1n])))).toEqual({});
    expect(parseTransferLog(log(erc20Topics.slice(0, 2), '0x'))).toEqual({});
    const single = encodeEventTopics({ abi, eventName: 'TransferSingle', args: { operator: OPERATOR, from: ALICE, to: BOB } }) as Hex[];
    expect(parseTransferLog(log(single, '0x1234'))).toEqual({});
    expect(parseTransferLog(log(single.slice(0, 3), encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [1n, 1n])))).toEqual({});
    const batch = encodeEventTopics({ abi, eventName: 'TransferBatch', args: { operator: OPERATOR, from: ALICE, to: BOB } }) as Hex[];
    expect(parseTransferLog(log(batch.slice(0, 3), encodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint256[]' }], [[1n], [1n]])))).toEqual({});
    expect(parseTransferLog(log(erc721Topics, '0x')).nft).toHaveLength(1);
  });
});

describe('topics of an address', () => {
  it('an address topic is the address left-padded to 32 bytes, and reads back lower-case', () => {
    expect(addressTopic(ALICE)).toBe(erc20Topics[1]);
    expect(topicAddress(erc20Topics[2]!)).toBe(lower(BOB));
    expect(ZERO_TOPIC).toBe(`0x${'00'.repeat(32)}`);
  });

  it("transferFilters: one filter per topic position, and every transfer naming the address in any standard matches one; none of another's", () => {
    const topicsOf = (eventName: 'Transfer' | 'Transfer721' | 'TransferSingle' | 'TransferBatch', from: string, to: string): Hex[] => {
      if (eventName === 'Transfer') return encodeEventTopics({ abi, eventName, args: { from: from as Hex, to: to as Hex } }) as Hex[];
      if (eventName === 'Transfer721') return [erc20Topics[0]!, ...(encodeEventTopics({ abi, eventName, args: { from: from as Hex, to: to as Hex, tokenId: 1n } }) as Hex[]).slice(1)];
      return encodeEventTopics({ abi, eventName, args: { operator: OPERATOR, from: from as Hex, to: to as Hex } }) as Hex[];
    };
    // eth_getLogs' matching: a position null matches anything, a list any of its values.
    const matches = (f: (Hex | Hex[] | null)[], topics: Hex[]) => f.length <= topics.length && f.every((want, i) => want === null || (Array.isArray(want) ? want.includes(topics[i]!) : want === topics[i]));
    const filters = transferFilters(ALICE);
    expect(filters.map((f) => f.length)).toEqual([2, 3, 4]);
    for (const event of ['Transfer', 'Transfer721', 'TransferSingle', 'TransferBatch'] as const) {
      for (const [from, to] of [[ALICE, BOB], [BOB, ALICE], [ALICE, ALICE]]) {
        expect(filters.some((f) => matches(f, topicsOf(event, from!, to!))), `${event} ${from} -> ${to}`).toBe(true);
      }
      expect(filters.some((f) => matches(f, topicsOf(event, BOB, OPERATOR))), `${event} not naming her`).toBe(false);
    }
  });
});

describe('parseTransferLog: topic counts no standard uses', () => {
  it('a Transfer, TransferSingle or TransferBatch with one topic too many or too few is not read', () => {
    const extraTopic = `0x${'00'.repeat(31)}01` as Hex;
    const single = encodeEventTopics({ abi, eventName: 'TransferSingle', args: { operator: OPERATOR, from: ALICE, to: BOB } }) as Hex[];
    const batch = encodeEventTopics({ abi, eventName: 'TransferBatch', args: { operator: OPERATOR, from: ALICE, to: BOB } }) as Hex[];
    const two = encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [1n, 1n]);
    const arrays = encodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint256[]' }], [[1n], [1n]]);
    expect(parseTransferLog(log([...erc721Topics, extraTopic], '0x'))).toEqual({});
    expect(parseTransferLog(log([...single, extraTopic], two))).toEqual({});
    expect(parseTransferLog(log([...batch, extraTopic], arrays))).toEqual({});
    // Four topics of another event whose data would decode as a batch: not a batch.
    expect(parseTransferLog(log([extraTopic, ...batch.slice(1)], arrays))).toEqual({});
  });
});
