export interface DriverControl {
  /** The switch's URL: loopback, with the run's secret as its path. */
  url: string;
  stop: () => Promise<void>;
}

export function startDriverControl(o: {
  rpcUrl: string;
  manifest: { accounts: Record<string, { address: string }>; contracts: Record<string, { address: string; decimals?: number }> };
  intervalS: number;
  running: boolean;
  log?: (line: string) => void;
}): Promise<DriverControl>;
