export interface Devnet {
  url: string;
  stop(): Promise<void>;
}
export function startDevnets(opts?: {
  evmPort?: number;
  ledgerPort?: number;
  nftPort?: number;
  evm?: boolean;
  ledger?: boolean;
  log?: (s: string) => void;
}): Promise<{ evm?: Devnet; ledger?: Devnet; nftMetadata?: Devnet & { port: number }; stop(): Promise<void> }>;
export function devnetsWanted(env?: Record<string, string | undefined>): {
  evm: boolean;
  ledger: boolean;
  evmPort: number;
  ledgerPort: number;
  nftPort: number;
};
