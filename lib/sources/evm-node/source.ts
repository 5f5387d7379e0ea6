import 'server-only';
import { LOCAL_DEVNETS, type Chain } from '@/lib/chains';
import { db } from '@/lib/db';
import { log } from '@/lib/log';
import type { ChainFollowSource, EvmSources } from '@/lib/sources/types';
import { nodeActiveChain } from './active-chains';
import { nodeApprovals } from './approvals';
import { nodeErc20Balances, nodeTokenBalances } from './holdings';
import { nodeWalletStats } from './wallet-stats';
import { nodeNativeBalance } from './balance';
import { nodeWalletHistory } from './history';
import { nodeWalletNfts } from './nfts';
import { nodeResyncNft } from './nft-resync';
import { historyCoverageWithin } from './capabilities';
import { chainMark, chainMarkNow, checkHead, currentChain, forksSince, heardHead, removedSince } from './chain';
import { watchNodeHeads } from './heads';
import { headBlock, reorgDepth, rpc, type HeadInfo } from './rpc';
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
    chain: { head: () => headBlock(chain.id), mark: () => chainMark(chain.id), markNow: () => chainMarkNow(chain.id), reorgDepth },
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
    follow: nodeFollow,
    // Only the local devnet: its accounts' keys are public, and the connector signs in the browser.
    devnetWallet: LOCAL_DEVNETS.includes(chain) ? { request: (method, params) => rpc(chain.id, method, params) } : null,
  };
}

/** Live pages: the chain's heads, followed by the one instance holding its lease (lib/live). */
const nodeFollow: ChainFollowSource = {
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
    const c = await currentChain(chainId);
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
