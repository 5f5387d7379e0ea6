import type { Page } from '@playwright/test';
import { createWalletClient, http, type Hex, type LocalAccount } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';

/**
 * A test wallet that appears exactly as a browser extension does: an EIP-1193 provider announced through
 * EIP-6963, injected before any page script runs. Its keys stay in this Node process (anvil's public
 * devnet keys #5 and #6); the page asks it to sign through an exposed function.
 */

const KEYS: Hex[] = [
  '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba',
  '0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e',
];
export const [alice, bob] = KEYS.map((k) => privateKeyToAccount(k));

/**
 * `accounts`: the wallet's accounts, the first one selected (default alice and bob). Transactions the
 * page asks for (eth_sendTransaction) are signed here and sent to the e2e devnet, as an extension sends
 * them through its own node.
 */
export async function installTestWallet(page: Page, accounts: LocalAccount[] = [alice, bob]) {
  const find = (address: string) => {
    const account = accounts.find((a) => a.address.toLowerCase() === address.toLowerCase());
    if (!account) throw new Error(`test wallet has no key for ${address}`);
    return account;
  };
  await page.exposeFunction('__testWalletSign', async (data: Hex, address: string) => find(address).signMessage({ message: { raw: data } }));
  await page.exposeFunction('__testWalletSend', async (tx: { from: string; to: Hex; data?: Hex; value?: Hex }) => {
    const client = createWalletClient({ account: find(tx.from), chain: foundry, transport: http(`http://127.0.0.1:${process.env.E2E_EVM_PORT}`) });
    return client.sendTransaction({ to: tx.to, data: tx.data, value: tx.value ? BigInt(tx.value) : undefined });
  });
  await page.addInitScript(
    ({ first }) => {
      const store = window.localStorage;
      const listeners: Record<string, Set<(...a: unknown[]) => void>> = {};
      const state = () => JSON.parse(store.getItem('test-wallet') ?? 'null') ?? { address: first, connected: false };
      const save = (s: { address: string; connected: boolean }) => store.setItem('test-wallet', JSON.stringify(s));
      const emit = (event: string, ...args: unknown[]) => listeners[event]?.forEach((fn) => fn(...args));
      const w = window as unknown as Record<string, unknown>;
      const provider = {
        async request({ method, params }: { method: string; params?: unknown[] }) {
          (w.__testWallet as { calls: string[] }).calls.push(method);
          const s = state();
          switch (method) {
            case 'eth_requestAccounts':
              save({ ...s, connected: true });
              return [s.address];
            case 'eth_accounts': {
              // A slow extension (waking up, locked behind its own UI): the test sets `slowAccountsMs`.
              const slow = Number(store.getItem('test-wallet-slow-accounts-ms') ?? 0);
              if (slow > 0) await new Promise((r) => setTimeout(r, slow));
              return s.connected ? [s.address] : [];
            }
            case 'eth_chainId':
              return '0x7a69';
            case 'personal_sign':
              return (w.__testWalletSign as (d: unknown, a: unknown) => Promise<string>)(params![0], params![1]);
            case 'eth_sendTransaction':
              return (w.__testWalletSend as (tx: unknown) => Promise<string>)(params![0]);
            case 'wallet_switchEthereumChain':
              return null;
            case 'wallet_revokePermissions':
              save({ ...s, connected: false });
              return null;
            default:
              throw Object.assign(new Error(`unsupported ${method}`), { code: 4200 });
          }
        },
        on(event: string, fn: (...a: unknown[]) => void) {
          (listeners[event] ??= new Set()).add(fn);
        },
        removeListener(event: string, fn: (...a: unknown[]) => void) {
          listeners[event]?.delete(fn);
        },
      };
      // What the test drives, as a person would in the extension's own UI.
      w.__testWallet = {
        calls: [] as string[],
        /** From now on (this page and the next loads), eth_accounts answers after `ms`. */
        slowAccounts(ms: number) {
          store.setItem('test-wallet-slow-accounts-ms', String(ms));
        },
        switchAccount(address: string) {
          save({ ...state(), address });
          emit('accountsChanged', [address]);
        },
      };
      const info = {
        uuid: '6b1f1e0e-0000-4000-8000-000000000001',
        name: 'Test Wallet',
        icon: 'data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22 viewBox=%220 0 8 8%22%3E%3Crect width=%228%22 height=%228%22 fill=%22%23c60%22/%3E%3C/svg%3E',
        rdns: 'dev.lantern.testwallet',
      };
      const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }));
      window.addEventListener('eip6963:requestProvider', announce);
      announce();
    },
    { first: accounts[0]!.address },
  );
}
