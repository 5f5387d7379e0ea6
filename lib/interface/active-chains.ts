import { z } from 'zod';
import { blankToUndefined } from './common';

/**
 * The interface family's "active chains" operation: `GET {base_url}/api/v2.2/wallets/{address}/chains
 * ?chains[]=eth&chains[]=0x89`, answering `{address, active_chains: [{chain, chain_id, first_transaction,
 * last_transaction}]}` where each transaction is `{block_number, block_timestamp, transaction_hash}` or
 * null on a chain where the wallet has none. The hosted vendor documents `chains` as optional, meaning
 * only its default chain (eth) when absent; Lantern's default is its own default chain (DEFAULT_CHAIN).
 */

export const MAX_ACTIVE_CHAINS = 32;

/**
 * `chains[]=a&chains[]=b`, `chains[0]=a`, `chains=a&chains=b` and `chains=a,b` all mean [a, b] (the
 * vendor's SDK sends the first, its tutorial the last); blanks are dropped.
 */
export const activeChainsQuerySchema = z.object({
  chains: z.preprocess(
    (v) => {
      const list = v === undefined ? [] : Array.isArray(v) ? v : [v];
      return list.flatMap((x) => (typeof x === 'string' ? x.split(',') : [x])).filter((x) => blankToUndefined(x) !== undefined);
    },
    z
      .array(z.string().trim().max(64, 'a chain is at most 64 characters'))
      .max(MAX_ACTIVE_CHAINS, `at most ${MAX_ACTIVE_CHAINS} chains`),
  ),
});
export type ActiveChainsQuery = z.output<typeof activeChainsQuerySchema>;

/** Block numbers are decimal strings in the vendor's documentation; a hex string or a number is read too. */
const blockNumber = z.union([
  z.number().int().nonnegative().transform((n) => String(n)),
  z
    .string()
    .trim()
    .regex(/^(\d+|0x[0-9a-fA-F]+)$/, 'expected a block number')
    .transform((s) => BigInt(s).toString()),
]);

const transactionStamp = z
  .object({
    block_number: blockNumber,
    block_timestamp: z.string(),
    transaction_hash: z.string().nullish().transform((v) => v ?? null),
  })
  .nullish()
  .transform((v) => v ?? null);

export const activeChainSchema = z.looseObject({
  chain: z.string(),
  chain_id: z.string(),
  first_transaction: transactionStamp,
  last_transaction: transactionStamp,
});
export type ActiveChain = z.output<typeof activeChainSchema>;

export const activeChainsSchema = z.looseObject({
  address: z.string(),
  active_chains: z.array(activeChainSchema),
});
export type ActiveChains = z.output<typeof activeChainsSchema>;

/** The published answer in the interface's shape (no fields a provider added). */
export function serializeActiveChains(a: { address: string; active_chains: ActiveChain[] }) {
  const stamp = (t: ActiveChain['first_transaction']) => (t ? { block_number: t.block_number, block_timestamp: t.block_timestamp, transaction_hash: t.transaction_hash } : null);
  return {
    address: a.address.toLowerCase(),
    active_chains: a.active_chains.map((c) => ({ chain: c.chain, chain_id: c.chain_id, first_transaction: stamp(c.first_transaction), last_transaction: stamp(c.last_transaction) })),
  };
}
