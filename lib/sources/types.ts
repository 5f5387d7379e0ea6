import 'server-only';
import type { Chain, ChainService, ServedChain } from '@/lib/chains';
import type { ActiveChain } from '@/lib/interface/active-chains';
import type { ChallengeRequestBody, ChallengeResponse, VerifyBody, VerifyResult } from '@/lib/interface/auth';
import type { HistoryPage, HistoryQuery } from '@/lib/interface/history';
import type { LedgerBlock, LedgerNetworkName } from '@/lib/interface/ledger';
import type { NftResyncAnswer, NftResyncQuery } from '@/lib/interface/nft-resync';
import type { NftPage, NftQuery } from '@/lib/interface/nfts';
import type { DecodeParts, TransactionDecoding } from '@/lib/decode';
import type { TransactionDetail } from '@/lib/interface/transaction';
import type { ApprovalsPage, ApprovalsQuery } from '@/lib/interface/approvals';
import type { Erc20Balance, Erc20BalancesQuery, TokenBalancesPage, TokenBalancesQuery } from '@/lib/interface/tokens';
import type { WalletStats } from '@/lib/interface/wallet-stats';
import type { CircuitBreaker } from './breaker';

/**
 * What each capability of a source promises, whatever answers it. lib/sources/index.ts picks one
 * implementation per capability from the configuration; operations see only these interfaces. Each
 * source folder (hosted/, evm-node/, ledger-node/, siwe-local/, ens/) implements some of them and never
 * imports another source folder.
 */

/** Which family of sources answers: part of every cache key, so hosted and node answers never mix. */
export type SourceKind = 'hosted' | 'node';

/** What an EVM source can say of the chain it reads, for cache keys: its head, where it can tell. */
export interface EvmChainSource {
  /** The head block answers are read at (shared for a second); null when the source does not say (hosted). */
  head(): Promise<number | null>;
  /**
   * Which chain answers are read from, for cache keys: `epoch` changes when the node is no longer on the
   * chain Lantern indexed (a reorg past a kept block, a reset); `head` is `epoch@block`. Null when the
   * source does not say (hosted).
   */
  mark(): Promise<{ epoch: string; head: string } | null>;
  /** What mark() would give now if it can say without waiting on anything; undefined when it cannot. */
  markNow(): { epoch: string; head: string } | null | undefined;
  /** Blocks this close to the head may still be replaced by a reorg; null when the source does not say. */
  reorgDepth(): number | null;
}

/** A head of a chain as Lantern checked it against what it indexed (evm-node/chain.ts): its epoch included. */
export interface CheckedHead {
  chainId: number;
  number: number;
  hash: string;
  parentHash: string;
  epoch: number;
}

/** What a source that reads chains itself offers live pages (lib/live): their heads, and what reorgs took away. */
export interface ChainFollowSource {
  /**
   * Follows the chain's new heads until `signal` aborts (one `eth_subscribe newHeads`, or one polling
   * loop), checking each against what was indexed (a reorg raises the epoch and drops what it replaced)
   * before passing it to `onHead`. `onTransport` hears how heads arrive.
   */
  follow(
    chainId: number,
    onHead: (head: CheckedHead) => Promise<void>,
    signal: AbortSignal,
    onTransport?: (t: 'websocket' | 'polling') => void,
  ): Promise<void>;
  /** A head another instance followed: taken as this instance's head (no node call). */
  heard(head: CheckedHead): Promise<void>;
  /** The checked head now, agreeing with the database (another instance may have found a reorg). */
  current(chainId: number): Promise<CheckedHead>;
  /**
   * The reorgs that took the chain from epoch `from` to epoch `to`: the lowest block they forked at and
   * the wallet's transactions they dropped; null when that is not known any more (older than a day,
   * another genesis, a reorg too big to record).
   */
  reorgsBetween(chainId: number, address: string, from: number, to: number): Promise<{ fork: number; removed: string[] } | null>;
}

