import { describe, expect, it } from 'vitest';
import {
  blockMetadata,
  blockMetadataTransactionSchema,
  blockQuerySchema,
  blockResponseSchema,
  blockSchema,
  genesisTransactionSchema,
  ledgerErrorBodySchema,
  ledgerNetworkSchema,
  ledgerVersionSchema,
  serializeBlock,
  stateCheckpointTransactionSchema,
  transactionCount,
  userTransactionSchema,
  type UserTransaction,
} from '@/lib/interface/ledger';
import { aptosErrorSchema, gatewayErrorSchema, legacyAptosErrorSchema, parseBlock } from '../../support/ledger-schemas';
import { describeZodError } from '@/lib/interface/zod-errors';
import { readReference, referenceFiles } from '../../support/reference';

const blockFiles = referenceFiles(/^aptos-.*\.json$/);

describe('reference blocks', () => {
  it('finds the reference blocks', () => {
    expect(blockFiles.length).toBeGreaterThanOrEqual(3);
  });

  it.each(blockFiles)('%s parses, keeps every field and round-trips', (file) => {
    const json = readReference(file) as Record<string, unknown> & { transactions: Record<string, unknown>[] };
    const block = parseBlock(json);
    expect(block.height).toBe(json.block_height);
    expect(block.transactions).toHaveLength(json.transactions.length);
    // Loose: every field of every transaction survives, including ones we do not name.
    expect(block.transactions).toEqual(json.transactions);
    expect(serializeBlock(block)).toEqual(json);
    expect(parseBlock(serializeBlock(block))).toEqual(block);
    // The versions of the transactions are exactly first..last.
    const versions = block.transactions!.map((t) => (t as { version: string }).version);
    expect(versions[0]).toBe(block.firstVersion);
    expect(versions.at(-1)).toBe(block.lastVersion);
    expect(transactionCount(block)).toBe(versions.length);
    expect(blockMetadata(block)).toBe(block.transactions!.find((t) => t.type === 'block_metadata_transaction'));
    expect(blockMetadata(block)?.type).toBe('block_metadata_transaction');
    // A real block's metadata id is its hash (the Go SDK fixture is stitched from two blocks; see SOURCES.md).
    if (!file.includes('gosdk')) expect(blockMetadata(block)!.id).toBe(block.hash);
  });

  it('the nodit mainnet block has a typed user transaction', () => {
    const block = parseBlock(readReference('aptos-block-by-version-86447894-mainnet-nodit.json'));
    const user = block.transactions!.find((t) => t.type === 'user_transaction') as UserTransaction;
    expect(user.sender).toMatch(/^0x[0-9a-f]{64}$/);
    expect(user.payload.type).toBe('entry_function_payload');
    expect(user.signature?.type).toBe('ed25519_signature');
    expect(user.replay_protection_nonce).toBeNull(); // an unnamed field, kept
  });

  it('without transactions: absent, null and [] are told apart', () => {
    const base = readReference('aptos-block-by-version-gosdk-test-metadata-plus-epilogue.json') as Record<string, unknown>;
    const { transactions: _t, ...envelope } = base;
    expect(parseBlock(envelope).transactions).toBeUndefined();
    expect(parseBlock({ ...envelope, transactions: null }).transactions).toBeUndefined();
    expect(parseBlock({ ...envelope, transactions: [] }).transactions).toEqual([]);
    expect(serializeBlock(parseBlock(base), false)).toEqual(envelope);
  });
});

describe('hosted OpenAPI document', () => {
  // The hosted API's own description of the block: everything it requires, our schemas name.
  const doc = readReference('openapi-moralis-aptos-blocks-by-version.json') as {
    components: { schemas: Record<string, { required?: string[] }> };
  };
  const pairs = [
    ['Block', blockResponseSchema],
    ['BlockMetadataTransaction', blockMetadataTransactionSchema],
    ['StateCheckpointTransaction', stateCheckpointTransactionSchema],
    ['UserTransaction', userTransactionSchema],
    ['GenesisTransaction', genesisTransactionSchema],
  ] as const;
  it.each(pairs)('%s: every required field is declared', (name, schema) => {
    const shape = 'shape' in schema ? schema.shape : (schema as unknown as { def: { in: { shape: object } } }).def.in.shape;
    const declared = Object.keys(shape ?? {});
    for (const field of doc.components.schemas[name].required ?? []) expect(declared).toContain(field);
  });
});

