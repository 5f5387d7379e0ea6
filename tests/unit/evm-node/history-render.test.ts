import { describe, expect, it } from 'vitest';
import { historyQuerySchema } from '@/lib/interface/history';
import { truncateMiddle } from '@/lib/format';
import { renderTx } from '@/lib/sources/evm-node/history';
import type { TokenFacts } from '@/lib/sources/evm-node/tokens';
import type { TxFacts } from '@/lib/sources/evm-node/tx-facts';

// One transaction's row in the hosted wallet-history shape (Moralis' getWalletHistory), from its facts.
// Expected values are the standards' readings: a fee is gasUsed x the price paid, in ether; a token
// amount is its raw value over 10^decimals; only value that moved (successful, value-moving frames) is a
// native transfer.
const WALLET = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const OTHER = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc';
const TOKEN = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const NFT = '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512';
const CHAIN = 1;
const ETH = { symbol: 'ETH', decimals: 18 };

const facts = (over: Partial<TxFacts> = {}): TxFacts => ({
  hash: '0xab', blockNumber: 436, blockHash: '0xbb', timestamp: 1_700_000_000, txIndex: 3, type: '2',
  from: WALLET, to: OTHER, value: '1500000000000000000', nonce: '17', gas: '100000', gasPrice: '2000000000', selector: null,
  status: 1, gasUsed: '21000', cumulativeGasUsed: '42000', contractAddress: null, erc20: [], nft: [], calls: [], ...over,
});
const usdc: TokenFacts = { address: TOKEN, kind: 'erc20', name: 'USD Coin', symbol: 'USDC', decimals: 6, possibleSpam: false };
const query = (q: Record<string, string> = {}) => historyQuerySchema.parse(q);
const render = (f: TxFacts, tokens = new Map<string, TokenFacts>(), q = query(), label: string | null = null) => renderTx(CHAIN, f, WALLET, ETH, tokens, q, undefined, label);

