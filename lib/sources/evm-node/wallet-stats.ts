import 'server-only';
import type { Chain } from '@/lib/chains';
import { LanternError } from '@/lib/errors';
import type { WalletStats } from '@/lib/interface/wallet-stats';
import { walletTransactionCount } from './activity';
import { assertChain } from './node-seam';
import { nodeNftCounts } from './nfts';
import { transferCounts, walletLogs } from './wallet-logs';

/**
 * A wallet's counts at the head: NFTs held and their collections (the NFT index, nfts.ts), transactions
 * (the history's activity index, activity.ts: the same transactions the history lists), ERC-20 transfers
 * and NFT transfers (each id of an ERC-1155 batch) naming it (wallet-logs.ts). A never-seen wallet's
 * indexes are read first; while they are still being read after WAIT_MS (a long history), a 503 says so.
 */

const WAIT_MS = 60_000;

export async function nodeWalletStats(address: string, chain: Chain): Promise<WalletStats> {
  await assertChain(chain);
  const wallet = address.toLowerCase();
  const [nfts, transactions, transfers] = await Promise.all([
    nodeNftCounts(chain, wallet, WAIT_MS),
    walletTransactionCount(chain.id, wallet, WAIT_MS),
    walletLogs(chain, wallet, { early: ['erc20', 'nft'] }).then((at) => transferCounts(chain, wallet, at)),
  ]);
  if (nfts === null || transactions === null) {
    throw new LanternError(503, 'upstream_unavailable', "Lantern is still reading this wallet's history from the EVM node; ask again in a few seconds.", {
      retryAfter: 5,
      source: 'evm-node',
    });
  }
  return {
    nfts: String(nfts.nfts),
    collections: String(nfts.collections),
    transactions: { total: String(transactions) },
    nft_transfers: { total: String(transfers.nft) },
    token_transfers: { total: String(transfers.token) },
  };
}
