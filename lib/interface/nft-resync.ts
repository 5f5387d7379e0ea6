import { z } from 'zod';
import { blankToUndefined, queryChain } from './common';

/**
 * Resync of one NFT's metadata: GET {base_url}/api/v2.2/nft/{address}/{token_id}/metadata/resync
 * ?chain=&flag=uri|metadata&mode=sync|async. The hosted API answers `{status}`: 200 when it ran
 * (sync), 202 when it was queued (async). Lantern adds `reason` when a node-mode fetch was refused.
 */

export const tokenIdSchema = z
  .string()
  .regex(/^\d{1,78}$/, 'expected a decimal token id')
  // zod runs every check even after one failed: only a decimal string reaches BigInt here.
  .refine((s) => !/^\d{1,78}$/.test(s) || BigInt(s) < 2n ** 256n, 'the token id is larger than uint256');

export const nftResyncQuerySchema = z.object({
  chain: queryChain,
  flag: z.preprocess(blankToUndefined, z.enum(['uri', 'metadata'], { error: 'expected uri or metadata' }).default('uri')),
  mode: z.preprocess(blankToUndefined, z.enum(['sync', 'async'], { error: 'expected sync or async' }).default('async')),
});
export type NftResyncQuery = z.output<typeof nftResyncQuerySchema>;

/**
 * Whether the caller waits for the resync (mode=sync) or has it queued (mode=async). Read here and
 * nowhere else: lint keeps every other `.mode` for the source mode, which only lib/sources/index.ts reads.
 */
export const resyncWaits = (q: NftResyncQuery): boolean => q.mode === 'sync';

export const nftResyncAnswerSchema = z.looseObject({ status: z.string(), reason: z.string().optional() });
export type NftResyncAnswer = z.output<typeof nftResyncAnswerSchema>;