/** Which transactions a source's histories can hold, in words (a node without ots_/trace_ cannot find every one). */
export interface HistoryCoverage {
  /** Every transaction of the rule (docs/evm-node.md) is found; null when not known yet. */
  complete: boolean | null;
  /** How a wallet's transactions are found, in the order they are asked for. */
  found_with?: string[];
  /** Which transactions are not shown, in words; null when none. */
  missing: string | null;
}

export interface WalletHistorySource {
  /**
   * `traces: 'later'` (a wallet page's first sight only; never the published API, whose callers cannot
   * take partial rows): a source may answer before it has read internal transfers, marking each such row
   * `internal_pending: true`. A source that cannot ignores it and answers complete rows.
   */
  history(address: string, chain: Chain, query: HistoryQuery, opts?: { traces?: 'later' }): Promise<HistoryPage>;
  /** What this source's histories (of the chain it was picked for) can hold, known within `ms`; null when the source does not say (hosted). */
  coverage(ms: number): Promise<HistoryCoverage | null>;
}

/** Where a wallet is active: its first and last transaction on each chain asked (null on a chain where it has none). */
export interface ActiveChainsSource {
  /** One answer per chain of `chains`, in their order; every chain is one this source was picked for. */
  activeChains(address: string, chains: Chain[]): Promise<ActiveChain[]>;
}

export interface WalletNftSource {
  nfts(address: string, chain: Chain, query: NftQuery): Promise<NftPage>;
}

/** What a wallet holds and who may spend it (token balances, approvals), and its counts. */
export interface WalletHoldingsSource {
  tokens(address: string, chain: Chain, query: TokenBalancesQuery): Promise<TokenBalancesPage>;
  erc20(address: string, chain: Chain, query: Erc20BalancesQuery): Promise<Erc20Balance[]>;
  approvals(address: string, chain: Chain, query: ApprovalsQuery): Promise<ApprovalsPage>;
  stats(address: string, chain: Chain): Promise<WalletStats>;
}

export interface BalanceSource {
  /** Native balance in wei (decimal string), at `block` when the source reads at a head. */
  nativeBalance(address: string, chain: Chain, block: number | null): Promise<string>;
}

export interface TransactionSource {
  /** `final`: the block is below the reorg depth (true), may still change (false), or unknown (null). */
  transaction(hash: string, chain: Chain, opts: { verbose: boolean; internal: boolean }): Promise<{ tx: TransactionDetail; final: boolean | null }>;
  /**
   * Names a transaction's call, logs and internal calls with everything this source can know (lib/decode:
   * node mode reads contracts, proxies and verified ABIs; a source that cannot read the chain names them
   * from the shipped signature table alone).
   */
  decode(chain: Chain, parts: DecodeParts): Promise<TransactionDecoding>;
}

export interface NftResyncSource {
  resync(chain: Chain, contract: string, tokenId: string, q: NftResyncQuery): Promise<{ httpStatus: 200 | 202; answer: NftResyncAnswer }>;
}

/** What the transaction page names tokens by: only a source that reads the chain itself can say. */
export interface TokenFacts {
  name: string | null;
  symbol: string | null;
  decimals: number | null;
}

export interface TokenFactsSource {
  tokenFacts(chainId: number, wanted: { address: string; hint: 'erc20' | 'erc721' | 'erc1155' }[]): Promise<Map<string, TokenFacts>>;
}

/** A count the source keeps of a wallet's transactions (node mode's activity index). */
export interface WalletActivitySource {
  /**
   * How much of the wallet's history the source has read so far: `complete` once every window back to
   * the chain's first block is read (older ones are read in the background); the number of transactions
   * only then (null before).
   */
  state(chain: Chain, address: string): Promise<{ complete: boolean; transactionCount: number | null }>;
}

export interface SignInSource {
  requestChallenge(body: ChallengeRequestBody): Promise<ChallengeResponse>;
  verifyChallenge(body: VerifyBody): Promise<VerifyResult>;
  /** Chain ids a person may sign in on ('any': the source decides); [] when that cannot be known now. */
  chains(): Promise<number[] | 'any'>;
  /** Chain ids the connect dialog offers (the wallet configuration's chains), given the chains this server serves. */
  offeredChains(served: readonly ServedChain[]): number[];
}

