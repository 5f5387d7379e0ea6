import { cookieStorage, createConfig, createStorage, http, injected, type Config } from 'wagmi';
import { walletConnect } from 'wagmi/connectors';
import type { Chain } from 'viem';
import { foundry } from 'viem/chains';
import { allChains } from '@/lib/chains';
import { devnetConnector } from './devnet-connector';

/**
 * wagmi for Lantern's sign-in. Loaded only by the wallet chunk (see account-button.tsx), never on a
 * signed-out visitor's first page load.
 *
 * Connectors: every wallet that announces itself through EIP-6963 (wagmi's
 * multiInjectedProviderDiscovery: one connector per wallet, with its name and icon), a plain
 * `injected()` fallback for older wallets that only set window.ethereum, and, when Lantern reads the
 * local devnet, the "Devnet account", and WalletConnect (QR code / mobile wallets) when the server has
 * a WALLETCONNECT_PROJECT_ID. Its provider is imported by the connector only when someone picks it.
 *
 * State is kept in a cookie (`lantern-wallet.store`) so a server render can hand the last connection
 * to the client (cookieToInitialState) and reconnect without a flash.
 */

export interface WalletOptions {
  /** Lantern reads the local devnet: offer the devnet's test accounts. */
  devnet: boolean;
  /** Chain ids a person may sign in on (the server decides; wrong_chain names the one to use). */
  chainIds: number[];
  /** WalletConnect Cloud project id: a public client identifier, not a secret. */
  walletConnectProjectId?: string;
}

export const STORAGE_KEY = 'lantern-wallet';

function chainsFor(opts: WalletOptions): [Chain, ...Chain[]] {
  const registry = allChains.filter((c) => !c.devnet).map((c) => c.viem);
  const list = opts.devnet ? [foundry, ...registry] : registry;
  // The sign-in chains first, so wagmi treats them as the default.
  list.sort((a, b) => Number(opts.chainIds.includes(b.id)) - Number(opts.chainIds.includes(a.id)));
  return list as [Chain, ...Chain[]];
}

export function createWalletConfig(opts: WalletOptions) {
  const chains = chainsFor(opts);
  return createConfig({
    chains,
    // Sign-in only signs messages; transports are never used for reads here.
    transports: Object.fromEntries(chains.map((c) => [c.id, http()])),
    connectors: [
      ...(opts.devnet ? [devnetConnector()] : []),
      injected(),
      ...(opts.walletConnectProjectId
        ? [walletConnect({ projectId: opts.walletConnectProjectId, showQrModal: true, metadata: { name: 'Lantern', description: 'Wallet and ledger explorer', url: typeof window === 'undefined' ? 'https://localhost' : window.location.origin, icons: [] } })]
        : []),
    ],
    multiInjectedProviderDiscovery: true,
    ssr: true,
    storage: createStorage({ storage: cookieStorage, key: STORAGE_KEY }),
  }) as Config;
}

export type WalletConfig = ReturnType<typeof createWalletConfig>;

declare module 'wagmi' {
  interface Register {
    config: WalletConfig;
  }
}

let singleton: { key: string; config: WalletConfig } | undefined;

/** One config per page (the dialog and the session watcher share it). */
export function walletConfig(opts: WalletOptions): WalletConfig {
  const key = JSON.stringify(opts);
  if (!singleton || singleton.key !== key) singleton = { key, config: createWalletConfig(opts) };
  return singleton.config;
}
