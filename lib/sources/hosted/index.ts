import 'server-only';
import { decodeOffline } from '@/lib/decode';
import { allChains } from '@/lib/chains';
import { resyncWaits } from '@/lib/interface/nft-resync';
import type { EvmSources, SignInSource } from '@/lib/sources/types';
import { hostedActiveChains } from './active-chains';
import { hostedApprovals, hostedErc20Balances, hostedTokenBalances, hostedWalletStats } from './wallet-holdings';
import { hostedRequestChallenge, hostedVerifyChallenge } from './auth';
import { hostedNativeBalance } from './balance';
import { hostedResyncNft } from './nft-resync';
import { hostedTransaction } from './transaction';
import { hostedWalletHistory } from './wallet-history';
import { hostedWalletNfts } from './wallet-nfts';

export { hostedLedger } from './ledger';

/**
 * The hosted data API's implementations of the source interfaces (lib/sources/types.ts), for every chain
 * it answers (each request names its chain). It does not say its head, so answers are kept by time, not by block.
 */
export const hostedEvm: EvmSources = {
  kind: 'hosted',
  chain: { head: async () => null, mark: async () => null, markNow: () => null, reorgDepth: () => null },
  history: { history: hostedWalletHistory, coverage: async () => null },
  nfts: { nfts: hostedWalletNfts },
  balance: { nativeBalance: async (address, chain) => (await hostedNativeBalance(address, chain)).balance },
  transaction: {
    transaction: async (hash, chain, opts) => ({ tx: await hostedTransaction(hash, chain, opts), final: null }),
    // The hosted API's own decoding covers what it knows; Lantern adds the shipped table's names offline.
    decode: (_chain, parts) => decodeOffline(parts),
  },
  // The hosted API queues an async resync (202) and answers a sync one (200).
  nftResync: { resync: async (chain, contract, tokenId, q) => ({ httpStatus: resyncWaits(q) ? 200 : 202, answer: await hostedResyncNft(chain, contract, tokenId, q) }) },
  holdings: { tokens: hostedTokenBalances, erc20: hostedErc20Balances, approvals: hostedApprovals, stats: hostedWalletStats },
  activeChains: { activeChains: hostedActiveChains },
  tokenFacts: null,
  activity: null,
  follow: null,
  devnetWallet: null,
};

export const hostedSignIn: SignInSource = {
  requestChallenge: hostedRequestChallenge,
  verifyChallenge: hostedVerifyChallenge,
  // The hosted auth API decides which chains it signs in on.
  chains: async () => 'any',
  offeredChains: () => allChains.filter((x) => !x.devnet).map((x) => x.id),
};
