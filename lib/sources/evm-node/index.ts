import 'server-only';
import { resolveChain, type Chain, type ChainOperation } from '@/lib/chains';
import { config } from '@/lib/config';
import { nodeDefaultChain } from './rpc';

export { nodeWalletHistory } from './history';
export { nodeWalletNfts } from './nfts';

/**
 * The chain a node-mode request means: the one it names (checked against the node later), else the
 * devnet when Lantern runs on it, else the node's own chain (a Sepolia node answers Sepolia by default).
 */
export async function nodeRequestChain(value: string | undefined, operation: ChainOperation): Promise<Chain> {
  const devnet = config().evmIsDevnet;
  if ((value === undefined || value.trim() === '') && !devnet) {
    const own = await nodeDefaultChain();
    if (own && own.operations.includes(operation)) return own;
  }
  return resolveChain(value, operation, { devnet });
}
