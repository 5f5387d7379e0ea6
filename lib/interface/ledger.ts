import { z } from 'zod';
import { queryBoolean } from './common';

/**
 * The ledger block operation: `GET {ledger_base_url}/blocks/by_version/{version}?with_transactions=`.
 *
 * The wire shape is the Move ledger's REST API (the fullnode's `/v1/blocks/by_version`, which the hosted
 * ledger API serves unchanged). Every object is loose: fields we do not know are kept, never dropped,
 * because the ledger adds fields over time (`replay_protection_nonce`, `block_end_info`, ...) and a
 * page that shows "payload, signature and events" must show what the node sent.
 *
 * Transactions are a union discriminated on `type`. A `type` we do not know yet is accepted as an
 * `OtherTransaction` (type and version only) instead of failing the whole block: a new variant on
 * mainnet must not turn every block that holds it into a 502.
 *
 * Internal shape: `LedgerBlock` (camelCase envelope, `transactions` undefined when not requested);
 * transactions keep the ledger's own field names, which are the vocabulary the page shows.
 * `serializeBlock` gives back the interface shape; `blockSchema.parse(serializeBlock(b))` equals `b`.
 */

export const U64_MAX = 18446744073709551615n;

const U64_MESSAGE = 'must be an unsigned 64-bit integer in decimal, 0 to 18446744073709551615';

/** A u64 as the ledger writes it: a decimal string. */
const U64_DIGITS = /^\d{1,20}$/;
export const u64String = z
  .string()
  .regex(U64_DIGITS, { error: U64_MESSAGE })
  // zod runs this even when the pattern failed: only digits reach BigInt (which throws on anything else).
  .refine((s) => !U64_DIGITS.test(s) || BigInt(s) <= U64_MAX, { error: U64_MESSAGE });

const hex = z.string().regex(/^0x[0-9a-fA-F]*$/, { error: 'expected 0x-prefixed hex' });
/** An account address as the ledger writes it (short `0x1` or full 64 hex digits). */
const address = hex;

/**
 * Dispatches on `type` to the schema of a known variant and otherwise to `fallback`. Issues keep their
 * paths, so a bad field reads `transactions[3].sender: ...` rather than zod's vague "Invalid input".
 */
function byType<V extends Record<string, z.ZodType>, F extends z.ZodType>(
  variants: V,
  fallback: F,
): z.ZodType<z.output<V[keyof V]> | z.output<F>, unknown> {
  const known = new Map<string, z.ZodType>(Object.entries(variants));
  return z.looseObject({ type: z.string() }).transform((value, ctx) => {
    const schema = known.get(value.type) ?? fallback;
    const r = schema.safeParse(value);
    if (!r.success) {
      for (const issue of r.error.issues) ctx.issues.push({ ...issue, input: undefined } as never);
      return z.NEVER;
    }
    return r.data as z.output<V[keyof V]> | z.output<F>;
  });
}

// ---------------------------------------------------------------------------------------------------
// Events and state changes

export const eventSchema = z.looseObject({
  guid: z.looseObject({ creation_number: u64String, account_address: address }),
  sequence_number: u64String,
  type: z.string(),
  data: z.unknown(),
});
export type LedgerEvent = z.output<typeof eventSchema>;

/** write_resource, delete_resource, write_module, delete_module, write_table_item, delete_table_item. */
export const changeSchema = z.looseObject({
  type: z.string(),
  address: address.optional(),
  state_key_hash: z.string().optional(),
  handle: z.string().optional(),
  key: z.string().optional(),
  value: z.unknown().optional(),
  data: z.unknown().optional(),
});
export type LedgerChange = z.output<typeof changeSchema>;

// ---------------------------------------------------------------------------------------------------
// Payloads

/** `0x1::coin::transfer`: address, module and function name. */
const moveFunctionId = z.string().regex(/^0x[0-9a-fA-F]+::\w+::\w+$/, { error: 'expected a function id like 0x1::coin::transfer' });

export const entryFunctionPayloadSchema = z.looseObject({
  type: z.literal('entry_function_payload'),
  function: moveFunctionId,
  type_arguments: z.array(z.string()),
  arguments: z.array(z.unknown()),
});

export const scriptPayloadSchema = z.looseObject({
  type: z.literal('script_payload'),
  code: z.looseObject({ bytecode: hex }),
  type_arguments: z.array(z.string()),
  arguments: z.array(z.unknown()),
});