export interface LedgerBlockSource {
  blockByVersion(version: string, withTransactions: boolean): Promise<LedgerBlock>;
  /** Throws the source's 503 at once when it is known to be down or is being probed. */
  assertAvailable(): void;
}

export type EnsResult = { ok: true; address: string } | { ok: false; reason: string };

export interface NameSource {
  resolve(name: string): Promise<EnsResult>;
  /** Primary names of addresses (lower-case address -> name), as many as resolve within a short wait. */
  reverse(addresses: string[]): Promise<Record<string, string>>;
}

/** One line of the home page's "Sources in use" table: hosts only, since URLs may carry keys. */
export interface SourceDescription {
  operation: string;
  /** The chain (or chains, or ledger network) the line is about, in words. */
  chain: string;
  source: string;
  host: string;
}

/**
 * An upstream health checks: through its breaker, by a JSON-RPC eth_chainId or a plain GET. EVM nodes are
 * grouped (`group: 'evm_nodes'`) and named by chain; a node not heard from yet has no breaker and is
 * reported as `pending`.
 */
export interface SourceProbe {
  name: string;
  group?: 'evm_nodes';
  breaker: CircuitBreaker | null;
  url: string;
  check: 'rpc' | 'reach';
  /** For EVM nodes: the chain's hex id and the node's host, reported beside the check. */
  about?: { chain_id: string | null; host: string };
  /** Why it is not checked (an EVM node that has not said its chain, or was refused). */
  pending?: string;
}

/** The sources of one EVM chain, picked in lib/sources/index.ts: its node's, else the hosted API's. */
export interface EvmSources {
  /** Part of every cache key, so a chain's node and hosted answers never mix. */
  kind: SourceKind;
  chain: EvmChainSource;
  history: WalletHistorySource;
  nfts: WalletNftSource;
  balance: BalanceSource;
  holdings: WalletHoldingsSource;
  transaction: TransactionSource;
  nftResync: NftResyncSource;
  activeChains: ActiveChainsSource;
  tokenFacts: TokenFactsSource | null;
  activity: WalletActivitySource | null;
  /** Null where the source does not read the chain itself (hosted): live pages poll first pages instead. */
  follow: ChainFollowSource | null;
  /** The devnet connector's wallet calls, sent to the local devnet's node; null on any other chain, and in hosted mode. */
  devnetWallet: DevnetWalletSource | null;
}

/** The few node calls a wallet needs to send a transaction it signed itself (nonce, gas, fees, the signed bytes). */
export interface DevnetWalletSource {
  request(method: DevnetWalletMethod, params: unknown[]): Promise<unknown>;
}
export type DevnetWalletMethod = 'eth_getTransactionCount' | 'eth_estimateGas' | 'eth_getBlockByNumber' | 'eth_sendRawTransaction';

/** The configuration's choice, made once in lib/sources/index.ts. */
export interface Sources {
  /** Who answers sign-in and the mainnet/testnet ledgers: the hosted API when DATA_API_KEY is set. */
  kind: SourceKind;
  /** The chains this server serves and by which family, the default chain, nodes not heard from yet: the chain rule's input. */
  chains(): Promise<ChainService>;
  /** The sources of a served chain: the choice per (operation, chain), made here and nowhere else. */
  evm(chain: Chain): EvmSources;
  signIn: SignInSource;
  ledger(network: LedgerNetworkName): LedgerBlockSource;
  names: NameSource;
  /** Which source answers what, per chain, safe to show anyone (hosts only). */
  describe(): Promise<SourceDescription[]>;
  probes(): Promise<SourceProbe[]>;
  /** What wallet histories can hold on each node-read chain (name -> coverage), known within `ms`. */
  coverage(ms: number): Promise<Record<string, HistoryCoverage>>;
  /** Start-up: each EVM node asked its chain id within `waitMs`; refusals (wrong chain, two nodes for one) stop the server. */
  checkNodes(waitMs: number): Promise<{ refused: string[]; unreachable: string[] }>;
}