describe('renderTx', () => {
  it('a plain ETH payment: the fee, the timestamp, one native transfer sent by the wallet', () => {
    const t = render(facts());
    expect(t).toMatchObject({
      hash: '0xab', nonce: '17', transaction_index: '3', from_address: WALLET, to_address: OTHER, value: '1500000000000000000',
      gas: '100000', gas_price: '2000000000', receipt_gas_used: '21000', receipt_cumulative_gas_used: '42000', receipt_status: '1',
      receipt_contract_address: null, block_number: '436', block_hash: '0xbb', block_timestamp: '2023-11-14T22:13:20.000Z',
      // 21,000 gas at 2 gwei
      transaction_fee: '0.000042', possible_spam: false, method_label: null, internal_transactions: undefined,
      erc20_transfer: [], nft_transfers: [],
    });
    expect(t.native_transfers).toEqual([
      expect.objectContaining({ from_address: WALLET, to_address: OTHER, value: '1500000000000000000', value_formatted: '1.5', direction: 'send', internal_transaction: false, token_symbol: 'ETH' }),
    ]);
    expect(t.category).toBe('send');
    expect(t.receipt_root).toBeNull();
  });

  it('a failed transaction moved nothing: no native transfer, top-level or internal, but its fee', () => {
    const t = render(facts({ status: 0, calls: [{ type: 'CALL', from: OTHER, to: WALLET, value: '5', gas: null, gasUsed: null, input: '0x', output: null, depth: 1, reverted: false }] }));
    expect(t.native_transfers).toEqual([]);
    expect(t.receipt_status).toBe('0');
    expect(t.transaction_fee).toBe('0.000042');
  });

  it('internal transfers: only frames that moved value; the wallet receiving is a receive; the internal list only when asked', () => {
    const calls: TxFacts['calls'] = [
      { type: 'CALL', from: OTHER, to: WALLET, value: '250000000000000000', gas: '2300', gasUsed: '0', input: '0x', output: '0x', depth: 1, reverted: false },
      { type: 'DELEGATECALL', from: OTHER, to: TOKEN, value: '7', gas: null, gasUsed: null, input: '0x', output: null, depth: 1, reverted: false },
      { type: 'CALL', from: OTHER, to: TOKEN, value: '9', gas: null, gasUsed: null, input: '0x', output: null, depth: 1, reverted: true },
    ];
    const t = render(facts({ from: OTHER, to: TOKEN, value: '0', calls }));
    expect(t.native_transfers.map((n) => [n.from_address, n.to_address, n.value_formatted, n.direction, n.internal_transaction])).toEqual([[OTHER, WALLET, '0.25', 'receive', true]]);
    expect(t.internal_transactions).toBeUndefined();
    const withInternal = render(facts({ from: OTHER, to: TOKEN, value: '0', calls }), undefined, query({ include_internal_transactions: 'true' }));
    expect(withInternal.internal_transactions!.map((c) => [c.type, c.from, c.to, c.value, c.gas, c.gas_used, c.transaction_hash, c.block_number])).toEqual([
      ['CALL', OTHER, WALLET, '250000000000000000', '2300', '0', '0xab', '436'],
      ['DELEGATECALL', OTHER, TOKEN, '7', null, null, '0xab', '436'],
      ['CALL', OTHER, TOKEN, '9', null, null, '0xab', '436'],
    ]);
    // A node without a tracer (calls null): no internal transfers, an empty internal list.
    expect(render(facts({ calls: null, value: '0' }), undefined, query({ include_internal_transactions: 'true' })).internal_transactions).toEqual([]);
  });

  it('a creation paid to the created contract: the native transfer goes to its address', () => {
    const t = render(facts({ to: null, contractAddress: TOKEN, value: '1000000000000000000' }));
    expect(t.native_transfers.map((n) => [n.to_address, n.value_formatted])).toEqual([[TOKEN, '1']]);
    expect(t.receipt_contract_address).toBe(TOKEN);
  });

  it('ERC-20 transfers: the amount over the token decimals, its name and symbol; an unknown token has no decimals to format by', () => {
    const erc20 = [
      { token: TOKEN, from: OTHER, to: WALLET, value: '2500000', logIndex: 4 },
      { token: NFT, from: WALLET, to: OTHER, value: '7', logIndex: 5 },
    ];
    const t = render(facts({ value: '0', to: TOKEN, erc20 }), new Map([[TOKEN, usdc]]));
    expect(t.erc20_transfer.map((e) => [e.address, e.token_name, e.token_symbol, e.token_decimals, e.value, e.value_formatted, e.direction, e.log_index, e.possible_spam, e.transaction_index])).toEqual([
      [TOKEN, 'USD Coin', 'USDC', '6', '2500000', '2.5', 'receive', 4, false, 3],
      [NFT, null, null, null, '7', null, 'send', 5, false, 3],
    ]);
    expect(t.native_transfers).toEqual([]);
    // Lantern verifies no contract: never claimed verified.
    expect(t.erc20_transfer.map((e) => [e.verified_contract, e.token_logo])).toEqual([[false, null], [false, null]]);
    // The summary sums each token in its own units: USDC by its decimals, the unknown token raw, named by its address.
    const received = render(facts({ from: OTHER, value: '0', to: TOKEN, erc20: [erc20[0]!] }), new Map([[TOKEN, usdc]]));
    expect([received.category, received.summary]).toEqual(['token receive', 'Received 2.5 USDC']);
    const unknown = render(facts({ from: OTHER, value: '0', to: NFT, erc20: [{ ...erc20[1]!, from: OTHER, to: WALLET }] }));
    expect([unknown.category, unknown.summary]).toEqual(['token receive', `Received 7 ${NFT.slice(0, 8)}`]);
  });

  it('a transaction that only brought the wallet spam tokens is possible spam; one the wallet sent never is', () => {
    const spam: TokenFacts = { ...usdc, name: 'Claim at evil.example', possibleSpam: true };
    const erc20 = [{ token: TOKEN, from: OTHER, to: WALLET, value: '1', logIndex: 0 }];
    const received = render(facts({ from: OTHER, to: TOKEN, value: '0', erc20 }), new Map([[TOKEN, spam]]));
    expect([received.possible_spam, received.erc20_transfer[0]!.possible_spam]).toEqual([true, true]);
    expect(render(facts({ from: WALLET, to: TOKEN, value: '0', erc20 }), new Map([[TOKEN, spam]])).possible_spam).toBe(false);
  });

  it('NFT transfers: ERC-721 and ERC-1155 with their ids, amounts and operator; metadata only when asked', () => {
    const nft: TxFacts['nft'] = [
      { token: NFT, standard: 'erc721', operator: null, from: OTHER, to: WALLET, tokenId: '42', amount: '1', logIndex: 1 },
      { token: NFT, standard: 'erc1155', operator: OTHER, from: WALLET, to: OTHER, tokenId: '9', amount: '250', logIndex: 2 },
    ];
    const t = render(facts({ value: '0', to: NFT, nft }));
    expect(t.nft_transfers.map((n) => [n.token_address, n.token_id, n.amount, n.contract_type, n.operator, n.direction, n.log_index, n.block_number, n.possible_spam])).toEqual([
      [NFT, '42', '1', 'ERC721', null, 'receive', 1, '436', false],
      [NFT, '9', '250', 'ERC1155', OTHER, 'send', 2, '436', false],
    ]);
    expect(t.nft_transfers[0]).not.toHaveProperty('metadata');
    // The hosted API's fields Lantern does not know: a collection never claimed verified, no transaction type; the value is the transaction's.
    expect(t.nft_transfers.map((n) => [n.verified_collection, n.transaction_type, n.value])).toEqual([[false, null, '0'], [false, null, '0']]);
    // Named by the collection's name when known, else its symbol, else "NFT".
    const named = render(facts({ from: OTHER, value: '0', to: NFT, nft: [nft[0]!] }), new Map([[NFT, { address: NFT, kind: 'erc721', name: 'Punks', symbol: 'PNK', decimals: null, possibleSpam: false }]]));
    expect(named.summary).toBe(`Received Punks #42 from ${truncateMiddle(OTHER)}`);
    // An NFT of a collection not flagged as spam does not make the transaction spam.
    expect(named.possible_spam).toBe(false);
    expect(render(facts({ from: OTHER, value: '0', to: NFT, nft: [nft[0]!] })).summary).toBe(`Received NFT #42 from ${truncateMiddle(OTHER)}`);
    const meta = new Map([[`${NFT}:42`, { tokenUri: 'ipfs://x/42', metadata: '{"name":"Punk 42"}' }]]);
    const withMeta = renderTx(CHAIN, facts({ value: '0', to: NFT, nft }), WALLET, ETH, new Map(), query({ nft_metadata: 'true' }), meta as never, null);
    expect(withMeta.nft_transfers.map((n) => [n.token_uri, n.metadata])).toEqual([['ipfs://x/42', '{"name":"Punk 42"}'], [null, null]]);
    expect(withMeta.nft_transfers[0]!.normalized_metadata).toMatchObject({ name: 'Punk 42' });
  });

  it("a transfer in the wallet's transaction between two others has no direction", () => {
    const t = render(facts({ value: '0', to: TOKEN, erc20: [{ token: TOKEN, from: OTHER, to: NFT, value: '1', logIndex: 0 }] }));
    expect(t.erc20_transfer.map((e) => e.direction)).toEqual([null]);
  });

  it('facts whose calls are still being read say so; complete ones do not', () => {
    expect(render(facts({ calls: undefined })).internal_pending).toBe(true);
    expect(render(facts({ calls: null }))).not.toHaveProperty('internal_pending');
  });

  it('the method label is passed through', () => {
    expect(render(facts({ selector: '0xa9059cbb', value: '0' }), undefined, undefined, 'transfer').method_label).toBe('transfer');
  });
});