describe('reference errors', () => {
  const files = referenceFiles(/^errors-(aptos|nodit)-.*\.json$/);
  it.each(files)('%s parses as a ledger error body', (file) => {
    const json = readReference(file) as Record<string, unknown>;
    const body = 'body' in json ? json.body : json;
    expect(ledgerErrorBodySchema.safeParse(body).success).toBe(true);
  });
  it('tells the three shapes apart', () => {
    const pruned = (readReference('errors-aptos-410-block-pruned-nodit.json') as { body: unknown }).body;
    expect(aptosErrorSchema.parse(pruned).error_code).toBe('block_pruned');
    expect(legacyAptosErrorSchema.safeParse(readReference('errors-aptos-404-unknown-block-by-version-aptos-core-golden.json')).success).toBe(true);
    expect(gatewayErrorSchema.parse((readReference('errors-nodit-gateway-404-shape.json') as { body: unknown }).body).code).toBe('RESOURCE_NOT_FOUND');
  });
});

// ---------------------------------------------------------------------------------------------------
// Hand-made variants

const H = (n: number) => '0x' + n.toString(16).padStart(64, '0');
const common = (version: number) => ({
  version: String(version),
  hash: H(version),
  state_change_hash: H(1),
  event_root_hash: H(2),
  state_checkpoint_hash: null,
  gas_used: '0',
  success: true,
  vm_status: 'Executed successfully',
  accumulator_root_hash: H(3),
  changes: [],
});
const event = { guid: { creation_number: '0', account_address: '0x0' }, sequence_number: '0', type: '0x1::transaction_fee::FeeStatement', data: { total_charge_gas_units: '6' } };
const metadata = {
  type: 'block_metadata_transaction',
  ...common(10),
  id: H(99),
  epoch: '7',
  round: '12',
  events: [event],
  previous_block_votes_bitvec: '0xff01',
  proposer: H(5),
  failed_proposer_indices: ['1'],
  timestamp: '1700000000000000',
};
const user = (version: number, signature: unknown, payload: unknown = { type: 'entry_function_payload', function: '0x1::coin::transfer', type_arguments: ['0x1::aptos_coin::AptosCoin'], arguments: [H(7), '100'] }) => ({
  type: 'user_transaction',
  ...common(version),
  sender: H(6),
  sequence_number: '3',
  max_gas_amount: '2000',
  gas_unit_price: '100',
  expiration_timestamp_secs: '1700000600',
  payload,
  signature,
  events: [event],
  timestamp: '1700000000000000',
});
const ed = { type: 'ed25519_signature', public_key: H(8), signature: '0x' + 'ab'.repeat(64) };
const signatures = {
  ed25519_signature: ed,
  multi_ed25519_signature: { type: 'multi_ed25519_signature', public_keys: [H(1), H(2)], signatures: ['0x01', '0x02'], threshold: 1, bitmap: '0xc0000000' },
  multi_agent_signature: { type: 'multi_agent_signature', sender: ed, secondary_signer_addresses: [H(9)], secondary_signers: [ed] },
  fee_payer_signature: { type: 'fee_payer_signature', sender: ed, secondary_signer_addresses: [], secondary_signers: [], fee_payer_address: H(9), fee_payer_signer: ed },
  single_sender: { type: 'single_sender', public_key: { type: 'ed25519', value: H(8) }, signature: { type: 'ed25519', value: '0x01' } },
  a_future_signature: { type: 'a_future_signature', blob: '0x00' },
};
const payloads = {
  entry_function_payload: { type: 'entry_function_payload', function: '0x1::aptos_account::transfer', type_arguments: [], arguments: [H(7), '5'] },
  script_payload: { type: 'script_payload', code: { bytecode: '0xa11ceb0b' }, type_arguments: [], arguments: [] },
  multisig_payload: { type: 'multisig_payload', multisig_address: H(4), transaction_payload: { type: 'entry_function_payload', function: '0x1::coin::transfer', type_arguments: [], arguments: [] } },
  module_bundle_payload: { type: 'module_bundle_payload', modules: [{ bytecode: '0x00' }] },
  write_set_payload: { type: 'write_set_payload', write_set: { type: 'direct_write_set', changes: [], events: [] } },
};
const others = [
  { type: 'state_checkpoint_transaction', ...common(20), state_checkpoint_hash: H(4), timestamp: '1700000000000000' },
  { type: 'validator_transaction', ...common(11), events: [event], timestamp: '1700000000000000', validator_transaction_type: 'observed_jwk_update' },
  { type: 'block_epilogue_transaction', ...common(21), timestamp: '1700000000000000', block_end_info: { block_gas_limit_reached: false, block_output_limit_reached: false, block_effective_block_gas_units: 0, block_approx_output_size: 3590 } },
  { type: 'block_epilogue_transaction', ...common(21), timestamp: '1700000000000000', block_end_info: null },
  { type: 'genesis_transaction', ...common(0), payload: payloads.write_set_payload, events: [event] },
  { type: 'a_transaction_from_the_future', version: '22', whatever: { nested: true } },
];
const blockOf = (txs: unknown[]) => ({ block_height: '5', block_hash: H(99), block_timestamp: '1700000000000000', first_version: '10', last_version: '30', transactions: txs });

