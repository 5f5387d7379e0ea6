import type { LedgerBlock, LedgerEvent, LedgerTransaction } from '@/lib/interface/ledger';

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

export const TYPE_LABELS: Record<string, string> = {
  block_metadata_transaction: 'Block metadata',
  state_checkpoint_transaction: 'State checkpoint',
  user_transaction: 'User',
  validator_transaction: 'Validator',
  block_epilogue_transaction: 'Block epilogue',
  genesis_transaction: 'Genesis',
};

type Loose = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? undefined : JSON.stringify(v));

/** Arguments as one line: strings bare, nested values as JSON, long ones middle-truncated. */
export function formatArguments(args: unknown[]): string {
  return args
    .map((a) => {
      const s = typeof a === 'string' ? a : JSON.stringify(a);
      return s.length > 24 ? `${s.slice(0, 12)}…${s.slice(-8)}` : s;
    })
    .join(', ');
}

export function toRow(tx: LedgerTransaction): TxRow {
  const t = tx as Loose;
  const base: TxRow = { version: String(t.version ?? ''), hash: str(t.hash), type: tx.type, action: TYPE_LABELS[tx.type] ?? tx.type };
  const common = { gasUsed: str(t.gas_used), success: typeof t.success === 'boolean' ? t.success : undefined, vmStatus: str(t.vm_status) };
  switch (tx.type) {
    case 'user_transaction': {
      const payload = (t.payload ?? {}) as Loose;
      const isEntry = payload.type === 'entry_function_payload';
      const inner = payload.type === 'multisig_payload' ? ((payload.transaction_payload ?? {}) as Loose) : undefined;
      return {
        ...base,
        ...common,
        sender: str(t.sender),
        action: isEntry
          ? String(payload.function)
          : inner?.function
            ? `multisig: ${String(inner.function)}`
            : String(payload.type ?? 'payload').replace(/_payload$/, '').replace(/_/g, ' '),
        typeArguments: Array.isArray(payload.type_arguments) ? (payload.type_arguments as string[]) : undefined,
        arguments: Array.isArray(payload.arguments) ? formatArguments(payload.arguments) : undefined,
        gasUnitPrice: str(t.gas_unit_price),
        expiration: str(t.expiration_timestamp_secs),
      };
    }
    case 'block_metadata_transaction':
      return { ...base, ...common, action: `epoch ${str(t.epoch)}, round ${str(t.round)}` };
    case 'validator_transaction':
      return { ...base, ...common, action: `validator: ${str(t.validator_transaction_type) ?? 'update'}` };
    case 'block_epilogue_transaction':
    case 'state_checkpoint_transaction':
    case 'genesis_transaction':
      return { ...base, ...common };
    default:
      return { ...base, action: `${tx.type} (not known to this Lantern)` };
  }
}

export function toDetail(tx: LedgerTransaction): TxDetail {
  const t = tx as Loose;
  const fields: Field[] = [];
  const add = (label: string, v: unknown, mono = true) => {
    const s = str(v);
    if (s !== undefined) fields.push({ label, value: s, mono });
  };
  switch (tx.type) {
    case 'user_transaction':
      add('Sender', t.sender);
      add('Sequence number', t.sequence_number);
      add('Max gas amount', t.max_gas_amount);
      add('Gas unit price', t.gas_unit_price);
      add('Expiration (s)', t.expiration_timestamp_secs);
      add('Replay protection nonce', t.replay_protection_nonce);
      break;
    case 'block_metadata_transaction':
      add('Block id', t.id);
      add('Epoch', t.epoch);
      add('Round', t.round);
      add('Proposer', t.proposer);
      add('Previous block votes', t.previous_block_votes_bitvec);
      add('Failed proposer indices', t.failed_proposer_indices);
      break;
    case 'state_checkpoint_transaction':
      add('State checkpoint hash', t.state_checkpoint_hash);
      break;
    case 'block_epilogue_transaction':
      add('State checkpoint hash', t.state_checkpoint_hash);
      if (t.block_end_info && typeof t.block_end_info === 'object') {
        for (const [k, v] of Object.entries(t.block_end_info as Loose)) add(`End info: ${k.replace(/_/g, ' ')}`, v);
      }
      break;
    case 'validator_transaction':
      add('Validator transaction type', t.validator_transaction_type);
      break;
    case 'genesis_transaction':
      add('Write set', (t.payload as Loose | undefined)?.type);
      break;
  }
  if (tx.type !== 'genesis_transaction' && 'timestamp' in t) add('Timestamp (µs)', t.timestamp);
  add('State change hash', t.state_change_hash);
  add('Event root hash', t.event_root_hash);
  add('Accumulator root hash', t.accumulator_root_hash);
  return {
    version: String(t.version ?? ''),
    type: tx.type,
    fields,
    payload: t.payload,
    signature: t.signature,
    events: Array.isArray(t.events) ? (t.events as LedgerEvent[]) : [],
    changes: Array.isArray(t.changes) ? t.changes.length : 0,
    raw: TYPE_LABELS[tx.type] ? undefined : tx,
  };
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
  const meta = block.transactions?.find((t) => t.type === 'block_metadata_transaction') as Loose | undefined;
  return {
    height: block.height,
    hash: block.hash,
    timestampUs: block.timestampUs,
    firstVersion: block.firstVersion,
    lastVersion: block.lastVersion,
    count: Number(BigInt(block.lastVersion) - BigInt(block.firstVersion) + 1n),
    epoch: str(meta?.epoch),
    round: str(meta?.round),
    proposer: str(meta?.proposer),
    rows: block.transactions?.map(toRow),
  };
}

// ---------------------------------------------------------------------------------------------------
// Formatting

/** Microseconds since the epoch to `2025-10-09 08:53:20.123456 UTC` (exact, no float rounding). */
export function formatMicros(us: string): string {
  const n = BigInt(us);
  const ms = Number(n / 1000n);
  const iso = new Date(ms).toISOString(); // 2025-10-09T08:53:20.123Z
  const micros = (n % 1_000_000n).toString().padStart(6, '0');
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}.${micros} UTC`;
}

/** Octas (10^-8 APT) to a decimal APT string without float error. */
export function octasToApt(octas: bigint): string {
  const whole = octas / 100_000_000n;
  const frac = (octas % 100_000_000n).toString().padStart(8, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : String(whole);
}

export function formatFee(gasUsed?: string, unitPrice?: string): string | undefined {
  if (!gasUsed || !unitPrice) return undefined;
  return `${octasToApt(BigInt(gasUsed) * BigInt(unitPrice))} APT`;
}
