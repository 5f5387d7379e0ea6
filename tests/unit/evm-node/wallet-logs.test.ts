import fc from 'fast-check';
import { encodeAbiParameters, keccak256, pad, toHex, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { classifyLog, walletLogFilters } from '@/lib/sources/evm-node/wallet-logs';

// What one log says about a wallet. The topics are computed here from the event signatures (not imported
// from the module under test), and each event is built the way its standard lays it out.

const topic = (sig: string) => keccak256(toHex(sig));
const TRANSFER = topic('Transfer(address,address,uint256)');
const APPROVAL = topic('Approval(address,address,uint256)');
const APPROVAL_FOR_ALL = topic('ApprovalForAll(address,address,bool)');
const SINGLE = topic('TransferSingle(address,address,address,uint256,uint256)');
const BATCH = topic('TransferBatch(address,address,address,uint256[],uint256[])');

const address = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => `0x${Buffer.from(b).toString('hex')}`);
const at = (a: string) => pad(a as Hex, { size: 32 }).toLowerCase() as Hex;
const word = (v: bigint) => encodeAbiParameters([{ type: 'uint256' }], [v]);
const base = { blockNumber: '0x10' as Hex, logIndex: '0x2' as Hex, transactionHash: `0x${'ab'.repeat(32)}` as Hex };
const amount = fc.bigInt({ min: 0n, max: 2n ** 256n - 1n });

describe('classifyLog', () => {
  it('reads an ERC-20 Transfer naming the wallet as sender or recipient, with the counterparty', () => {
    fc.assert(
      fc.property(address, address, address, amount, fc.boolean(), (token, wallet, other, v, sent) => {
        fc.pre(wallet !== other);
        const [from, to] = sent ? [wallet, other] : [other, wallet];
        const log = { ...base, address: token, topics: [TRANSFER, at(from), at(to)], data: word(v) };
        expect(classifyLog(log, wallet)).toEqual({ block: 16, logIndex: 2, tx: base.transactionHash, token, kind: 'erc20', other, value: v.toString(), items: 1 });
        // A Transfer between two others says nothing about the wallet.
        expect(classifyLog({ ...log, topics: [TRANSFER, at(other), at(other)] }, wallet)).toBeNull();
      }),
    );
  });

  it('reads an Approval and an ApprovalForAll the wallet gave as owner, never one it received', () => {
    fc.assert(
      fc.property(address, address, address, amount, fc.boolean(), (token, wallet, spender, v, approved) => {
        fc.pre(wallet !== spender);
        const given = classifyLog({ ...base, address: token, topics: [APPROVAL, at(wallet), at(spender)], data: word(v) }, wallet);
        expect(given).toMatchObject({ kind: 'approval', token, other: spender, value: v.toString() });
        expect(classifyLog({ ...base, address: token, topics: [APPROVAL, at(spender), at(wallet)], data: word(v) }, wallet)).toBeNull();
        const op = classifyLog({ ...base, address: token, topics: [APPROVAL_FOR_ALL, at(wallet), at(spender)], data: word(approved ? 1n : 0n) }, wallet);
        expect(op).toMatchObject({ kind: 'operator', other: spender, value: approved ? '1' : '0' });
      }),
    );
  });

  it('counts NFT transfers: one per ERC-721 Transfer, one per id of an ERC-1155 batch', () => {
    fc.assert(
      fc.property(address, address, address, fc.array(fc.bigInt({ min: 0n, max: 2n ** 64n }), { minLength: 1, maxLength: 6 }), (token, wallet, other, ids) => {
        fc.pre(wallet !== other);
        const t721 = classifyLog({ ...base, address: token, topics: [TRANSFER, at(other), at(wallet), word(ids[0]!)], data: '0x' }, wallet);
        expect(t721).toMatchObject({ kind: 'nft', items: 1, other: null, value: null });
        const single = classifyLog({ ...base, address: token, topics: [SINGLE, at(other), at(wallet), at(other)], data: encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [ids[0]!, 5n]) }, wallet);
        expect(single).toMatchObject({ kind: 'nft', items: 1 });
        const batch = classifyLog(
          { ...base, address: token, topics: [BATCH, at(other), at(other), at(wallet)], data: encodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint256[]' }], [ids, ids.map(() => 1n)]) },
          wallet,
        );
        expect(batch).toMatchObject({ kind: 'nft', items: ids.length });
      }),
    );
  });

  it('ignores what is not one of these events, or too short to read', () => {
    const wallet = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
    expect(classifyLog({ ...base, address: wallet, topics: [topic('Deposit(address,uint256)'), at(wallet)], data: word(1n) }, wallet)).toBeNull();
    expect(classifyLog({ ...base, address: wallet, topics: [APPROVAL, at(wallet), at(wallet)], data: '0x12' }, wallet)).toBeNull();
    expect(classifyLog({ ...base, address: wallet, topics: [BATCH, at(wallet), at(wallet), at(wallet)], data: '0x1234' }, wallet)).toBeNull();
  });
});

/**
 * eth_getLogs' topic filter as the JSON-RPC spec words it (and geth, anvil and erigon match): position i
 * null matches anything, a value matches itself, a list any of its values; a filter with more positions
 * than the log has topics does not match it.
 */
function matches(filter: readonly (Hex | readonly Hex[] | null)[], topics: readonly Hex[]): boolean {
  if (filter.length > topics.length) return false;
  return filter.every((want, i) => want === null || (Array.isArray(want) ? want.includes(topics[i]!) : want === topics[i]));
}

describe('walletLogFilters', () => {
  it('asks the node for every log classifyLog keeps, whatever the event, its topics and data, and for each kind on its own', () => {
    const other = fc.constantFrom(TRANSFER, APPROVAL, APPROVAL_FOR_ALL, SINGLE, BATCH);
    fc.assert(
      fc.property(
        address,
        address,
        address,
        fc.oneof(other, fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => `0x${Buffer.from(b).toString('hex')}` as Hex)),
        fc.array(fc.constantFrom('wallet', 'other', 'id'), { minLength: 0, maxLength: 3 }),
        fc.oneof(
          amount.map((v) => word(v)),
          fc.constant('0x' as Hex),
          fc.tuple(amount, amount).map(([a, b]) => encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [a, b])),
          fc.array(amount, { maxLength: 3 }).map((ids) => encodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint256[]' }], [ids, ids.map(() => 1n)])),
        ),
        (token, wallet, someone, t0, rest, data) => {
          const topics = [t0, ...rest.map((r) => (r === 'wallet' ? at(wallet) : r === 'other' ? at(someone) : word(7n)))];
          const log = { ...base, address: token, topics, data };
          const kept = classifyLog(log, wallet);
          if (kept === null) return;
          expect(walletLogFilters(wallet).some((f) => matches(f, topics))).toBe(true);
          // The filters an early read of the log's kind asks first find it too.
          expect(walletLogFilters(wallet, [kept.kind]).some((f) => matches(f, topics))).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
