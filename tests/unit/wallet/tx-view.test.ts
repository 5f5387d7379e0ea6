import { describe, expect, it } from 'vitest';
import { historyPageSchema, serializeHistoryPage } from '@/lib/interface/history';
import { movementLine } from '@/lib/view/tx-row';
import { describeTransaction, type ChainView } from '@/lib/view/tx-view';

const chain: ChainView = { name: 'eth', label: 'Ethereum', symbol: 'ETH', decimals: 18, explorerUrl: 'https://etherscan.io' };
const alice = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const bob = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc';
const pool = '0x0165878a594ca255338adfa4d48449f69242eb8f';
const usdc = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const lnt = '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512';
const multisend = '0xdc64a140aa3e981100a9beca4e685f962f0cf6c9';
const zero = '0x0000000000000000000000000000000000000000';

/** Through the real schema and serialiser, so the view is tested on exactly what the API answers. */
function wire(tx: Record<string, unknown>) {
  const page = historyPageSchema.parse({
    page: 1,
    page_size: 1,
    cursor: null,
    result: [{ hash: '0xabc', from_address: alice, to_address: bob, value: '0', block_timestamp: '2026-03-02T11:55:55.000Z', block_number: '164', receipt_status: '1', gas_price: '1000000000', receipt_gas_used: '21000', ...tx }],
  });
  return serializeHistoryPage(page).result[0];
}

const erc20 = (from: string, to: string, value: string, address: string, symbol: string, decimals: string, extra = {}) => ({
  address,
  from_address: from,
  to_address: to,
  value,
  token_symbol: symbol,
  token_decimals: decimals,
  ...extra,
});

