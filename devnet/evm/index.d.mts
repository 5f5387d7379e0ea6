// Types of devnet/evm/index.mjs for TypeScript callers (app code, tests, benchmarks).

export const CHAIN_ID: 31337;
export const MNEMONIC: string;
export const ANVIL_ARGS: string[];
export const ACCOUNTS: Record<string, { index: number; role: string }>;
/** Far Lanterns (curator's ERC-721): token URIs off chain, `ipfs://<FAR_LANTERNS_CID>/<n>.json`. */
export const FAR_LANTERNS_CID: string;
export const FAR_LANTERN_URIS: string[];

export type Address = `0x${string}`;
export type TxKind =
  | 'deploy' | 'factory_deploy' | 'eth_send' | 'erc20_transfer' | 'erc20_mint' | 'erc20_burn' | 'approve'
  | 'swap' | 'multisend' | 'airdrop' | 'nft_mint' | 'nft_transfer' | 'nft_burn' | 'erc1155_mint'
  | 'erc1155_transfer' | 'erc1155_batch' | 'erc1155_burn' | 'wallet_execute' | 'contract_call' | 'revert';

export interface ManifestTransaction {
  hash: Address;
  blockNumber: number;
  blockHash: Address;
  transactionIndex: number;
  /** Block timestamp, seconds. */
  timestamp: number;
  /** The same as an ISO string. */
  time: string;
  from: Address;
  /** null for a contract creation. */
  to: Address | null;
  nonce: number;
  /** Wei, decimal string. */
  value: string;
  kind: TxKind;
  note: string;
  /** 1 success, 0 reverted (mined). */
  status: 0 | 1;
  gasUsed: string;
  effectiveGasPrice: string;
  contractAddress: Address | null;
  /** Contracts created by the transaction, directly or by a factory (CREATE/CREATE2). */
  createdContracts: Address[];
  /** Top-level value (internal: false) and value moved by internal calls (internal: true). Empty when reverted. */
  nativeTransfers: { from: Address; to: Address; value: string; formatted: string; internal: boolean }[];
  /** ERC-20 Transfer logs (mints from and burns to the zero address included). */
  tokenTransfers: {
    token: Address; tokenKey: string; from: Address; to: Address; value: string;
    formatted: string | null; symbol: string | null; logIndex: number;
  }[];
  /** ERC-721 Transfer and ERC-1155 TransferSingle/TransferBatch (one row per id of a batch). */
  nftTransfers: {
    contract: Address; standard: 'erc721' | 'erc1155'; from: Address; to: Address; tokenId: string; amount: string;
    logIndex: number; operator?: Address; batchIndex?: number;
  }[];
  /** Every call below the top level (callTracer), with depth >= 1. */
  internalCalls: { type: string; from: Address; to: Address | null; value: string; depth: number }[];
  /** Every address the transaction touches (sender, recipient, created, internal-call and transfer parties), lowercase, sorted, zero address excluded. */
  parties: Address[];
  partyNames: (string | null)[];
}

export interface ManifestContract {
  address: Address;
  artifact: string;
  kind: 'erc20' | 'erc721' | 'erc1155' | 'multisend' | 'factory' | 'pool' | 'guard' | 'smart_wallet';
  deployer: string;
  createdBy: 'eoa' | 'factory';
  deployTx: Address;
  blockNumber: number;
  txCount: number;
  name?: string;
  symbol?: string;
  decimals?: number;
  possibleSpam?: boolean;
  owner?: string;
  salt?: Address;
  spam?: boolean;
  /** The holder's odd tokens (holdings.mjs): what makes each one hard to read right. */
  rebasing?: boolean;
  feeOnTransfer?: boolean;
  legacy?: boolean;
  balanceReverts?: boolean;
}

/** What a wallet holds at the last block and who may spend it, read from the chain (seed.mjs readHoldings). */
export interface ManifestHoldings {
  address: Address;
  /** Every ERC-20 whose Transfer logs name the wallet: balanceOf at the last block (null: it reverts). */
  tokens: { token: Address; tokenKey: string; balance: string | null }[];
  /** Every pair its Approval / ApprovalForAll logs name: allowance, or isApprovedForAll as '1' / '0'. */
  approvals: { kind: 'erc20' | 'operator'; token: Address; tokenKey: string; spender: Address; spenderName: string | null; value: string | null }[];
}

export interface Manifest {
  schema: 'lantern-devnet-evm-scenario/1';
  chainId: 31337;
  chainIdHex: '0x7a69';
  mnemonic: string;
  genesisTimestamp: number;
  anvilArgs: string[];
  stats: {
    transactions: number; blocks: number; reverted: number; firstBlock: number; lastBlock: number;
    firstTimestamp: number; lastTimestamp: number; days: number; kinds: Record<string, number>;
  };
  accounts: Record<string, {
    address: Address; checksumAddress: Address; index: number; role: string; txCount: number; sentCount: number;
  }>;
  contracts: Record<string, ManifestContract>;
  eip1271: {
    wallet: Address; owner: Address; ownerIndex: number; magicValue: '0x1626ba7e'; checks: string;
    counterfactual: { owner: Address; salt: Address; factory: Address; factoryData: Address; address: Address; note: string };
  };
  transactions: ManifestTransaction[];
  final_nft_ownership: {
    contract: Address; contractKey: string; standard: 'erc721' | 'erc1155'; tokenId: string; owner: Address;
    ownerName: string | null; amount: string;
  }[];
  /** tokenKey -> holder -> raw balance (decimal string), non-zero only; replayed from the logs, so not rLNT or BROKEN. */
  final_token_balances: Record<string, Record<Address, string>>;
  holdings: { holder: ManifestHoldings; merchant: ManifestHoldings };
}

export interface EvmDevnet {
  url: string;
  chainId: 31337;
  stop(): Promise<void>;
  manifest: Manifest;
  pid: number;
  /** true when served from the cached state file. */
  warm: boolean;
  startupMs: number;
}

export function startEvmDevnet(options?: {
  port?: number;
  host?: string;
  log?: (line: string) => void;
  /** Default DEVNET_CACHE_DIR or <repo>/.data/devnet. */
  cacheDir?: string;
  /** Rebuild the cached state. */
  fresh?: boolean;
}): Promise<EvmDevnet>;

export function seedSyntheticWallet(options: {
  rpcUrl: string;
  count?: number;
  perBlock?: number;
  log?: (line: string) => void;
}): Promise<{ address: Address; token: Address; count: number; firstBlock: number; lastBlock: number; ms: number }>;

export function loadManifest(): Manifest;
export function transactionsTouching(manifest: Manifest, address: string): ManifestTransaction[];
export function stateKey(): string;
/** Deterministic PRNG (mulberry32): numbers in [0, 1), the same sequence for the same seed. */
export function prng(seed: number): () => number;
