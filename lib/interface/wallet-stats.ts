import { z } from 'zod';
import { decimalString, queryChain } from './common';

/**
 * A wallet's counts: GET {base_url}/api/v2.2/wallets/{address}/stats. The provider documents every count
 * as a decimal string; a number is accepted and kept as its string. Unknown keys are kept.
 */
const total = z.looseObject({ total: decimalString });

export const walletStatsSchema = z.looseObject({
  nfts: decimalString,
  collections: decimalString,
  transactions: total,
  nft_transfers: total,
  token_transfers: total,
});
export type WalletStats = z.output<typeof walletStatsSchema>;

export const walletStatsQuerySchema = z.object({ chain: queryChain });
export type WalletStatsQuery = z.output<typeof walletStatsQuerySchema>;
