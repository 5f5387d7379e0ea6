import { createHash, createPrivateKey, createPublicKey, sign } from 'node:crypto';

/**
 * The local ledger's chain: deterministic, generated, never stored. Only a few small arrays are built at
 * start (where each block's versions begin); a block's transactions are generated when asked for.
 *
 * Layout (heights 0..BLOCK_COUNT-1, versions from 0):
 *   block 0      one genesis_transaction (pruned, as on a real fullnode)
 *   block h > 0  block_metadata_transaction, a validator_transaction every 500 blocks (at h % 500 == 250),
 *                0..12 user_transactions, then a state_checkpoint_transaction (h < EPILOGUE_FROM) or a
 *                block_epilogue_transaction (h >= EPILOGUE_FROM)
 *   BIG_BLOCK    2,000 user transactions (2,002 in all); HUGE_BLOCK 9,998 (10,000 in all)
 * Heights below PRUNED_BELOW answer 410, like a pruned fullnode.
 *
 * User transactions are signed with real ed25519 keys derived from fixed seeds. Senders take turns:
 * within each round of SENDER_COUNT consecutive user transactions every sender sends exactly once (in a
 * per-round order), so a sender's sequence number is the round number and stays exact without state.
 *
 * SIGNING (not BCS): the signed message is
 *   sha3-256("APTOS::RawTransaction") || utf8(canonicalJson([chain_id, sender, sequence_number,
 *   payload, max_gas_amount, gas_unit_price, expiration_timestamp_secs]))
 * where canonicalJson is JSON.stringify with every object's keys sorted (so any JSON parser's key
 * order re-creates the same bytes),
 * and for fee-payer transactions the prefix is sha3-256("APTOS::RawTransactionWithData") and
 * fee_payer_address is appended to the array. Real nodes sign the BCS encoding of the raw
 * transaction; this JSON encoding is a documented stand-in that keeps the devnet dependency-free while
 * the keys, signatures and addresses (sha3-256(public_key || 0x00)) are real and verifiable.
 */

export const CHAIN_ID = 4;
export const BLOCK_COUNT = 6000;
export const PRUNED_BELOW = 100; // oldest_block_height
export const EPILOGUE_FROM = 3000;
export const BIG_BLOCK = 4200;
export const HUGE_BLOCK = 5500;
export const SENDER_COUNT = 32;
const VALIDATOR_COUNT = 8;
const GENESIS_US = 1_760_000_000_000_000n; // 2025-10-09T08:53:20Z
const BLOCK_INTERVAL_US = 250_000n;

const sha3 = (data) => createHash('sha3-256').update(data).digest();
const hex = (buf) => '0x' + buf.toString('hex');
const label = (s) => hex(sha3(`lantern-ledger-devnet/${s}`));
/** A small deterministic integer from a label. */
const pick = (s, mod) => sha3(`pick/${s}`).readUInt32BE(0) % mod;

const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

function keyFromSeed(seedLabel) {
  const seed = sha3(`lantern-ledger-devnet/key/${seedLabel}`);
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const publicKey = createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(-32);
  const address = hex(sha3(Buffer.concat([publicKey, Buffer.from([0])])));
  return { privateKey, publicKey: hex(publicKey), address };
}

const RAW_TX_SALT = sha3('APTOS::RawTransaction');
const RAW_TX_WITH_DATA_SALT = sha3('APTOS::RawTransactionWithData');
const TX_SALT = sha3('APTOS::Transaction');

export function canonicalJson(value) {
  return JSON.stringify(value, (_k, v) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v,
  );
}

/** The bytes a devnet user transaction's signatures sign (see the note at the top of this file). */
export function signingMessage(tx) {
  const fields = [CHAIN_ID, tx.sender, tx.sequence_number, tx.payload, tx.max_gas_amount, tx.gas_unit_price, tx.expiration_timestamp_secs];
  if (tx.signature?.type === 'fee_payer_signature') {
    return Buffer.concat([RAW_TX_WITH_DATA_SALT, Buffer.from(canonicalJson([...fields, tx.signature.fee_payer_address]))]);
  }
  return Buffer.concat([RAW_TX_SALT, Buffer.from(canonicalJson(fields))]);
}