export const multisigPayloadSchema = z.looseObject({
  type: z.literal('multisig_payload'),
  multisig_address: address,
  transaction_payload: z.looseObject({ type: z.string() }).nullish(),
});

export const moduleBundlePayloadSchema = z.looseObject({
  type: z.literal('module_bundle_payload'),
  modules: z.array(z.unknown()),
});

export const writeSetPayloadSchema = z.looseObject({
  type: z.literal('write_set_payload'),
  write_set: z.unknown(),
});

const otherPayloadSchema = z.looseObject({ type: z.string() });

export const payloadSchema = byType(
  {
    entry_function_payload: entryFunctionPayloadSchema,
    script_payload: scriptPayloadSchema,
    multisig_payload: multisigPayloadSchema,
    module_bundle_payload: moduleBundlePayloadSchema,
    write_set_payload: writeSetPayloadSchema,
  },
  otherPayloadSchema,
);
export type LedgerPayload = z.output<typeof payloadSchema>;
export type EntryFunctionPayload = z.output<typeof entryFunctionPayloadSchema>;
export type ScriptPayload = z.output<typeof scriptPayloadSchema>;
export type MultisigPayload = z.output<typeof multisigPayloadSchema>;

const PAYLOAD_TYPES = ['entry_function_payload', 'script_payload', 'multisig_payload', 'module_bundle_payload', 'write_set_payload'];
export type KnownPayload = EntryFunctionPayload | ScriptPayload | MultisigPayload | z.output<typeof moduleBundlePayloadSchema> | z.output<typeof writeSetPayloadSchema>;

/** Narrows to the known variants, so a `switch` on `type` sees each variant's own fields. */
export function isKnownPayload(p: LedgerPayload): p is KnownPayload {
  return PAYLOAD_TYPES.includes(p.type);
}

// ---------------------------------------------------------------------------------------------------
// Signatures

export const ed25519SignatureSchema = z.looseObject({
  type: z.literal('ed25519_signature'),
  public_key: hex,
  signature: hex,
});

export const multiEd25519SignatureSchema = z.looseObject({
  type: z.literal('multi_ed25519_signature'),
  public_keys: z.array(hex),
  signatures: z.array(hex),
  threshold: z.number().int().nonnegative(),
  bitmap: hex,
});

/** A signer inside multi-agent and fee-payer signatures: ed25519, multi-ed25519, single-key, multi-key... */
const accountSignatureSchema = z.looseObject({ type: z.string() });

export const multiAgentSignatureSchema = z.looseObject({
  type: z.literal('multi_agent_signature'),
  sender: accountSignatureSchema,
  secondary_signer_addresses: z.array(address),
  secondary_signers: z.array(accountSignatureSchema),
});

export const feePayerSignatureSchema = z.looseObject({
  type: z.literal('fee_payer_signature'),
  sender: accountSignatureSchema,
  secondary_signer_addresses: z.array(address),
  secondary_signers: z.array(accountSignatureSchema),
  fee_payer_address: address,
  fee_payer_signer: accountSignatureSchema,
});

/** `single_sender` carries one account signature (single-key, multi-key, keyless...): kept as sent. */
export const singleSenderSignatureSchema = z.looseObject({ type: z.literal('single_sender') });

const otherSignatureSchema = z.looseObject({ type: z.string() });

export const signatureSchema = byType(
  {
    ed25519_signature: ed25519SignatureSchema,
    multi_ed25519_signature: multiEd25519SignatureSchema,
    multi_agent_signature: multiAgentSignatureSchema,
    fee_payer_signature: feePayerSignatureSchema,
    single_sender: singleSenderSignatureSchema,
  },
  otherSignatureSchema,
);
export type LedgerSignature = z.output<typeof signatureSchema>;

// ---------------------------------------------------------------------------------------------------
// Transactions

/** Fields every committed transaction has. */
const committed = {
  version: u64String,
  hash: hex,
  state_change_hash: hex,
  event_root_hash: hex,
  state_checkpoint_hash: hex.nullable(),
  gas_used: u64String,
  success: z.boolean(),
  vm_status: z.string(),
  accumulator_root_hash: hex,
  changes: z.array(changeSchema),
};

export const blockMetadataTransactionSchema = z.looseObject({
  type: z.literal('block_metadata_transaction'),
  ...committed,
  id: hex,
  epoch: u64String,
  round: u64String,
  events: z.array(eventSchema),
  // Fullnodes send a byte array; some gateways a hex string or strings.
  previous_block_votes_bitvec: z.union([z.array(z.union([z.number(), z.string()])), z.string()]),
  proposer: address,
  failed_proposer_indices: z.array(z.union([z.number(), z.string()])),
  timestamp: u64String,
});

