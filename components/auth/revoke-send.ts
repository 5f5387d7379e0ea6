import { erc20Abi, erc721Abi, type Address, type Hash } from 'viem';
import { getConnection, reconnect, writeContract } from 'wagmi/actions';
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
  let c = getConnection(config);
  if (c.status !== 'connected') {
    await reconnect(config);
    c = getConnection(config);
  }
  if (c.status !== 'connected' || !c.address) throw new Error('Your wallet is not connected. Sign in again with the wallet that owns this address.');
  if (c.address.toLowerCase() !== r.owner.toLowerCase()) throw new Error(`Your wallet is connected as ${c.address}, not as this wallet's owner. Switch account in your wallet.`);
  const base = { address: r.token as Address, chainId: r.chainId, account: c.address } as const;
  return r.kind === 'erc20'
    ? writeContract(config, { ...base, abi: erc20Abi, functionName: 'approve', args: [r.spender as Address, 0n] })
    : writeContract(config, { ...base, abi: erc721Abi, functionName: 'setApprovalForAll', args: [r.spender as Address, false] });
}