describe('describeTransaction', () => {
  it('an ETH send: out, counterparty the recipient, amount with decimals, fee paid', () => {
    const v = describeTransaction(
      wire({ value: '50000000000000000', native_transfers: [{ from_address: alice, to_address: bob, value: '50000000000000000', direction: 'outgoing', internal_transaction: false, token_symbol: 'ETH' }] }),
      alice,
      chain,
    );
    expect(v.direction).toBe('out');
    expect(v.counterparty?.address).toBe(bob);
    expect(v.movements.map(movementLine)).toEqual(['−0.05 ETH']);
    expect(v.fee?.full).toBe('0.000021');
    expect(v.feePaidByWallet).toBe(true);
    expect(v.category).toBe('send');
  });

  it('the same transaction read from the receiver: in, counterparty the sender, no fee of theirs', () => {
    const v = describeTransaction(wire({ value: '50000000000000000' }), bob, chain);
    expect(v.direction).toBe('in');
    expect(v.counterparty?.address).toBe(alice);
    expect(v.movements.map(movementLine)).toEqual(['+0.05 ETH']);
    expect(v.feePaidByWallet).toBe(false);
  });

  it('a token send names its recipient by the label its transfer carries (a devnet’s public label), not by the token’s', () => {
    const v = describeTransaction(
      wire({ to_address: lnt, to_address_label: 'LNT token', erc20_transfers: [erc20(alice, bob, '1000000000000000000', lnt, 'LNT', '18', { to_address_label: 'bob', from_address_label: 'alice' })] }),
      alice,
      chain,
    );
    expect(v.counterparty).toMatchObject({ address: bob, label: 'bob', labelSource: 'source' });
    // A person's own saved label still comes first.
    expect(describeTransaction(wire({ to_address: lnt, erc20_transfers: [erc20(alice, bob, '1', lnt, 'LNT', '18', { to_address_label: 'bob' })] }), alice, chain, { [bob]: 'Bobby' }).counterparty).toMatchObject({ label: 'Bobby', labelSource: 'saved' });
  });

  it('a token send names the token recipient, not the token contract', () => {
    const v = describeTransaction(wire({ to_address: lnt, erc20_transfers: [erc20(alice, bob, '50000000000000000000', lnt, 'LNT', '18')] }), alice, chain);
    expect(v.direction).toBe('out');
    expect(v.counterparty?.address).toBe(bob);
    expect(v.movements.map(movementLine)).toEqual(['−50 LNT']);
  });

  it('a swap: both legs, counterparty the pool', () => {
    const v = describeTransaction(
      wire({ to_address: pool, to_address_entity: 'Fixed Rate Pool', erc20_transfers: [erc20(alice, pool, '100000000', usdc, 'USDC', '6'), erc20(pool, alice, '1000000000000000000000', lnt, 'LNT', '18')] }),
      alice,
      chain,
    );
    expect(v.direction).toBe('swap');
    expect(v.counterparty).toMatchObject({ address: pool, label: 'Fixed Rate Pool', labelSource: 'entity' });
    expect(v.movements.map(movementLine)).toEqual(['−100 USDC', '+1,000 LNT']);
  });

  it('an internal payment through a multisend: in, from the contract', () => {
    const frank = '0x976ea74026e726554db657fa54763abd0c3a0aa9';
    const v = describeTransaction(
      wire({
        from_address: frank,
        to_address: multisend,
        value: '1500000000000000000',
        native_transfers: [
          { from_address: frank, to_address: multisend, value: '1500000000000000000', internal_transaction: false },
          { from_address: multisend, to_address: alice, value: '500000000000000000', internal_transaction: true },
          { from_address: multisend, to_address: bob, value: '400000000000000000', internal_transaction: true },
        ],
      }),
      alice,
      chain,
    );
    expect(v.direction).toBe('in');
    expect(v.counterparty?.address).toBe(multisend);
    expect(v.movements.map(movementLine)).toEqual(['+0.5 ETH']);
    expect(v.transfers).toHaveLength(3);
    expect(v.transfers[1].internal).toBe(true);
  });

  it('an NFT mint reads as received from the zero address', () => {
    const v = describeTransaction(
      wire({ from_address: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', to_address: '0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0', nft_transfers: [{ token_address: '0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0', token_id: '7', from_address: zero, to_address: alice, contract_type: 'ERC721', amount: '1' }] }),
      alice,
      chain,
    );
    expect(v.direction).toBe('in');
    expect(v.counterparty?.special).toBe('mint');
    expect(v.movements.map(movementLine)).toEqual(['+NFT #7']);
    expect(v.category).toBe('nft receive');
  });

  it('a failed call is marked and still has its fee', () => {
    const v = describeTransaction(wire({ receipt_status: '0', to_address: pool }), alice, chain);
    expect(v.failed).toBe(true);
    expect(v.direction).toBe('out');
    expect(v.movements).toEqual([]);
    expect(v.fee).toEqual({ text: '0.000021', full: '0.000021', exact: true }); // 21,000 gas at 1 gwei
  });

  it('saved labels win over the source label', () => {
    const v = describeTransaction(wire({ value: '1', to_address_label: 'Source label' }), alice, chain, { [bob]: 'My friend Bob' });
    expect(v.counterparty).toMatchObject({ label: 'My friend Bob', labelSource: 'saved' });
    const w = describeTransaction(wire({ value: '1', to_address_label: 'Source label' }), alice, chain);
    expect(w.counterparty).toMatchObject({ label: 'Source label', labelSource: 'source' });
  });

  it('an airdrop of a spam token is spam; a tx with ETH movement is not', () => {
    const spammy = [erc20(zero, alice, '1000', '0xef11d1c2aa48826d4c41e54ab82d1ff5ad8a64ca', 'CLAIM', '0', { possible_spam: true })];
    expect(describeTransaction(wire({ from_address: bob, to_address: '0xef11d1c2aa48826d4c41e54ab82d1ff5ad8a64ca', erc20_transfers: spammy }), alice, chain).spam).toBe(true);
    expect(describeTransaction(wire({ from_address: bob, to_address: alice, value: '5', erc20_transfers: spammy }), alice, chain).spam).toBe(false);
  });

  it('internal transactions appear only when they were asked for', () => {
    expect(describeTransaction(wire({}), alice, chain).internalCalls).toBeNull();
    const v = describeTransaction(wire({ internal_transactions: [{ transaction_hash: '0xabc', block_number: '164', type: 'CALL', from: pool, to: alice, value: '1000000000000000000' }] }), alice, chain);
    expect(v.internalCalls).toEqual([{ type: 'CALL', from: pool, to: alice, value: { text: '1', full: '1', exact: true } }]);
  });
});

describe('naming the counterparty', () => {
  const send = (extra: Record<string, unknown> = {}) =>
    wire({
      value: '1',
      native_transfers: [{ from_address: alice, to_address: bob, value: '1', direction: 'outgoing', internal_transaction: false, token_symbol: 'ETH' }],
      ...extra,
    });

  it('uses the viewer’s saved label, then the source’s label or entity, then ENS, then the address', () => {
    const ens = { [bob]: 'bob.eth' };
    expect(describeTransaction(send(), alice, chain, { [bob]: 'Savings' }, ens).counterparty).toMatchObject({ label: 'Savings', labelSource: 'saved' });
    expect(describeTransaction(send({ to_address_label: 'Binance 14' }), alice, chain, {}, ens).counterparty).toMatchObject({ label: 'Binance 14', labelSource: 'source' });
    expect(describeTransaction(send({ to_address_entity: 'Opensea' }), alice, chain, {}, ens).counterparty).toMatchObject({ label: 'Opensea', labelSource: 'entity' });
    expect(describeTransaction(send(), alice, chain, {}, ens).counterparty).toMatchObject({ label: 'bob.eth', labelSource: 'ens' });
    expect(describeTransaction(send(), alice, chain).counterparty).toMatchObject({ address: bob, label: null, labelSource: null });
  });
});
