import 'server-only';
import type { Chain } from '@/lib/chains';
import { assertNodeChain, headBlock, hexNum, rpc } from './rpc';

/** The wallet's native balance at `block` (wei, decimal string), read with eth_getBalance. */
export async function nodeNativeBalance(address: string, chain: Chain, block: number): Promise<string> {
  await assertNodeChain(chain);
  return BigInt(await rpc<string>('eth_getBalance', [address, hexNum(block)])).toString();
}

/** The node's head, the block a balance is read at and keyed to. */
export const nodeHead = headBlock;
