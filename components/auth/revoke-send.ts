import { erc20Abi, erc721Abi, type Address, type Hash } from 'viem';
import { getConnection, reconnect, watchConnection, writeContract } from 'wagmi/actions';
import { walletConfig, type WalletOptions } from './wagmi';

export interface RevokeRequest {
  owner: string;
  chainId: number;
  kind: 'erc20' | 'operator';
  token: string;
  spender: string;
}

/**
 * Sends a revoke from the connected wallet (wagmi): `approve(spender, 0)` for an ERC-20 allowance,
 * `setApprovalForAll(operator, false)` for an NFT operator. Loaded only when a person confirms a revoke.
 * The wallet must be connected as the owner: the session says who signed in, the wallet who signs now.
 */
export async function sendRevoke(options: WalletOptions, r: RevokeRequest): Promise<Hash> {
  const config = walletConfig(options);
  const c = await settledConnection(config);
  if (c.status !== 'connected' || !c.address) throw new Error('Your wallet is not connected. Sign in again with the wallet that owns this address.');
  if (c.address.toLowerCase() !== r.owner.toLowerCase()) throw new Error(`Your wallet is connected as ${c.address}, not as this wallet's owner. Switch account in your wallet.`);
  const base = { address: r.token as Address, chainId: r.chainId, account: c.address } as const;
  return r.kind === 'erc20'
    ? writeContract(config, { ...base, abi: erc20Abi, functionName: 'approve', args: [r.spender as Address, 0n] })
    : writeContract(config, { ...base, abi: erc721Abi, functionName: 'setApprovalForAll', args: [r.spender as Address, false] });
}

type Connection = ReturnType<typeof getConnection>;
const settled = (c: Connection) => c.status !== 'reconnecting' && c.status !== 'connecting';

/** How long a reconnect already in progress is waited for before the wallet counts as not connected. */
const SETTLE_MS = 10_000;

/**
 * The wallet's connection once no reconnect is in progress. A page that has just loaded is reconnecting
 * its wallet (the provider does it on mount), and wagmi's `reconnect` returns at once while another runs:
 * a Revoke confirmed in that moment would be refused as "not connected" though the wallet is.
 */
async function settledConnection(config: ReturnType<typeof walletConfig>): Promise<Connection> {
  if (getConnection(config).status === 'disconnected') await reconnect(config);
  const now = getConnection(config);
  if (settled(now)) return now;
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(getConnection(config)), SETTLE_MS);
    const stop = watchConnection(config, { onChange: (c) => settled(c) && done(c) });
    function done(c: Connection) {
      clearTimeout(timer);
      stop();
      resolve(c);
    }
    // Settled between the check above and the watch: nothing will change any more.
    if (settled(getConnection(config))) done(getConnection(config));
  });
}
