import { z } from 'zod';
import { blockSchema, u64String, type LedgerBlock } from '@/lib/interface/ledger';

/**
 * The ledger's wire shapes only the tests read: Lantern itself reads a block through the sources
 * (blockSchema) and every error body through ledgerErrorBodySchema; these name each shape apart so a
 * test can say which one a node or gateway sent.
 */

export function parseBlock(json: unknown): LedgerBlock {
  return blockSchema.parse(json);
}

/** The fullnode's current error body (`AptosError`): error_code is a snake_case string. */
export const aptosErrorSchema = z.looseObject({
  message: z.string(),
  error_code: z.string().nullable(),
  vm_error_code: z.number().int().nullish(),
});

/** The 2022 fullnode body: `{message, error_code: null, aptos_ledger_version: null}`. */
export const legacyAptosErrorSchema = z.looseObject({
  message: z.string(),
  error_code: z.string().nullable(),
  aptos_ledger_version: z.string().nullable(),
});

/** Third-party gateways (e.g. `{code: "RESOURCE_NOT_FOUND", message}`) in front of a node. */
export const gatewayErrorSchema = z.looseObject({ code: z.string(), message: z.string() });

/** Ledger info (`GET /v1`), served by nodes and the local devnet. */
export const ledgerInfoSchema = z.looseObject({
  chain_id: z.number().int(),
  epoch: u64String,
  ledger_version: u64String,
  oldest_ledger_version: u64String,
  ledger_timestamp: u64String,
  node_role: z.string(),
  oldest_block_height: u64String,
  block_height: u64String,
  git_hash: z.string().optional(),
});
