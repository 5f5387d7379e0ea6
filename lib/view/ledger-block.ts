import {
  blockMetadata,
  isKnownPayload,
  isKnownTransaction,
  transactionCount,
  type LedgerBlock,
  type LedgerEvent,
  type LedgerPayload,
  type LedgerTransaction,
  type TransactionType,
} from '@/lib/interface/ledger';
import { truncateMiddle } from '@/lib/format';

/**
 * What the ledger page shows, computed on the server from the parsed block. Rows are small (the table
 * of a 10,000-transaction block stays light); a row's payload, signature and events are loaded when it
 * is opened (`TxDetail`).
 */

export interface TxRow {
  version: string;
  hash?: string;
  type: string;
  sender?: string;
  /** `0x1::coin::transfer` for entry functions; a short description for other variants. */
  action: string;
  typeArguments?: string[];
  arguments?: string;
  gasUsed?: string;
  gasUnitPrice?: string;
  success?: boolean;
  vmStatus?: string;
  /** Seconds since the epoch. */
  expiration?: string;
}

export interface Field {
  label: string;
  value: string;
  mono?: boolean;
}

export interface TxDetail {
  version: string;
  type: string;
  /** The fields this variant has and the others do not. */
  fields: Field[];
  payload?: unknown;
  signature?: unknown;
  events: LedgerEvent[];
  changes: number;
  /** The whole transaction as the node sent it (for variants Lantern does not know). */
  raw?: unknown;
}

export const TYPE_LABELS: Record<TransactionType, string> = {
  block_metadata_transaction: 'Block metadata',
  state_checkpoint_transaction: 'State checkpoint',
  user_transaction: 'User',
  validator_transaction: 'Validator',
  block_epilogue_transaction: 'Block epilogue',
  genesis_transaction: 'Genesis',
};

/** A type's label; an unknown type reads as itself. */
export const typeLabel = (type: string): string => (TYPE_LABELS as Record<string, string | undefined>)[type] ?? type;

const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? undefined : JSON.stringify(v));

/** Arguments as one line: strings bare, nested values as JSON, long ones middle-truncated. */
export function formatArguments(args: unknown[]): string {
  return args
    .map((a) => {
      const s = typeof a === 'string' ? a : JSON.stringify(a);
      return truncateMiddle(s, 12, 8);
    })
    .join(', ');
}

/** What a user transaction does, in one line: the entry function it calls, or its payload kind. */
function payloadAction(payload: LedgerPayload): Pick<TxRow, 'action' | 'typeArguments' | 'arguments'> {
  const kind = payload.type.replace(/_payload$/, '').replace(/_/g, ' ');
  if (!isKnownPayload(payload)) return { action: kind };
  switch (payload.type) {
    case 'entry_function_payload':
      return { action: payload.function, typeArguments: payload.type_arguments, arguments: formatArguments(payload.arguments) };
    case 'script_payload':
      return { action: kind, typeArguments: payload.type_arguments, arguments: formatArguments(payload.arguments) };
    case 'multisig_payload': {
      const fn = payload.transaction_payload?.function;
      return { action: typeof fn === 'string' ? `multisig: ${fn}` : kind };
    }
    default:
      return { action: kind };
  }
}

/** One row per transaction type; a type this Lantern does not know is named as such. */
export function toRow(tx: LedgerTransaction): TxRow {
  if (!isKnownTransaction(tx)) return { version: tx.version ?? '', hash: tx.hash, type: tx.type, action: `${tx.type} (not known to this Lantern)` };
  const base: TxRow = {
    version: tx.version,
    hash: tx.hash,
    type: tx.type,
    action: TYPE_LABELS[tx.type],
    gasUsed: tx.gas_used,
    success: tx.success,
    vmStatus: tx.vm_status,
  };
  switch (tx.type) {
    case 'user_transaction':
      return { ...base, sender: tx.sender, ...payloadAction(tx.payload), gasUnitPrice: tx.gas_unit_price, expiration: tx.expiration_timestamp_secs };
    case 'block_metadata_transaction':
      return { ...base, action: `epoch ${tx.epoch}, round ${tx.round}` };
    case 'validator_transaction':
      return { ...base, action: `validator: ${str(tx.validator_transaction_type) ?? 'update'}` };
    case 'block_epilogue_transaction':
    case 'state_checkpoint_transaction':
    case 'genesis_transaction':
      return base;
  }
}

/** The fields each known type has and the others do not; an unknown type is shown whole. */
export function toDetail(tx: LedgerTransaction): TxDetail {
  if (!isKnownTransaction(tx)) return { version: tx.version ?? '', type: tx.type, fields: [], events: [], changes: 0, raw: tx };
  const fields: Field[] = [];
  const add = (label: string, v: unknown, mono = true) => {
    const s = str(v);
    if (s !== undefined) fields.push({ label, value: s, mono });
  };
  let payload: unknown;
  let signature: unknown;
  let events: LedgerEvent[] = [];
  switch (tx.type) {
    case 'user_transaction':
      add('Sender', tx.sender);
      add('Sequence number', tx.sequence_number);
      add('Max gas amount', tx.max_gas_amount);
      add('Gas unit price', tx.gas_unit_price);
      add('Expiration (s)', tx.expiration_timestamp_secs);
      add('Replay protection nonce', tx.replay_protection_nonce);
      ({ payload, signature, events } = tx);
      break;
    case 'block_metadata_transaction':
      add('Block id', tx.id);
      add('Epoch', tx.epoch);
      add('Round', tx.round);
      add('Proposer', tx.proposer);
      add('Previous block votes', tx.previous_block_votes_bitvec);
      add('Failed proposer indices', tx.failed_proposer_indices);
      events = tx.events;
      break;
    case 'state_checkpoint_transaction':
      add('State checkpoint hash', tx.state_checkpoint_hash);
      break;
    case 'block_epilogue_transaction':
      add('State checkpoint hash', tx.state_checkpoint_hash);
      for (const [k, v] of Object.entries(tx.block_end_info ?? {})) add(`End info: ${k.replace(/_/g, ' ')}`, v);
      break;
    case 'validator_transaction':
      add('Validator transaction type', tx.validator_transaction_type);
      events = tx.events;
      break;
    case 'genesis_transaction':
      add('Write set', tx.payload.type);
      ({ payload, events } = tx);
      break;
  }
  if (tx.type !== 'genesis_transaction') add('Timestamp (µs)', tx.timestamp);
  add('State change hash', tx.state_change_hash);
  add('Event root hash', tx.event_root_hash);
  add('Accumulator root hash', tx.accumulator_root_hash);
  return { version: tx.version, type: tx.type, fields, payload, signature, events, changes: tx.changes.length };
}

export interface BlockView {
  height: string;
  hash: string;
  timestampUs: string;
  firstVersion: string;
  lastVersion: string;
  count: number;
  epoch?: string;
  round?: string;
  proposer?: string;
  rows?: TxRow[];
}

export function toBlockView(block: LedgerBlock): BlockView {
  const meta = blockMetadata(block);
  return {
    height: block.height,
    hash: block.hash,
    timestampUs: block.timestampUs,
    firstVersion: block.firstVersion,
    lastVersion: block.lastVersion,
    count: transactionCount(block),
    epoch: meta?.epoch,
    round: meta?.round,
    proposer: meta?.proposer,
    rows: block.transactions?.map(toRow),
  };
}
