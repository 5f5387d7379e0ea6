import 'server-only';
import { formatUnits } from 'viem';
import { ZERO_ADDRESS, truncateMiddle } from '@/lib/format';

/**
 * Category and one-line summary of a transaction as seen by one wallet, in the hosted API's words
 * (ETransactionCategory: send, receive, token send, token receive, nft send, nft receive, token swap,
 * nft purchase, nft sale, airdrop, mint, burn, contract interaction). The method label comes from the
 * decoder (./decode.ts).
 */

export interface Movement {
  kind: 'native' | 'erc20' | 'nft';
  token: string; // contract, or 'native'
  symbol: string;
  decimals: number | null;
  from: string;
  to: string;
  value: bigint; // amount for NFTs
  tokenId?: string;
  name?: string | null;
  spam: boolean;
}

export interface CategoryInput {
  wallet: string;
  sender: string;
  to: string | null;
  status: 0 | 1;
  createdContract: string | null;
  selector: string | null;
  methodLabel: string | null;
  moves: Movement[];
}

const short = (a: string) => truncateMiddle(a);

function amount(value: bigint, decimals: number | null): string {
  return decimals === null ? value.toString() : formatUnits(value, decimals);
}

/** "120.5 USDC" for one token, summing several movements of it. */
function total(moves: Movement[]): string {
  const byToken = new Map<string, { sum: bigint; m: Movement }>();
  for (const m of moves) {
    const t = byToken.get(m.token);
    if (t) t.sum += m.value;
    else byToken.set(m.token, { sum: m.value, m });
  }
  return [...byToken.values()].map(({ sum, m }) => `${amount(sum, m.decimals)} ${m.symbol}`).join(' and ');
}

function nftText(moves: Movement[]): string {
  if (moves.length === 1) {
    const m = moves[0];
    const label = m.name ?? m.symbol;
    return m.value > 1n ? `${m.value} × ${label} #${m.tokenId}` : `${label} #${m.tokenId}`;
  }
  const names = [...new Set(moves.map((m) => m.name ?? m.symbol))];
  return `${moves.length} NFTs (${names.join(', ')})`;
}

export function categorise(i: CategoryInput): { category: string; summary: string } {
  const w = i.wallet;
  const { moves } = i;
  const fungible = moves.filter((m) => m.kind !== 'nft');
  const nfts = moves.filter((m) => m.kind === 'nft');
  const out = fungible.filter((m) => m.from === w && m.to !== w);
  const inn = fungible.filter((m) => m.to === w && m.from !== w);
  const nftOut = nfts.filter((m) => m.from === w && m.to !== w);
  const nftIn = nfts.filter((m) => m.to === w && m.from !== w);
  const sentIt = i.sender === w;

  if (i.status === 0) {
    const what = i.methodLabel ? `${i.methodLabel} on ${short(i.to ?? ZERO_ADDRESS)}` : `transaction to ${short(i.to ?? ZERO_ADDRESS)}`;
    return { category: i.selector === null ? 'send' : 'contract interaction', summary: `Failed ${what}` };
  }
  if (i.createdContract && sentIt) return { category: 'contract interaction', summary: `Created contract ${short(i.createdContract)}` };

  // NFTs first: a purchase pays in tokens or ETH, a sale is paid.
  if (nftIn.length > 0 || nftOut.length > 0) {
    if (nftIn.some((m) => m.from === ZERO_ADDRESS)) return { category: 'mint', summary: `Minted ${nftText(nftIn)}` };
    if (nftOut.some((m) => m.to === ZERO_ADDRESS)) return { category: 'burn', summary: `Burned ${nftText(nftOut)}` };
    if (nftIn.length > 0 && out.length > 0) return { category: 'nft purchase', summary: `Bought ${nftText(nftIn)} for ${total(out)}` };
    if (nftOut.length > 0 && inn.length > 0) return { category: 'nft sale', summary: `Sold ${nftText(nftOut)} for ${total(inn)}` };
    if (nftOut.length > 0) return { category: 'nft send', summary: `Sent ${nftText(nftOut)} to ${short(nftOut[0].to)}` };
    return { category: 'nft receive', summary: `Received ${nftText(nftIn)} from ${short(nftIn[0].from)}` };
  }

  const outTokens = new Set(out.map((m) => m.token));
  const inTokens = new Set(inn.map((m) => m.token));
  const swapped = out.length > 0 && inn.length > 0 && [...inTokens].some((t) => !outTokens.has(t)) && (out.some((m) => m.kind === 'erc20') || inn.some((m) => m.kind === 'erc20'));
  if (swapped) return { category: 'token swap', summary: `Swapped ${total(out)} for ${total(inn)}` };

  const minted = inn.filter((m) => m.kind === 'erc20' && m.from === ZERO_ADDRESS);
  if (minted.length > 0) {
    // Tokens minted to a wallet that did not ask for them are an airdrop (spam or not).
    if (!sentIt) return { category: 'airdrop', summary: `Received ${total(minted)} airdrop` };
    return { category: 'mint', summary: `Minted ${total(minted)}` };
  }
  const burned = out.filter((m) => m.kind === 'erc20' && m.to === ZERO_ADDRESS);
  if (burned.length > 0) return { category: 'burn', summary: `Burned ${total(burned)}` };
  if (sentIt) {
    const mintedToOthers = fungible.filter((m) => m.kind === 'erc20' && m.from === ZERO_ADDRESS);
    if (mintedToOthers.length > 0 && out.length === 0) return { category: 'mint', summary: `Minted ${total(mintedToOthers)} to ${short(mintedToOthers[0].to)}` };
  }

  const tokenOut = out.filter((m) => m.kind === 'erc20');
  const tokenIn = inn.filter((m) => m.kind === 'erc20');
  if (tokenOut.length > 0) return { category: 'token send', summary: `Sent ${total(tokenOut)}` };
  if (tokenIn.length > 0) return { category: 'token receive', summary: `Received ${total(tokenIn)}` };
  if (out.length > 0) return { category: 'send', summary: `Sent ${total(out)}` };
  if (inn.length > 0) return { category: 'receive', summary: `Received ${total(inn)}` };

  const target = i.to ? short(i.to) : 'a contract';
  return { category: 'contract interaction', summary: i.methodLabel ? `Called ${i.methodLabel} on ${target}` : `Interacted with ${target}` };
}
