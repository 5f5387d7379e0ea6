export interface Devnet {
  url: string;
  stop(): Promise<void>;
}
export function startDevnets(opts?: {
  evmPort?: number;
  evm2Port?: number;
  evm2?: boolean;
  ledgerPort?: number;
  nftPort?: number;
  evm?: boolean;
  ledger?: boolean;
  log?: (s: string) => void;
}): Promise<{ evm?: Devnet; evm2?: Devnet; ledger?: Devnet; nftMetadata?: Devnet & { port: number }; stop(): Promise<void> }>;
export function devnetsWanted(env?: Record<string, string | undefined>): {
  evm: boolean;
  evm2: boolean;
  ledger: boolean;
  evmPort: number;
  evm2Port: number;
  ledgerPort: number;
  nftPort: number;
};
