import 'server-only';
import { db } from '@/lib/db';
import type {
  BalanceSource,
  EvmChainSource,
  NftResyncSource,
  TokenFactsSource,
  TransactionSource,
  WalletActivitySource,
  WalletHistorySource,
  WalletHoldingsSource,
  WalletNftSource,
} from '@/lib/sources/types';
import { nodeApprovals } from './approvals';
import { nodeErc20Balances, nodeTokenBalances } from './holdings';
import { nodeWalletStats } from './wallet-stats';
import { nodeNativeBalance } from './balance';
import { nodeRequestChain, nodeWalletHistory, nodeWalletNfts } from './index';
import { nodeResyncNft } from './nft-resync';
import { historyCoverageWithin } from './capabilities';
import { chainMark } from './chain';
import { headBlock, reorgDepth } from './rpc';
import { tokenFactsMany } from './tokens';
import { nodeTransaction } from './transaction';
import { decodeTransaction } from './decode';
import { walletIndexState } from './activity';

/**
 * The EVM node source's implementations of the source interfaces (lib/sources/types.ts). It reads at
 * the node's head, so operations key their caches by block.
 */
export const nodeChains: EvmChainSource = { requestChain: nodeRequestChain, head: headBlock, mark: chainMark, reorgDepth };

export const nodeHistory: WalletHistorySource = { history: nodeWalletHistory, coverage: historyCoverageWithin };

export const nodeNfts: WalletNftSource = { nfts: nodeWalletNfts };

export const nodeBalance: BalanceSource = {
  nativeBalance: async (address, chain, block) => nodeNativeBalance(address, chain, block ?? (await headBlock())),
};

export const nodeTx: TransactionSource = { transaction: nodeTransaction, decode: (chain, parts) => decodeTransaction(chain.id, parts) };

export const nodeHoldings: WalletHoldingsSource = { tokens: nodeTokenBalances, erc20: nodeErc20Balances, approvals: nodeApprovals, stats: nodeWalletStats };

export const nodeNftResync: NftResyncSource = {
  resync: (chain, contract, tokenId, q) => nodeResyncNft(chain, contract.toLowerCase(), tokenId, q),
};

export const nodeTokenFacts: TokenFactsSource = { tokenFacts: tokenFactsMany };

export const nodeActivity: WalletActivitySource = {
  async state(chain, address) {
    const wallet = address.toLowerCase();
    const { complete } = await walletIndexState(chain.id, wallet);
    if (!complete) return { complete, transactionCount: null };
    const { rows } = await (await db()).query<{ n: string }>('SELECT count(*) AS n FROM evm_wallet_activity WHERE chain_id = $1 AND address = $2', [
      chain.id,
      wallet,
    ]);
    return { complete, transactionCount: Number(rows[0]!.n) };
  },
};
