import 'server-only';
import type { Chain } from '@/lib/chains';
import { hexNum, rpc } from './rpc';

/** The wallet's native balance at `block` (wei, decimal string), read with eth_getBalance. */
export async function nodeNativeBalance(address: string, chain: Chain, block: number): Promise<string> {
  return BigInt(await rpc<string>(chain.id, 'eth_getBalance', [address, hexNum(block)])).toString();
}
