import { toFunctionSelector } from 'viem';
import { describe, expect, it } from 'vitest';
import { methodNameOf, signatureTable } from '@/lib/decode';
import { categorise, type CategoryInput, type Movement } from '@/lib/sources/evm-node/categorise';

// Category and summary of a transaction as one wallet sees it: each rule, and the rule that wins
// when several could apply. Expected strings are the hosted API's words for the same situations.
const W = '0x1111111111111111111111111111111111111111';
const X = '0x2222222222222222222222222222222222222222';
const Y = '0x3333333333333333333333333333333333333333';
const ZERO = '0x0000000000000000000000000000000000000000';
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const DAI = '0x6b175474e89094c44da98b954eedeac495271d0f';
const PUNK = '0xb47e3cd837ddf8e4c57f05d70ab865de6e193bbb';

const eth = (from: string, to: string, wei: bigint): Movement => ({ kind: 'native', token: 'native', symbol: 'ETH', decimals: 18, from, to, value: wei, spam: false });
const usdc = (from: string, to: string, units: bigint): Movement => ({ kind: 'erc20', token: USDC, symbol: 'USDC', decimals: 6, from, to, value: units, spam: false });
const dai = (from: string, to: string, units: bigint): Movement => ({ kind: 'erc20', token: DAI, symbol: 'DAI', decimals: 18, from, to, value: units, spam: false });
const punk = (from: string, to: string, id: string, name: string | null = 'Punks', value = 1n): Movement => ({
  kind: 'nft', token: PUNK, symbol: 'PUNK', decimals: 0, from, to, value, tokenId: id, name, spam: false,
});
const tx = (over: Partial<CategoryInput>): CategoryInput => ({
  wallet: W, sender: W, to: X, status: 1, createdContract: null, selector: null, methodLabel: null, moves: [], ...over,
});
const c = (over: Partial<CategoryInput>) => categorise(tx(over));

