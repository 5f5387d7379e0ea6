export interface LedgerChain {
  info(): Record<string, string | number>;
  block(height: number, withTransactions: boolean): Record<string, unknown>;
  heightOf(version: number): number;
  headVersion: number;
  oldestVersion: number;
  headHeight: number;
  firstVersionOf(height: number): number;
  lastVersionOf(height: number): number;
  senders: { address: string; publicKey: string }[];
}
export interface LedgerDevnet {
  /** e.g. http://127.0.0.1:8080/v1 */
  url: string;
  port: number;
  chain: LedgerChain;
  requestCount(): number;
  requests(): string[];
  setFault(fault: 'hang' | 'error500' | 'reset' | null): void;
  stop(): Promise<void>;
}
export function startLedgerDevnet(opts?: { port?: number; host?: string }): Promise<LedgerDevnet>;
