import { z } from 'zod';
import { decimalString, queryChain } from './common';

/**
 * The transaction lookup: `GET {base_url}/api/v2.2/transaction/{hash}?chain=` and its verbose form
 * `.../transaction/{hash}/verbose` (logs with `decoded_event`, the call with `decoded_call`), in the hosted
 * API's shape (tests/fixtures/reference/transaction-*.json). Every object is loose: fields the provider
 * adds are kept. Numbers are decimal strings, as the provider sends them.
 * Lantern's decisions where the provider is silent: `internal_transactions` (with `include=
 * internal_transactions`) lists every call below the top level, each with its `depth` (1 = called by the
 * transaction) so a client can draw the call tree; a pending transaction is a 404 with code
 * `transaction_pending`, an unknown hash a 404 with code `transaction_not_found`.
 */

const dec = z.string().regex(/^\d+$/, { error: 'expected a decimal string' });
const hex = z.string().regex(/^0x[0-9a-fA-F]*$/, { error: 'expected 0x-prefixed hex' });
const nullableString = z.string().nullish().transform((v) => v ?? null);

const decodedParamSchema = z.looseObject({ name: z.string(), value: z.string(), type: z.string() });
export const decodedSchema = z.looseObject({
  signature: z.string(),
  label: z.string(),
  type: z.string(),
  params: z.array(decodedParamSchema),
});
export type Decoded = z.output<typeof decodedSchema>;

export const txLogSchema = z.looseObject({
  log_index: dec,
  transaction_hash: hex,
  transaction_index: dec,
  address: hex,
  data: hex,
  topic0: nullableString,
  topic1: nullableString,
  topic2: nullableString,
  topic3: nullableString,
  block_timestamp: z.string(),
  block_number: dec,
  block_hash: hex,
  decoded_event: decodedSchema.nullish(),
});
export type TxLog = z.output<typeof txLogSchema>;

export const internalTxSchema = z.looseObject({
  transaction_hash: hex,
  // The provider's own example sends this one as a number (tests/fixtures/reference).
  block_number: decimalString,
  block_hash: hex,
  type: z.string(),
  from: hex,
  to: hex.nullable(),
  value: dec,
  gas: z.string().nullish(),
  gas_used: z.string().nullish(),
  input: hex.nullish(),
  output: hex.nullish(),
  depth: z.number().int().min(1).optional(),
  reverted: z.boolean().optional(),
});
export type InternalTx = z.output<typeof internalTxSchema>;

export const transactionSchema = z.looseObject({
  hash: hex,
  nonce: dec,
  transaction_index: dec,
  from_address: hex,
  from_address_label: nullableString,
  to_address: hex.nullish().transform((v) => v ?? null),
  to_address_label: nullableString,
  value: dec,
  gas: dec,
  gas_price: dec,
  input: hex,
  receipt_cumulative_gas_used: dec,
  receipt_gas_used: dec,
  receipt_contract_address: hex.nullish().transform((v) => v ?? null),
  receipt_root: nullableString,
  receipt_status: z.string(),
  block_timestamp: z.string(),
  block_number: dec,
  block_hash: hex,
  logs: z.array(txLogSchema),
  decoded_call: decodedSchema.nullish(),
  internal_transactions: z.array(internalTxSchema).nullish(),
});
export type TransactionDetail = z.output<typeof transactionSchema>;

export const transactionHashSchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, { error: 'must be a transaction hash: 0x and 64 hex digits' })
  .transform((s) => s.toLowerCase());

export const transactionQuerySchema = z.object({
  chain: queryChain,
  include: z.enum(['internal_transactions'], { error: 'include: the only value is internal_transactions' }).optional(),
});
export type TransactionQuery = z.output<typeof transactionQuerySchema>;
