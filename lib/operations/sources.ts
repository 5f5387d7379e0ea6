import 'server-only';
import { config } from '@/lib/config';

export interface SourceDescription {
  operation: string;
  source: string;
  /** Host only: RPC and API URLs often carry a key in their path or query. */
  host: string;
}

function host(u: string): string {
  try {
    return new URL(u).host;
  } catch {
    return 'unknown';
  }
}

/** Which source answers each operation under the current configuration, safe to show anyone. */
export function describeSources(): SourceDescription[] {
  const c = config();
  const hosted = c.mode === 'hosted';
  const evm = c.evmIsDevnet ? 'Local EVM devnet (anvil)' : 'Your EVM JSON-RPC node';
  return [
    { operation: 'Wallet history', source: hosted ? 'Hosted data API' : evm, host: host(hosted ? c.dataApiUrl : c.evmRpcUrl) },
    { operation: 'Wallet NFTs', source: hosted ? 'Hosted data API' : evm, host: host(hosted ? c.dataApiUrl : c.evmRpcUrl) },
    { operation: 'Sign-in verification', source: hosted ? 'Hosted auth API' : 'Local signature verification', host: hosted ? host(c.authApiUrl) : 'this server' },
    { operation: 'Ledger blocks (mainnet)', source: hosted ? 'Hosted ledger API' : 'Ledger REST node', host: host(c.ledgerUrls.mainnet) },
    { operation: 'Ledger blocks (testnet)', source: hosted ? 'Hosted ledger API' : 'Ledger REST node', host: host(c.ledgerUrls.testnet) },
    { operation: 'Ledger blocks (local)', source: 'Simulated local ledger', host: host(c.ledgerUrls.local) },
  ];
}
