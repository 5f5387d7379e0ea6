import 'server-only';
import { db } from '@/lib/db';
import { log } from '@/lib/log';
import type {
  BalanceSource,
  ChainFollowSource,
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
import { chainMark, checkHead, currentChain, forksSince, heardHead, removedSince } from './chain';
import { watchNodeHeads } from './heads';
import { assertNodeChain, headBlock, nodeChainId, reorgDepth, type HeadInfo } from './rpc';
import { DEVNET_CHAIN, chainById } from '@/lib/chains';
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

export const nodeFollow: ChainFollowSource = {
  async follow(chainId, onHead, signal, onTransport) {
    // Heads are checked and handed on one at a time; a burst of blocks meanwhile is taken as its newest.
    let next: HeadInfo | undefined;
    let busy: Promise<void> | undefined;
    const drain = async () => {
      while (next && !signal.aborted) {
        const h = next;
        next = undefined;
        try {
          const c = await checkHead(chainId, h);
          await onHead({ chainId, number: c.head, hash: c.hash, parentHash: c.hash === h.hash ? h.parentHash : '', epoch: c.epoch });
        } catch (e) {
          log().warn({ chainId, head: h.number, code: (e as { code?: string }).code, err: (e as Error).message }, 'head follower: a head could not be checked; the next one will be');
        }
      }
      busy = undefined;
    };
    await watchNodeHeads(
      chainId,
      (h) => {
        next = h;
        busy ??= drain();
      },
      signal,
      onTransport,
    );
    await busy;
  },
  async heard(head) {
    await heardHead(head.chainId, { number: head.number, hash: head.hash, parentHash: head.parentHash });
  },
  async current(chainId) {
    // One node serves one chain: another is the caller's mistake, a 400 naming `chain`.
    if ((await nodeChainId()) !== chainId) await assertNodeChain(chainById(chainId) ?? { ...DEVNET_CHAIN, id: chainId, name: `chain ${chainId}`, hex: `0x${chainId.toString(16)}` });
    const c = await currentChain();
    return { chainId, number: c.head, hash: c.hash, parentHash: '', epoch: c.epoch };
  },
  async reorgsBetween(chainId, address, from, to) {
    const forks = await forksSince(chainId, from);
    // Every epoch from `from` + 1 to `to` must be on record, with what it dropped.
    const known = forks.filter((f) => f.epoch <= to);
    if (known.length !== to - from || known.some((f, i) => f.epoch !== from + 1 + i || f.fork < 0 || !f.logged)) return null;
    return { fork: Math.min(...known.map((f) => f.fork)), removed: await removedSince(chainId, address, from) };
  },
};
