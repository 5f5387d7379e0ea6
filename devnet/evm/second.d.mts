// Types of devnet/evm/second.mjs for TypeScript callers (tests, app code).
import type { PrivateKeyAccount } from 'viem';
import type { HDAccount } from 'viem/accounts';

export const CHAIN_ID_2: 31338;
export const GENESIS_TIMESTAMP_2: number;
export const SECOND_ANVIL_ARGS: string[];
export const SECOND_ACCOUNTS: Record<'deployer' | 'alice' | 'bob' | 'nadia', { index: number; role: string }>;

export interface SecondTransaction {
  hash: `0x${string}`;
  blockNumber: number;
  transactionIndex: number;
  note: string;
  from: `0x${string}`;
  to: `0x${string}` | null;
  value: string;
  /** Every address the transaction touches (sender, recipient, created contract, token/NFT transfer parties), lowercase, sorted. */
  parties: `0x${string}`[];
  partyNames: (string | null)[];
}

export interface SecondManifest {
  chainId: 31338;
  chainIdHex: '0x7a6a';
  stats: { transactions: number; lastBlock: number; lastTimestamp: number };
  accounts: Record<'deployer' | 'alice' | 'bob' | 'nadia', { address: `0x${string}`; checksumAddress: `0x${string}`; index: number; role: string; txCount: number }>;
  contracts: Record<'d2d' | 'lights2', { address: `0x${string}`; artifact: string; name: string; symbol: string; decimals?: number }>;
  transactions: SecondTransaction[];
}

export function secondSigners(): Record<'deployer' | 'alice' | 'bob' | 'nadia', HDAccount | PrivateKeyAccount>;
export function seedSecond(o: { rpcUrl: string }): Promise<SecondManifest>;
export function startSecondDevnet(o?: { port?: number; host?: string; log?: (line: string) => void }): Promise<{
  url: string;
  chainId: 31338;
  stop(): Promise<void>;
  manifest: SecondManifest;
  pid: number;
  startupMs: number;
}>;
export function renderSecondChainMd(): string;
