// Types of devnet/evm/live-driver.mjs.
export function startLiveDriver(o: {
  rpcUrl: string;
  manifest: { accounts: Record<string, { address: string }>; contracts: Record<string, { address: string; decimals?: number }> };
  intervalMs?: number;
  log?: (line: string) => void;
}): { stop: () => Promise<void>; sent: () => number };
