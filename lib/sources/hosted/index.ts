import 'server-only';
import { decodeOffline } from '@/lib/decode';
import { allChains, resolveChain } from '@/lib/chains';
import { config } from '@/lib/config';
import { resyncWaits } from '@/lib/interface/nft-resync';
import type {
  BalanceSource,
  EvmChainSource,
  NftResyncSource,
  SignInSource,
  TransactionSource,
  WalletHistorySource,
  WalletHoldingsSource,
  WalletNftSource,
} from '@/lib/sources/types';
import { hostedApprovals, hostedErc20Balances, hostedTokenBalances, hostedWalletStats } from './wallet-holdings';
import { hostedRequestChallenge, hostedVerifyChallenge } from './auth';
import { hostedNativeBalance } from './balance';
import { hostedResyncNft } from './nft-resync';
import { hostedTransaction } from './transaction';
import { hostedWalletHistory } from './wallet-history';
import { hostedWalletNfts } from './wallet-nfts';

export { hostedLedger } from './ledger';

/**
 * The hosted data API's implementations of the source interfaces (lib/sources/types.ts). It does not
 * say its head, so answers are kept by time, not by block.
 */
export const hostedChains: EvmChainSource = {
  requestChain: async (value, operation) => {
    const c = config();
    return resolveChain(value ?? c.defaultChain, operation, { devnet: c.acceptDevnet });
  },
  head: async () => null,
  mark: async () => null,
  reorgDepth: () => null,
};

export const hostedHistory: WalletHistorySource = { history: hostedWalletHistory, coverage: async () => null };

export const hostedNfts: WalletNftSource = { nfts: hostedWalletNfts };

export const hostedBalance: BalanceSource = {
  nativeBalance: async (address, chain) => (await hostedNativeBalance(address, chain)).balance,
};

export const hostedHoldings: WalletHoldingsSource = {
  tokens: hostedTokenBalances,
  erc20: hostedErc20Balances,
  approvals: hostedApprovals,
  stats: hostedWalletStats,
};

export const hostedTx: TransactionSource = {
  transaction: async (hash, chain, opts) => ({ tx: await hostedTransaction(hash, chain, opts), final: null }),
  // The hosted API's own decoding covers what it knows; Lantern adds the shipped table's names offline.
  decode: (_chain, parts) => decodeOffline(parts),
};

export const hostedNftResync: NftResyncSource = {
  // The hosted API queues an async resync (202) and answers a sync one (200).
  resync: async (chain, contract, tokenId, q) => ({ httpStatus: resyncWaits(q) ? 200 : 202, answer: await hostedResyncNft(chain, contract, tokenId, q) }),
};

export const hostedSignIn: SignInSource = {
  requestChallenge: hostedRequestChallenge,
  verifyChallenge: hostedVerifyChallenge,
  // The hosted auth API decides which chains it signs in on.
  chains: async () => 'any',
  offeredChains: () => allChains.filter((x) => !x.devnet).map((x) => x.id),
};
