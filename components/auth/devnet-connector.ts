import { injected } from 'wagmi';
import { hexToBigInt, numberToHex, type EIP1193Provider, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { devnetWalletCall } from '@/lib/actions/devnet-wallet';
import { DEVNET_PEOPLE } from '@/lib/devnet/scenario-labels';

/**
 * "Devnet account": sign in with one of the local devnet's test accounts, with no wallet installed.
 *
 * These are anvil's default accounts (mnemonic "test test ... junk"), whose keys are public and hold
 * value only on a local devnet. Keeping them in browser code is acceptable for that reason alone, and
 * only this connector uses them: it is offered only when the server says it reads the devnet, and this
 * module is fetched only by the wallet chunk. It is a tiny EIP-1193 provider that signs locally with
 * viem's local accounts (wagmi's `mock` connector would forward personal_sign to the chain's RPC as
 * eth_sign, making the browser talk to anvil directly), wrapped in wagmi's `injected` connector so
 * account-change events behave as with a real extension. A transaction it is asked to send (a revoke)
 * is signed here too and handed to the server (lib/actions/devnet-wallet.ts), which sends it to the
 * devnet's node: the nonce, gas and fees come from that node the same way.
 */

export const DEVNET_CHAIN_ID = 31337;

const KEYS: Hex[] = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
  '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a',
  '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba',
  '0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e',
  '0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356',
  '0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97',
  '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6',
];

export const devnetAccounts = KEYS.map((k, i) => ({ index: i, address: privateKeyToAccount(k).address, name: DEVNET_PEOPLE.find((p) => p.index === i)?.name ?? null }));

/** alice: the scenario person a newcomer signs in as unless they pick another. */
export const DEFAULT_DEVNET_INDEX = 1;

/**
 * The accounts as the dialog lists them: the scenario's people by name in its order (alice, bob, ...), the
 * deployer, who only sets the scene, last.
 */
export const devnetAccountChoices = [...devnetAccounts.filter((a) => a.index !== 0), ...devnetAccounts.filter((a) => a.index === 0)];

const STORE = 'lantern.devnet-account';

type Listener = (...args: unknown[]) => void;

interface DevnetProvider {
  request(args: { method: string; params?: unknown }): Promise<unknown>;
  on(event: string, fn: Listener): void;
  removeListener(event: string, fn: Listener): void;
  /** The dialog's account picker: changes the account as a wallet's own account switcher would. */
  selectAccount(index: number): void;
}

function rpcError(code: number, message: string) {
  return Object.assign(new Error(message), { code });
}

function createDevnetProvider(): DevnetProvider {
  const listeners = new Map<string, Set<Listener>>();
  const saved = typeof localStorage === 'undefined' ? null : localStorage.getItem(STORE);
  let state: { index: number; connected: boolean } = saved ? JSON.parse(saved) : { index: DEFAULT_DEVNET_INDEX, connected: false };
  const persist = () => localStorage.setItem(STORE, JSON.stringify(state));
  const account = () => privateKeyToAccount(KEYS[state.index] ?? KEYS[0]);
  const emit = (event: string, ...args: unknown[]) => listeners.get(event)?.forEach((fn) => fn(...args));
  return {
    async request({ method, params }) {
      const p = (params ?? []) as unknown[];
      switch (method) {
        case 'eth_requestAccounts':
          state = { ...state, connected: true };
          persist();
          return [account().address];
        case 'eth_accounts':
          return state.connected ? [account().address] : [];
        case 'eth_chainId':
          return numberToHex(DEVNET_CHAIN_ID);
        case 'personal_sign': {
          const [data, address] = p as [Hex, string];
          if (!state.connected || address?.toLowerCase() !== account().address.toLowerCase()) throw rpcError(4100, 'Devnet account: not connected to that address');
          return account().signMessage({ message: { raw: data } });
        }
        case 'eth_sendTransaction': {
          const [tx] = p as [{ from?: string; to?: Hex; data?: Hex; value?: Hex; gas?: Hex }];
          if (!state.connected || tx?.from?.toLowerCase() !== account().address.toLowerCase()) throw rpcError(4100, 'Devnet account: not connected to that address');
          return sendSigned(account(), tx);
        }
        case 'wallet_switchEthereumChain': {
          const [{ chainId }] = p as [{ chainId: Hex }];
          if (Number(chainId) === DEVNET_CHAIN_ID) return null;
          throw rpcError(4902, 'The devnet account exists only on the devnet (chain 31337).');
        }
        case 'wallet_revokePermissions':
          state = { ...state, connected: false };
          persist();
          return null;
        default:
          throw rpcError(4200, `Devnet account does not support ${method}`);
      }
    },
    on(event, fn) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)!.add(fn);
    },
    removeListener(event, fn) {
      listeners.get(event)?.delete(fn);
    },
    selectAccount(index) {
      if (index === state.index || !KEYS[index]) return;
      state = { ...state, index };
      persist();
      if (state.connected) emit('accountsChanged', [account().address]);
    },
  };
}

/** The devnet node's answer to one call, through the server; its refusal as a wallet's error. */
async function node<T>(method: string, params: unknown[]): Promise<T> {
  const r = await devnetWalletCall(method, params);
  if (!r.ok) throw rpcError(-32603, r.error);
  return r.result as T;
}

/** Fills in what a wallet fills in (nonce, gas, fees), signs with the devnet key, sends the signed bytes. */
async function sendSigned(acct: ReturnType<typeof privateKeyToAccount>, tx: { to?: Hex; data?: Hex; value?: Hex; gas?: Hex }): Promise<Hex> {
  const call = { from: acct.address, to: tx.to, data: tx.data, value: tx.value };
  const [nonce, gas, block] = await Promise.all([
    node<Hex>('eth_getTransactionCount', [acct.address, 'pending']),
    tx.gas ? Promise.resolve(tx.gas) : node<Hex>('eth_estimateGas', [call]),
    node<{ baseFeePerGas?: Hex }>('eth_getBlockByNumber', ['latest', false]),
  ]);
  const tip = 1_000_000_000n;
  const signed = await acct.signTransaction({
    type: 'eip1559',
    chainId: DEVNET_CHAIN_ID,
    nonce: Number(nonce),
    to: tx.to,
    data: tx.data,
    value: tx.value ? hexToBigInt(tx.value) : undefined,
    // The estimate with room (as wallets add), and a fee cap that survives a few rising base fees.
    gas: (hexToBigInt(gas) * 12n) / 10n,
    maxPriorityFeePerGas: tip,
    maxFeePerGas: 2n * hexToBigInt(block.baseFeePerGas ?? '0x0') + tip,
  });
  return node<Hex>('eth_sendRawTransaction', [signed]);
}

let provider: DevnetProvider | undefined;
export function devnetProvider(): DevnetProvider {
  provider ??= createDevnetProvider();
  return provider;
}

export const DEVNET_CONNECTOR_ID = 'lantern-devnet';

const ICON =
  'data:image/svg+xml,' +
  encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><rect width="24" height="24" rx="5" fill="#16537e"/><path d="M7 12h10M12 7v10" stroke="#fff" stroke-width="2"/></svg>');

export function devnetConnector() {
  return injected({
    target: () => ({ id: DEVNET_CONNECTOR_ID, name: 'Devnet account', icon: ICON, provider: devnetProvider() as unknown as EIP1193Provider }),
  });
}