export function createChain() {
  const senders = Array.from({ length: SENDER_COUNT }, (_, i) => keyFromSeed(`sender/${i}`));
  const validators = Array.from({ length: VALIDATOR_COUNT }, (_, i) => label(`validator/${i}`));

  const userCount = (h) => {
    if (h === 0) return 0;
    if (h === BIG_BLOCK) return 2000;
    if (h === HUGE_BLOCK) return 9998;
    const r = pick(`users/${h}`, 100);
    return r < 15 ? 0 : 1 + (r % 12); // 15% empty blocks, else 1..12
  };
  const hasValidatorTx = (h) => h > 0 && h % 500 === 250;
  const txCount = (h) => (h === 0 ? 1 : 2 + (hasValidatorTx(h) ? 1 : 0) + userCount(h));

  // Where each block's versions and user-transaction indices begin. Float64 holds these exactly.
  const firstVersion = new Float64Array(BLOCK_COUNT + 1);
  const firstUser = new Float64Array(BLOCK_COUNT + 1);
  for (let h = 0; h < BLOCK_COUNT; h++) {
    firstVersion[h + 1] = firstVersion[h] + txCount(h);
    firstUser[h + 1] = firstUser[h] + userCount(h);
  }
  const headVersion = firstVersion[BLOCK_COUNT] - 1;
  const oldestVersion = firstVersion[PRUNED_BELOW];

  const timestampUs = (h) => (h === 0 ? 0n : GENESIS_US + BigInt(h) * BLOCK_INTERVAL_US + BigInt(pick(`jitter/${h}`, 200_000)));
  const epochOf = (h) => 1 + Math.floor(h / 1000);
  const failedAt = (h) => h % 1000 !== 0 && (h % 1000) % 97 === 0;
  const roundOf = (h) => (h % 1000) + 1 + Math.floor((h % 1000) / 97);

  /** The height of the block holding `version`, or -1 beyond the head. */
  function heightOf(version) {
    if (version > headVersion) return -1;
    let lo = 0;
    let hi = BLOCK_COUNT - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (firstVersion[mid] <= version) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  function envelope(h) {
    return {
      block_height: String(h),
      block_hash: label(`block/${h}`),
      block_timestamp: String(timestampUs(h)),
      first_version: String(firstVersion[h]),
      last_version: String(firstVersion[h + 1] - 1),
    };
  }

  const committed = (v, extra = {}) => ({
    version: String(v),
    hash: label(`tx/${v}`),
    state_change_hash: label(`state/${v}`),
    event_root_hash: label(`events/${v}`),
    state_checkpoint_hash: null,
    gas_used: '0',
    success: true,
    vm_status: 'Executed successfully',
    accumulator_root_hash: label(`acc/${v}`),
    changes: [],
    ...extra,
  });
  const moduleEvent = (type, data) => ({ guid: { creation_number: '0', account_address: '0x0' }, sequence_number: '0', type, data });

  function metadataTx(h, v) {
    const proposer = validators[pick(`proposer/${h}`, VALIDATOR_COUNT)];
    const failed = failedAt(h) ? [pick(`failed/${h}`, VALIDATOR_COUNT)] : [];
    const votes = pick(`votes/${h}`, 10) === 0 ? 0xfe : 0xff;
    const ts = String(timestampUs(h));
    const id = label(`block/${h}`);
    return {
      ...committed(v, {
        changes: [
          {
            address: '0x1',
            state_key_hash: label('state-key/block-resource'),
            data: { type: '0x1::block::BlockResource', data: { epoch_interval: '7200000000', height: String(h) } },
            type: 'write_resource',
          },
        ],
      }),
      id,
      epoch: String(epochOf(h)),
      round: String(roundOf(h)),
      events: [
        moduleEvent('0x1::block::NewBlock', {
          epoch: String(epochOf(h)),
          failed_proposer_indices: failed.map(String),
          hash: id,
          height: String(h),
          previous_block_votes_bitvec: '0x' + votes.toString(16),
          proposer,
          round: String(roundOf(h)),
          time_microseconds: ts,
        }),
      ],
      previous_block_votes_bitvec: [votes],
      proposer,
      failed_proposer_indices: failed,
      timestamp: ts,
      type: 'block_metadata_transaction',
    };
  }

  function validatorTx(h, v) {
    return {
      ...committed(v),
      events: [moduleEvent('0x1::jwks::ObservedJWKsUpdated', { epoch: String(epochOf(h)), jwks: { entries: [] } })],
      timestamp: String(timestampUs(h)),
      validator_transaction_type: 'observed_jwk_update',
      type: 'validator_transaction',
    };
  }

  function userTx(h, v, k) {
    const round = Math.floor(k / SENDER_COUNT);
    const senderIndex = ((k % SENDER_COUNT) * 7 + round * 3) % SENDER_COUNT; // a permutation per round
    const sender = senders[senderIndex];
    const recipient = pick(`to-known/${k}`, 3) === 0 ? senders[(senderIndex + 1 + pick(`to/${k}`, SENDER_COUNT - 1)) % SENDER_COUNT].address : label(`recipient/${k}`);
    const amount = String(1 + pick(`amount/${k}`, 5_000_000) * 100);
    const kind = pick(`kind/${k}`, 10);
    const payload =
      kind <= 3
        ? { function: '0x1::aptos_account::transfer', type_arguments: [], arguments: [recipient, amount], type: 'entry_function_payload' }
        : kind <= 6
          ? { function: '0x1::coin::transfer', type_arguments: ['0x1::aptos_coin::AptosCoin'], arguments: [recipient, amount], type: 'entry_function_payload' }
          : kind === 7
            ? { function: '0x1::aptos_account::transfer_coins', type_arguments: [`${label('coin-publisher')}::usdl::USDL`], arguments: [recipient, amount], type: 'entry_function_payload' }
            : kind === 8
              ? { function: '0x1::primary_fungible_store::transfer', type_arguments: ['0x1::fungible_asset::Metadata'], arguments: [{ inner: '0xa' }, recipient, amount], type: 'entry_function_payload' }
              : { function: '0x1::aptos_account::batch_transfer', type_arguments: [], arguments: [[recipient, label(`recipient2/${k}`)], [amount, '1000']], type: 'entry_function_payload' };
    const gasUnitPrice = String(100 + pick(`price/${k}`, 3) * 50);
    const failed = k % 29 === 13;
    const gasUsed = String(failed ? 4 + pick(`gas/${k}`, 3) : 8 + pick(`gas/${k}`, 12));
    const ts = timestampUs(h);
    const tx = {
      sender: sender.address,
      sequence_number: String(round),
      max_gas_amount: String(2000 * (1 + pick(`max/${k}`, 100))),
      gas_unit_price: gasUnitPrice,
      expiration_timestamp_secs: String(ts / 1_000_000n + 600n),
      payload,
    };
    const feePayer = k % 31 === 7 ? senders[(senderIndex + 5) % SENDER_COUNT] : undefined;
    let signature;
    if (feePayer) {
      signature = { type: 'fee_payer_signature', fee_payer_address: feePayer.address };
      const msg = signingMessage({ ...tx, signature });
      signature = {
        sender: { public_key: sender.publicKey, signature: hex(sign(null, msg, sender.privateKey)), type: 'ed25519_signature' },
        secondary_signer_addresses: [],
        secondary_signers: [],
        fee_payer_address: feePayer.address,
        fee_payer_signer: { public_key: feePayer.publicKey, signature: hex(sign(null, msg, feePayer.privateKey)), type: 'ed25519_signature' },
        type: 'fee_payer_signature',
      };
    } else {
      const msg = signingMessage(tx);
      signature = { public_key: sender.publicKey, signature: hex(sign(null, msg, sender.privateKey)), type: 'ed25519_signature' };
    }
    const hash = hex(sha3(Buffer.concat([TX_SALT, signingMessage({ ...tx, signature }), Buffer.from(canonicalJson(signature))])));
    const fee = moduleEvent('0x1::transaction_fee::FeeStatement', {
      execution_gas_units: String(Number(gasUsed) - 2),
      io_gas_units: '2',
      storage_fee_octas: '0',
      storage_fee_refund_octas: '0',
      total_charge_gas_units: gasUsed,
    });
    const events = failed
      ? [fee]
      : [
          moduleEvent('0x1::fungible_asset::Withdraw', { amount, store: label(`store/${sender.address}`) }),
          moduleEvent('0x1::fungible_asset::Deposit', { amount, store: label(`store/${recipient}`) }),
          fee,
        ];
    return {
      ...committed(v, {
        hash,
        gas_used: gasUsed,
        success: !failed,
        vm_status: failed ? 'Move abort in 0x1::coin: EINSUFFICIENT_BALANCE(0x10006): Not enough coins to complete transaction' : 'Executed successfully',
        changes: [
          {
            address: sender.address,
            state_key_hash: label(`state-key/account/${sender.address}`),
            data: { type: '0x1::account::Account', data: { sequence_number: String(round + 1) } },
            type: 'write_resource',
          },
        ],
      }),
      ...tx,
      signature,
      replay_protection_nonce: null,
      events,
      timestamp: String(ts),
      type: 'user_transaction',
    };
  }

  function closingTx(h, v) {
    const ts = String(timestampUs(h));
    if (h < EPILOGUE_FROM) return { ...committed(v, { state_checkpoint_hash: label(`checkpoint/${v}`) }), timestamp: ts, type: 'state_checkpoint_transaction' };
    return {
      ...committed(v, { state_checkpoint_hash: label(`checkpoint/${v}`) }),
      timestamp: ts,
      block_end_info: {
        block_gas_limit_reached: false,
        block_output_limit_reached: false,
        block_effective_block_gas_units: userCount(h) * 10,
        block_approx_output_size: 600 + userCount(h) * 1200,
      },
      type: 'block_epilogue_transaction',
    };
  }

  function genesisTx() {
    return {
      ...committed(0),
      payload: { write_set: { changes: [], events: [], type: 'direct_write_set' }, type: 'write_set_payload' },
      events: [],
      type: 'genesis_transaction',
    };
  }

  /** The block at height `h` in the fullnode's JSON shape. */
  function block(h, withTransactions) {
    const out = envelope(h);
    if (!withTransactions) return out;
    const txs = [];
    let v = firstVersion[h];
    if (h === 0) txs.push(genesisTx());
    else {
      txs.push(metadataTx(h, v++));
      if (hasValidatorTx(h)) txs.push(validatorTx(h, v++));
      const k0 = firstUser[h];
      for (let i = 0; i < userCount(h); i++) txs.push(userTx(h, v++, k0 + i));
      txs.push(closingTx(h, v++));
    }
    return { ...out, transactions: txs };
  }

  function info() {
    const h = BLOCK_COUNT - 1;
    return {
      chain_id: CHAIN_ID,
      epoch: String(epochOf(h)),
      ledger_version: String(headVersion),
      oldest_ledger_version: String(oldestVersion),
      ledger_timestamp: String(timestampUs(h)),
      node_role: 'full_node',
      oldest_block_height: String(PRUNED_BELOW),
      block_height: String(h),
      git_hash: 'lantern-ledger-devnet',
    };
  }

  return {
    info,
    block,
    heightOf,
    headVersion,
    oldestVersion,
    headHeight: BLOCK_COUNT - 1,
    firstVersionOf: (h) => firstVersion[h],
    lastVersionOf: (h) => firstVersion[h + 1] - 1,
    senders: senders.map((s) => ({ address: s.address, publicKey: s.publicKey })),
  };
}