describe('hand-made variants', () => {
  it.each(Object.entries(signatures))('user transaction with %s signature parses and round-trips', (_name, sig) => {
    const b = blockOf([metadata, user(12, sig)]);
    expect(serializeBlock(parseBlock(b))).toEqual(b);
  });
  it.each(Object.entries(payloads))('user transaction with %s parses', (_name, payload) => {
    const b = blockOf([user(12, ed, payload)]);
    expect(parseBlock(b).transactions![0]).toEqual(b.transactions[0]);
  });
  it.each(others.map((t) => [t.type, t] as const))('%s parses and keeps its fields', (_type, tx) => {
    const b = blockOf([metadata, tx]);
    expect(parseBlock(b).transactions![1]).toEqual(tx);
  });
  it('metadata bitvec as bytes, as a hex string, indices as numbers or strings', () => {
    for (const bits of [[1, 255], '0x01ff', ['1', '255']]) {
      expect(blockMetadataTransactionSchema.safeParse({ ...metadata, previous_block_votes_bitvec: bits, failed_proposer_indices: [1, '2'] }).success).toBe(true);
    }
  });
  it('a broken known variant names the field that failed', () => {
    const { sender: _s, ...noSender } = user(12, ed);
    const r = blockSchema.safeParse(blockOf([metadata, noSender]));
    expect(r.success).toBe(false);
    expect(describeZodError(r.error!)).toMatch(/^transactions\[1\]\.sender: /);
    const bad = blockSchema.safeParse(blockOf([{ ...metadata, epoch: '-1' }]));
    expect(describeZodError(bad.error!)).toMatch(/^transactions\[0\]\.epoch: must be an unsigned 64-bit integer/);
    const badSig = blockSchema.safeParse(blockOf([user(12, { type: 'ed25519_signature', public_key: 'nothex', signature: '0x00' })]));
    expect(describeZodError(badSig.error!)).toMatch(/^transactions\[0\]\.signature\.public_key: /);
  });
  it('a transaction without a type is refused', () => {
    const { type: _t, ...untyped } = metadata;
    expect(blockSchema.safeParse(blockOf([untyped])).success).toBe(false);
  });
  it('envelope: u64 strings, first <= last', () => {
    expect(blockSchema.safeParse({ ...blockOf([]), block_height: 5 }).success).toBe(false);
    expect(blockSchema.safeParse({ ...blockOf([]), block_timestamp: '18446744073709551616' }).success).toBe(false);
    expect(blockSchema.safeParse({ ...blockOf([]), first_version: '31' }).success).toBe(false);
  });
});

describe('request parameters', () => {
  it.each([
    ['0', '0'],
    ['86447894', '86447894'],
    ['007', '7'],
    ['18446744073709551615', '18446744073709551615'],
    ['00018446744073709551615', '18446744073709551615'],
  ])('version %s -> %s', (input, out) => {
    expect(ledgerVersionSchema.parse(input)).toBe(out);
  });
  it.each(['', '-1', '+1', '1.0', '1e3', '0x10', ' 1', '1 ', '18446744073709551616', '99999999999999999999999', 'abc', '1'.padStart(65, '0')])(
    'version %j is refused with a message that says what a version is',
    (input) => {
      const r = ledgerVersionSchema.safeParse(input);
      expect(r.success).toBe(false);
      expect(r.error!.issues[0].message).toMatch(/unsigned 64-bit integer/);
    },
  );
  it('with_transactions: the shared query boolean', () => {
    expect(blockQuerySchema.parse({})).toEqual({});
    for (const [v, out] of [['true', true], ['TRUE', true], ['True', true], ['false', false], ['FALSE', false], ['', undefined], [' ', undefined]] as const) {
      expect(blockQuerySchema.parse({ with_transactions: v }).with_transactions).toBe(out);
    }
    for (const [bad, message] of [
      ['yes', 'expected true or false'],
      ['1', 'expected true or false'],
      ['0', 'expected true or false'],
      [['true', 'false'], 'given more than once; send it once, true or false'],
    ] as const) {
      const r = blockQuerySchema.safeParse({ with_transactions: bad });
      expect(r.success).toBe(false);
      expect(r.error!.issues[0].path).toEqual(['with_transactions']);
      expect(r.error!.issues[0].message).toBe(message);
    }
  });
  it('network', () => {
    expect(ledgerNetworkSchema.parse('testnet')).toBe('testnet');
    const r = ledgerNetworkSchema.safeParse('devnet');
    expect(r.error!.issues[0].message).toBe('must be one of mainnet, testnet, local');
  });
});
