import 'server-only';
import type { Chain } from '@/lib/chains';
import { db } from '@/lib/db';
import type { EvmSources } from '@/lib/sources/types';
import { nodeActiveChain } from './active-chains';
import { nodeApprovals } from './approvals';
import { nodeErc20Balances, nodeTokenBalances } from './holdings';
import { nodeWalletStats } from './wallet-stats';
import { nodeNativeBalance } from './balance';
import { nodeWalletHistory } from './history';
import { nodeWalletNfts } from './nfts';
import { nodeResyncNft } from './nft-resync';
import { historyCoverageWithin } from './capabilities';
import { chainMark } from './chain';
import { headBlock, reorgDepth } from './rpc';
import { tokenFactsMany } from './tokens';
import { nodeTransaction } from './transaction';
import { decodeTransaction } from './decode';
import { walletIndexState } from './activity';

/**
 * The EVM node source's implementations of the source interfaces (lib/sources/types.ts), for one chain:
 * every call goes to that chain's node. It reads at the node's head, so operations key their caches by block.
 */
export function nodeEvm(chain: Chain): EvmSources {
  let s = made.get(chain.id);
  if (!s) made.set(chain.id, (s = make(chain)));
  return s;
}
const made = new Map<number, EvmSources>();

function make(chain: Chain): EvmSources {
  return {
    kind: 'node',
    chain: { head: () => headBlock(chain.id), mark: () => chainMark(chain.id), reorgDepth },
    history: { history: nodeWalletHistory, coverage: (ms) => historyCoverageWithin(chain.id, ms) },
    nfts: { nfts: nodeWalletNfts },
    balance: { nativeBalance: async (address, c, block) => nodeNativeBalance(address, c, block ?? (await headBlock(c.id))) },
    transaction: { transaction: nodeTransaction, decode: (c, parts) => decodeTransaction(c.id, parts) },
    nftResync: { resync: (c, contract, tokenId, q) => nodeResyncNft(c, contract.toLowerCase(), tokenId, q) },
    holdings: { tokens: nodeTokenBalances, erc20: nodeErc20Balances, approvals: nodeApprovals, stats: nodeWalletStats },
    activeChains: { activeChains: (address, chains) => Promise.all(chains.map((c) => nodeActiveChain(address, c))) },
    tokenFacts: { tokenFacts: tokenFactsMany },
    activity: {
      async state(c, address) {
        const wallet = address.toLowerCase();
        const { complete } = await walletIndexState(c.id, wallet);
        if (!complete) return { complete, transactionCount: null };
        const { rows } = await (await db()).query<{ n: string }>('SELECT count(*) AS n FROM evm_wallet_activity WHERE chain_id = $1 AND address = $2', [c.id, wallet]);
        return { complete, transactionCount: Number(rows[0]!.n) };
      },
    },
  };
}