describe('categorise', () => {
  it('failed transactions: send without calldata, contract interaction with it, naming the method', () => {
    expect(c({ status: 0, moves: [eth(W, X, 10n)] })).toEqual({ category: 'send', summary: 'Failed transaction to 0x2222…2222' });
    expect(c({ status: 0, selector: '0xa9059cbb', methodLabel: 'transfer' })).toEqual({ category: 'contract interaction', summary: 'Failed transfer on 0x2222…2222' });
    expect(c({ status: 0, to: null, selector: '0x60806040' })).toEqual({ category: 'contract interaction', summary: 'Failed transaction to 0x0000…0000' });
    expect(c({ status: 0, to: null, selector: '0x60806040', methodLabel: 'deploy' })).toEqual({ category: 'contract interaction', summary: 'Failed deploy on 0x0000…0000' });
  });

  it('contract creation by the wallet, not by someone else', () => {
    expect(c({ to: null, createdContract: Y })).toEqual({ category: 'contract interaction', summary: 'Created contract 0x3333…3333' });
    expect(c({ sender: X, to: null, createdContract: Y, moves: [eth(X, W, 5n)] })).toEqual({ category: 'receive', summary: 'Received 0.000000000000000005 ETH' });
  });

  it('NFT mint, burn, purchase, sale, send and receive', () => {
    expect(c({ moves: [punk(ZERO, W, '7')] })).toEqual({ category: 'mint', summary: 'Minted Punks #7' });
    expect(c({ moves: [punk(W, ZERO, '7')] })).toEqual({ category: 'burn', summary: 'Burned Punks #7' });
    expect(c({ moves: [punk(X, W, '7'), eth(W, X, 10n ** 18n)] })).toEqual({ category: 'nft purchase', summary: 'Bought Punks #7 for 1 ETH' });
    expect(c({ sender: X, moves: [punk(W, X, '7'), usdc(X, W, 2_500_000n)] })).toEqual({ category: 'nft sale', summary: 'Sold Punks #7 for 2.5 USDC' });
    expect(c({ moves: [punk(W, X, '7')] })).toEqual({ category: 'nft send', summary: 'Sent Punks #7 to 0x2222…2222' });
    expect(c({ sender: X, moves: [punk(X, W, '7')] })).toEqual({ category: 'nft receive', summary: 'Received Punks #7 from 0x2222…2222' });
  });

  it('NFT texts: symbol without a name, amounts of one 1155 id, several NFTs', () => {
    expect(c({ moves: [punk(W, X, '9', null)] }).summary).toBe('Sent PUNK #9 to 0x2222…2222');
    expect(c({ moves: [punk(W, X, '9', 'Gems', 3n)] }).summary).toBe('Sent 3 × Gems #9 to 0x2222…2222');
    expect(c({ moves: [punk(W, X, '9', 'Gems', 2n)] }).summary).toBe('Sent 2 × Gems #9 to 0x2222…2222');
    expect(c({ moves: [punk(W, X, '9', 'Gems', 1n)] }).summary).toBe('Sent Gems #9 to 0x2222…2222');
    expect(c({ moves: [punk(W, X, '1'), punk(W, X, '2', 'Cats')] }).summary).toBe('Sent 2 NFTs (Punks, Cats) to 0x2222…2222');
    expect(c({ moves: [punk(W, X, '1'), punk(W, X, '2')] }).summary).toBe('Sent 2 NFTs (Punks) to 0x2222…2222');
  });

  it('paying while sending an NFT is no purchase; being paid while receiving one is no sale', () => {
    expect(c({ moves: [punk(W, X, '1'), eth(W, X, 1n)] })).toEqual({ category: 'nft send', summary: 'Sent Punks #1 to 0x2222…2222' });
    expect(c({ sender: X, moves: [punk(X, W, '1'), eth(X, W, 1n)] })).toEqual({ category: 'nft receive', summary: 'Received Punks #1 from 0x2222…2222' });
  });

  it('a mint wins over a purchase, and a burn over a sale', () => {
    expect(c({ moves: [punk(ZERO, W, '1'), eth(W, X, 1n)] }).category).toBe('mint');
    expect(c({ moves: [punk(W, ZERO, '1'), eth(X, W, 1n)] }).category).toBe('burn');
  });

  it('NFT moves of others, or to oneself, are not the wallet’s NFT moves', () => {
    expect(c({ moves: [punk(X, Y, '1')] })).toEqual({ category: 'contract interaction', summary: 'Interacted with 0x2222…2222' });
    expect(c({ moves: [punk(W, W, '1')] }).category).toBe('contract interaction');
  });

  it('token swaps: something new in for something out, at least one side a token', () => {
    expect(c({ moves: [usdc(W, Y, 1_000_000n), dai(Y, W, 10n ** 18n)] })).toEqual({ category: 'token swap', summary: 'Swapped 1 USDC for 1 DAI' });
    expect(c({ moves: [eth(W, Y, 10n ** 18n), dai(Y, W, 2n * 10n ** 18n)] })).toEqual({ category: 'token swap', summary: 'Swapped 1 ETH for 2 DAI' });
    expect(c({ moves: [usdc(W, Y, 1_000_000n), eth(Y, W, 10n ** 17n)] })).toEqual({ category: 'token swap', summary: 'Swapped 1 USDC for 0.1 ETH' });
    // One new token among those that came back is enough; a token for ETH plus change is a swap too.
    expect(c({ moves: [usdc(W, Y, 3_000_000n), usdc(Y, W, 1_000_000n), dai(Y, W, 10n ** 18n)] })).toEqual({
      category: 'token swap',
      summary: 'Swapped 3 USDC for 1 USDC and 1 DAI',
    });
    expect(c({ moves: [eth(W, Y, 10n ** 18n), dai(Y, W, 10n ** 18n), eth(Y, W, 10n ** 17n)] })).toEqual({
      category: 'token swap',
      summary: 'Swapped 1 ETH for 1 DAI and 0.1 ETH',
    });
    // The same token back (a refund) is no swap; nor is ETH for ETH.
    expect(c({ moves: [usdc(W, Y, 3_000_000n), usdc(Y, W, 1_000_000n)] })).toEqual({ category: 'token send', summary: 'Sent 3 USDC' });
    expect(c({ moves: [eth(W, Y, 3n), eth(Y, W, 1n)], to: Y })).toEqual({ category: 'send', summary: 'Sent 0.000000000000000003 ETH' });
  });

  it('sums several movements of one token, and lists different tokens with “and”', () => {
    expect(c({ moves: [usdc(W, X, 1_000_000n), usdc(W, Y, 500_000n)] }).summary).toBe('Sent 1.5 USDC');
    expect(c({ moves: [usdc(W, X, 1_000_000n), dai(W, Y, 10n ** 18n)] }).summary).toBe('Sent 1 USDC and 1 DAI');
  });

  it('token mints: an airdrop when someone else sent it, a mint when the wallet did', () => {
    expect(c({ sender: X, moves: [usdc(ZERO, W, 5_000_000n)] })).toEqual({ category: 'airdrop', summary: 'Received 5 USDC airdrop' });
    expect(c({ moves: [usdc(ZERO, W, 5_000_000n)] })).toEqual({ category: 'mint', summary: 'Minted 5 USDC' });
    expect(c({ moves: [usdc(ZERO, X, 5_000_000n)] })).toEqual({ category: 'mint', summary: 'Minted 5 USDC to 0x2222…2222' });
    // Minting to others while also paying is a send, and someone else's mint to others is nothing of ours.
    expect(c({ moves: [usdc(ZERO, X, 5_000_000n), eth(W, X, 1n)] }).category).toBe('send');
    expect(c({ sender: X, moves: [usdc(ZERO, Y, 5_000_000n)] }).category).toBe('contract interaction');
  });

  it('ETH or tokens moving between others in the wallet’s transaction are not a mint', () => {
    expect(c({ moves: [eth(X, Y, 1n)] })).toEqual({ category: 'contract interaction', summary: 'Interacted with 0x2222…2222' });
    expect(c({ moves: [usdc(X, Y, 1n)] })).toEqual({ category: 'contract interaction', summary: 'Interacted with 0x2222…2222' });
  });

  it('token burns', () => {
    expect(c({ moves: [dai(W, ZERO, 10n ** 18n)] })).toEqual({ category: 'burn', summary: 'Burned 1 DAI' });
  });

  it('plain sends and receives, tokens before native', () => {
    expect(c({ moves: [usdc(W, X, 1n)] })).toEqual({ category: 'token send', summary: 'Sent 0.000001 USDC' });
    expect(c({ sender: X, moves: [usdc(X, W, 1n)] })).toEqual({ category: 'token receive', summary: 'Received 0.000001 USDC' });
    expect(c({ moves: [eth(W, X, 10n ** 18n)] })).toEqual({ category: 'send', summary: 'Sent 1 ETH' });
    expect(c({ sender: X, moves: [eth(X, W, 2n * 10n ** 18n)] })).toEqual({ category: 'receive', summary: 'Received 2 ETH' });
    expect(c({ moves: [usdc(W, X, 1n), eth(W, X, 1n)] }).category).toBe('token send');
    expect(c({ sender: X, moves: [usdc(X, W, 1n), eth(X, W, 1n)] }).category).toBe('token receive');
  });

  it('amounts of tokens without decimals are whole numbers', () => {
    const raw: Movement = { ...usdc(W, X, 1234n), decimals: null, symbol: 'RAW' };
    expect(c({ moves: [raw] }).summary).toBe('Sent 1234 RAW');
  });

  it('movements to oneself move nothing: a contract interaction', () => {
    expect(c({ moves: [eth(W, W, 1n)] })).toEqual({ category: 'contract interaction', summary: 'Interacted with 0x2222…2222' });
    expect(c({ moves: [], methodLabel: 'poke' })).toEqual({ category: 'contract interaction', summary: 'Called poke on 0x2222…2222' });
    expect(c({ moves: [], to: null })).toEqual({ category: 'contract interaction', summary: 'Interacted with a contract' });
  });
});

describe('method labels from the selector alone (history rows)', async () => {
  const table = await signatureTable();
  const label = (selector: string | null) => methodNameOf(selector, { exact: [], table }).name;
  it('names well-known selectors, and nothing else', () => {
    expect(label('0xa9059cbb')).toBe('transfer');
    expect(label(toFunctionSelector('function safeTransferFrom(address,address,uint256,bytes)'))).toBe('safeTransferFrom');
    expect(label(toFunctionSelector('function swapExactETHForTokens(uint256,address[],address,uint256)'))).toBe('swapExactETHForTokens');
    expect(label('0xdeadbeef')).toBeNull();
    expect(label(null)).toBeNull();
  });
});
