import 'server-only';
import { DEVNET_CHAIN } from '@/lib/chains';
import { LanternError } from '@/lib/errors';
import { sources, type DevnetWalletMethod } from '@/lib/sources';

/**
 * The "Devnet account" connector signs in the browser with the devnet's public keys, and sends what it
 * signs through here to the local devnet's node (the browser never talks to anvil itself). Only the few
 * calls a wallet needs to send a transaction: its nonce, a gas estimate, the latest block (for the base
 * fee), and the signed bytes. Refused where this server does not read the devnet (hosted mode included).
 */

export const DEVNET_WALLET_METHODS: readonly DevnetWalletMethod[] = ['eth_getTransactionCount', 'eth_estimateGas', 'eth_getBlockByNumber', 'eth_sendRawTransaction'];

export const isDevnetWalletMethod = (m: unknown): m is DevnetWalletMethod => typeof m === 'string' && (DEVNET_WALLET_METHODS as readonly string[]).includes(m);

export async function devnetWalletRequest(method: DevnetWalletMethod, params: unknown[]): Promise<unknown> {
  const { chains } = await sources().chains();
  const served = chains.find((s) => s.chain.id === DEVNET_CHAIN.id);
  const wallet = served ? sources().evm(served.chain).devnetWallet : null;
  if (!wallet) throw new LanternError(404, 'not_found', 'This server does not read the local devnet: the devnet account cannot send transactions here.');
  return wallet.request(method, params);
}