export const stateCheckpointTransactionSchema = z.looseObject({
  type: z.literal('state_checkpoint_transaction'),
  ...committed,
  timestamp: u64String,
});

export const userTransactionSchema = z.looseObject({
  type: z.literal('user_transaction'),
  ...committed,
  sender: address,
  sequence_number: u64String,
  max_gas_amount: u64String,
  gas_unit_price: u64String,
  expiration_timestamp_secs: u64String,
  payload: payloadSchema,
  // Absent only when a node is asked to hide it; real blocks always carry one.
  signature: signatureSchema.nullish(),
  events: z.array(eventSchema),
  timestamp: u64String,
});

/** Validator transactions (DKG results, JWK updates) sit between the metadata and the user transactions. */
export const validatorTransactionSchema = z.looseObject({
  type: z.literal('validator_transaction'),
  ...committed,
  events: z.array(eventSchema),
  timestamp: u64String,
});

export const blockEpilogueTransactionSchema = z.looseObject({
  type: z.literal('block_epilogue_transaction'),
  ...committed,
  timestamp: u64String,
  block_end_info: z.looseObject({}).nullish(),
});

export const genesisTransactionSchema = z.looseObject({
  type: z.literal('genesis_transaction'),
  ...committed,
  payload: payloadSchema,
  events: z.array(eventSchema),
});

/** A transaction type this version of Lantern does not know: shown by its type and version. */
export const otherTransactionSchema = z.looseObject({
  type: z.string(),
  version: u64String.optional(),
  hash: hex.optional(),
});

export const TRANSACTION_TYPES = [
  'block_metadata_transaction',
  'state_checkpoint_transaction',
  'user_transaction',
  'validator_transaction',
  'block_epilogue_transaction',
  'genesis_transaction',
] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

/** The discriminated union of the known variants (strict on `type`). */
export const knownTransactionSchema = z.discriminatedUnion('type', [
  blockMetadataTransactionSchema,
  stateCheckpointTransactionSchema,
  userTransactionSchema,
  validatorTransactionSchema,
  blockEpilogueTransactionSchema,
  genesisTransactionSchema,
]);

/** Any transaction in a block: a known variant, or an unknown `type` kept as `OtherTransaction`. */
export const transactionSchema = byType(
  {
    block_metadata_transaction: blockMetadataTransactionSchema,
    state_checkpoint_transaction: stateCheckpointTransactionSchema,
    user_transaction: userTransactionSchema,
    validator_transaction: validatorTransactionSchema,
    block_epilogue_transaction: blockEpilogueTransactionSchema,
    genesis_transaction: genesisTransactionSchema,
  },
  otherTransactionSchema,
);

export type BlockMetadataTransaction = z.output<typeof blockMetadataTransactionSchema>;
export type StateCheckpointTransaction = z.output<typeof stateCheckpointTransactionSchema>;
export type UserTransaction = z.output<typeof userTransactionSchema>;
export type ValidatorTransaction = z.output<typeof validatorTransactionSchema>;
export type BlockEpilogueTransaction = z.output<typeof blockEpilogueTransactionSchema>;
export type GenesisTransaction = z.output<typeof genesisTransactionSchema>;
export type KnownTransaction = z.output<typeof knownTransactionSchema>;
export type OtherTransaction = z.output<typeof otherTransactionSchema>;
export type LedgerTransaction = KnownTransaction | OtherTransaction;

export function isKnownTransaction(tx: LedgerTransaction): tx is KnownTransaction {
  return (TRANSACTION_TYPES as readonly string[]).includes(tx.type);
}
export function isBlockMetadata(tx: LedgerTransaction): tx is BlockMetadataTransaction {
  return tx.type === 'block_metadata_transaction';
}

// ---------------------------------------------------------------------------------------------------
// Block

const BLOCK_KEYS = ['block_height', 'block_hash', 'block_timestamp', 'first_version', 'last_version', 'transactions'];

/** The block as the interface sends it. `transactions` is absent (or null) when not requested. */
export const blockResponseSchema = z
  .looseObject({
    block_height: u64String,
    block_hash: hex,
    /** Microseconds since the Unix epoch. */
    block_timestamp: u64String,
    first_version: u64String,
    last_version: u64String,
    transactions: z.array(transactionSchema).nullish(),
  })
  // Run even when a version failed its own check: compared only when both are digits.
  .refine((b) => !U64_DIGITS.test(b.first_version) || !U64_DIGITS.test(b.last_version) || BigInt(b.first_version) <= BigInt(b.last_version), {
    error: 'first_version is after last_version',
    path: ['last_version'],
  });
export type BlockResponse = z.input<typeof blockResponseSchema>;

export interface LedgerBlock {
  height: string;
  hash: string;
  /** Microseconds since the Unix epoch, as the decimal string the ledger sent. */
  timestampUs: string;
  firstVersion: string;
  lastVersion: string;
  /** Undefined when the block was fetched without its transactions. */
  transactions?: LedgerTransaction[];
  /** Top-level fields the interface does not name, kept for serialisation. */
  extra: Record<string, unknown>;
}

/** Parses the wire shape into the internal one (the schema used by the sources). */
export const blockSchema = blockResponseSchema.transform((b): LedgerBlock => {
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(b)) if (!BLOCK_KEYS.includes(k)) extra[k] = v;
  return {
    height: b.block_height,
    hash: b.block_hash,
    timestampUs: b.block_timestamp,
    firstVersion: b.first_version,
    lastVersion: b.last_version,
    transactions: b.transactions ?? undefined,
    extra,
  };
});

/** Back to the interface's shape. `withTransactions: false` drops them (the fullnode omits the key). */
export function serializeBlock(block: LedgerBlock, withTransactions = block.transactions !== undefined): Record<string, unknown> {
  return {
    block_height: block.height,
    block_hash: block.hash,
    block_timestamp: block.timestampUs,
    first_version: block.firstVersion,
    last_version: block.lastVersion,
    ...block.extra,
    ...(withTransactions && block.transactions ? { transactions: block.transactions } : {}),
  };
}

/** The block's metadata transaction (epoch, round, proposer), when the block was fetched with transactions. */
export function blockMetadata(block: LedgerBlock): BlockMetadataTransaction | undefined {
  return block.transactions?.find(isBlockMetadata);
}

export function transactionCount(block: Pick<LedgerBlock, 'firstVersion' | 'lastVersion'>): number {
  return Number(BigInt(block.lastVersion) - BigInt(block.firstVersion) + 1n);
}

// ---------------------------------------------------------------------------------------------------
// Requests

export const LEDGER_NETWORKS = ['mainnet', 'testnet', 'local'] as const;
export type LedgerNetworkName = (typeof LEDGER_NETWORKS)[number];

export const ledgerNetworkSchema = z.enum(LEDGER_NETWORKS, { error: `must be one of ${LEDGER_NETWORKS.join(', ')}` });

/**
 * The `version` path parameter. Decision: digits only (no sign, no spaces, no decimals, no hex), leading
 * zeros accepted and dropped (`007` is version 7, as the fullnode's own u64 parser reads it), at most 64
 * characters, value 0..2^64-1. Output is the canonical decimal string, used for the upstream call and
 * as the cache key.
 */
export const ledgerVersionSchema = z
  .string({ error: U64_MESSAGE })
  .max(64, { error: U64_MESSAGE })
  .regex(/^\d+$/, { error: U64_MESSAGE })
  .transform((s) => BigInt(s))
  .refine((v) => v <= U64_MAX, { error: U64_MESSAGE })
  .transform((v) => v.toString())
  // Branded: the block operations take only a version this schema has passed, so they never parse it again.
  .brand<'LedgerVersion'>();
export type LedgerVersion = z.infer<typeof ledgerVersionSchema>;

/**
 * `with_transactions`: the API's shared query boolean (`true`/`false` in any case; blank or absent is
 * not given, which the API reads as false, the interface's default, and the page as true).
 */
export const blockQuerySchema = z.object({
  with_transactions: queryBoolean,
});

// ---------------------------------------------------------------------------------------------------
// Errors the ledger node and gateways send

/**
 * What Lantern reads to explain a failed lookup, whichever sent it: the fullnode's AptosError
 * (`{message, error_code, vm_error_code}`), its 2022 form (`error_code: null`), or a gateway in front of
 * a node (`{code, message}`). tests/support/ledger-schemas.ts names each shape apart.
 */
export const ledgerErrorBodySchema = z.looseObject({
  message: z.union([z.string(), z.array(z.string())]),
  error_code: z.string().nullish(),
  vm_error_code: z.number().int().nullish(),
  code: z.string().optional(),
});
export type LedgerErrorBody = z.output<typeof ledgerErrorBodySchema>;
