import { z } from 'zod';
import {
  blankToUndefined,
  boolToWire,
  boolish,
  compact,
  cursorSchema,
  decimalString,
  directionSchema,
  nullableDecimal,
  nullableIndex,
  nullableLabel,
  nullableString,
  pageNumber,
  queryBoolean,
  queryChain,
  queryCursor,
  queryAddresses,
  queryInt,
  tokenIdSchema,
} from './common';
import {
  GIVE_UP,
  fastArray,
  fastBoolish,
  fastCursor,
  fastDecimal,
  fastDirection,
  fastLooseObject,
  fastNullableDecimal,
  fastNullableIndex,
  fastNullableLabel,
  fastNullableString,
  fastNullish,
  fastPageNumber,
  fastString,
  fastTokenId,
  withFastPath,
  type Fast,
} from './fast-parse';

/**
 * Wallet history: GET {base_url}/api/v2.2/wallets/{address}/history.
 *
 * `historyPageSchema` parses what providers really send into one internal shape (`HistoryPage`):
 * labels `string | null`, booleans as booleans, page numbers as numbers, cursor `string | null`,
 * one `erc20_transfer` list whichever spelling came, direction `send` | `receive`, and every key the
 * interface does not name (category, summary, method_label, transaction_fee, logs, ...) kept as sent.
 * `serializeHistoryPage` writes the interface's shape back for Lantern's published API.
 */

const parties = {
  from_address_entity: nullableLabel,
  from_address_entity_logo: nullableLabel,
  from_address: nullableString,
  from_address_label: nullableLabel,
  to_address_entity: nullableLabel,
  to_address_entity_logo: nullableLabel,
  to_address: nullableString,
  to_address_label: nullableLabel,
};

export const internalTransactionSchema = z.looseObject({
  transaction_hash: z.string(),
  block_number: decimalString,
  block_hash: nullableString,
  type: nullableString,
  from: nullableString,
  to: nullableString,
  value: nullableDecimal,
  gas: nullableDecimal,
  gas_used: nullableDecimal,
  input: nullableString,
  output: nullableString,
});

export const nftTransferSchema = z.looseObject({
  token_address: z.string(),
  token_id: tokenIdSchema,
  ...parties,
  value: nullableDecimal,
  amount: nullableDecimal,
  contract_type: nullableString,
  block_number: nullableDecimal,
  block_timestamp: nullableString,
  block_hash: nullableString,
  transaction_hash: nullableString,
  transaction_type: nullableString,
  transaction_index: nullableIndex,
  log_index: nullableIndex,
  operator: nullableString,
  possible_spam: boolish,
  verified_collection: boolish,
  direction: directionSchema,
});

export const erc20TransferSchema = z.looseObject({
  token_name: nullableLabel,
  token_symbol: nullableLabel,
  token_logo: nullableLabel,
  token_decimals: nullableDecimal,
  transaction_hash: nullableString,
  address: z.string(),
  block_timestamp: nullableString,
  block_number: nullableDecimal,
  block_hash: nullableString,
  ...parties,
  value: decimalString,
  value_formatted: nullableString,
  transaction_index: nullableIndex,
  log_index: nullableIndex,
  possible_spam: boolish,
  verified_contract: boolish,
  direction: directionSchema,
});

export const nativeTransferSchema = z.looseObject({
  ...parties,
  value: decimalString,
  value_formatted: nullableString,
  direction: directionSchema,
  internal_transaction: boolish,
  token_symbol: nullableLabel,
  token_logo: nullableLabel,
});

/** Missing or null lists are empty lists: a transaction without NFT transfers has none. */
const list = <T extends z.ZodType>(item: T) =>
  z
    .array(item)
    .nullish()
    .transform((v) => v ?? []);

const walletTransactionWire = z.looseObject({
    hash: z.string(),
    nonce: nullableDecimal,
    transaction_index: nullableDecimal,
    ...parties,
    from_address: z.string(),
    value: decimalString,
    gas: nullableDecimal,
    gas_price: nullableDecimal,
    receipt_cumulative_gas_used: nullableDecimal,
    receipt_gas_used: nullableDecimal,
    receipt_contract_address: nullableString,
    receipt_root: nullableString,
    receipt_status: nullableString,
    block_timestamp: z.string(),
    block_number: decimalString,
    block_hash: nullableString,
    // Present only when requested: absent stays absent, so "not asked" differs from "none".
    internal_transactions: z.array(internalTransactionSchema).nullish().transform((v) => v ?? undefined),
    nft_transfers: list(nftTransferSchema),
    erc20_transfer: z.array(erc20TransferSchema).nullish(),
    erc20_transfers: z.array(erc20TransferSchema).nullish(),
    native_transfers: list(nativeTransferSchema),
    possible_spam: boolish,
    // Provider extras that pages use; typed here, kept in the output like any other extra key.
    category: nullableString,
    summary: nullableString,
    method_label: nullableString,
    transaction_fee: nullableString,
});

type WalletTransactionWire = z.output<typeof walletTransactionWire>;
/** One transaction: erc20 transfers under `erc20_transfer` only; unknown keys kept (index signature). */
export type WalletTransaction = {
  [K in keyof WalletTransactionWire as K extends 'erc20_transfers' | 'erc20_transfer' ? never : K]: WalletTransactionWire[K];
} & { erc20_transfer: Erc20Transfer[] };

export const walletTransactionSchema = walletTransactionWire.transform(({ erc20_transfer, erc20_transfers, ...tx }): WalletTransaction => {
  return { ...tx, erc20_transfer: mergeErc20(erc20_transfer ?? [], erc20_transfers ?? []) } as WalletTransaction;
});

/**
 * The interface says `erc20_transfer`, providers send `erc20_transfers`, and Lantern's own answers carry
 * both with the same list. Merge them, dropping entries that appear in both.
 */
function mergeErc20(a: Erc20Transfer[], b: Erc20Transfer[]): Erc20Transfer[] {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  // Lantern's own answers (a Lantern fronting another): the same list twice, told in two calls, not one
  // per entry and a set (equal JSON texts of the lists: every entry of `b` is one of `a`'s).
  if (a.length === b.length && JSON.stringify(a) === JSON.stringify(b)) return [...a];
  const seen = new Set(a.map((t) => JSON.stringify(t)));
  return [...a, ...b.filter((t) => !seen.has(JSON.stringify(t)))];
}

const historyPageLenient = z.looseObject({
  page: pageNumber,
  page_size: pageNumber,
  cursor: cursorSchema,
  result: z.array(walletTransactionSchema),
});

// The same schemas as plain functions (lib/interface/fast-parse.ts), key for key: a page of 100
// transactions is parsed in well under a millisecond instead of tens, and zod decides whatever they doubt.
const fastParties = {
  from_address_entity: fastNullableLabel,
  from_address_entity_logo: fastNullableLabel,
  from_address: fastNullableString,
  from_address_label: fastNullableLabel,
  to_address_entity: fastNullableLabel,
  to_address_entity_logo: fastNullableLabel,
  to_address: fastNullableString,
  to_address_label: fastNullableLabel,
};
const fastInternal = fastLooseObject<InternalTransaction>({
  transaction_hash: fastString,
  block_number: fastDecimal,
  block_hash: fastNullableString,
  type: fastNullableString,
  from: fastNullableString,
  to: fastNullableString,
  value: fastNullableDecimal,
  gas: fastNullableDecimal,
  gas_used: fastNullableDecimal,
  input: fastNullableString,
  output: fastNullableString,
});
const fastNft = fastLooseObject<NftTransfer>({
  token_address: fastString,
  token_id: fastTokenId,
  ...fastParties,
  value: fastNullableDecimal,
  amount: fastNullableDecimal,
  contract_type: fastNullableString,
  block_number: fastNullableDecimal,
  block_timestamp: fastNullableString,
  block_hash: fastNullableString,
  transaction_hash: fastNullableString,
  transaction_type: fastNullableString,
  transaction_index: fastNullableIndex,
  log_index: fastNullableIndex,
  operator: fastNullableString,
  possible_spam: fastBoolish,
  verified_collection: fastBoolish,
  direction: fastDirection,
});
const fastErc20 = fastLooseObject<Erc20Transfer>({
  token_name: fastNullableLabel,
  token_symbol: fastNullableLabel,
  token_logo: fastNullableLabel,
  token_decimals: fastNullableDecimal,
  transaction_hash: fastNullableString,
  address: fastString,
  block_timestamp: fastNullableString,
  block_number: fastNullableDecimal,
  block_hash: fastNullableString,
  ...fastParties,
  value: fastDecimal,
  value_formatted: fastNullableString,
  transaction_index: fastNullableIndex,
  log_index: fastNullableIndex,
  possible_spam: fastBoolish,
  verified_contract: fastBoolish,
  direction: fastDirection,
});
const fastNative = fastLooseObject<NativeTransfer>({
  ...fastParties,
  value: fastDecimal,
  value_formatted: fastNullableString,
  direction: fastDirection,
  internal_transaction: fastBoolish,
  token_symbol: fastNullableLabel,
  token_logo: fastNullableLabel,
});
const fastErc20List = fastNullish(fastArray(fastErc20), () => undefined);
const fastTransactionWire = fastLooseObject<WalletTransactionWire>({
  hash: fastString,
  nonce: fastNullableDecimal,
  transaction_index: fastNullableDecimal,
  ...fastParties,
  from_address: fastString,
  value: fastDecimal,
  gas: fastNullableDecimal,
  gas_price: fastNullableDecimal,
  receipt_cumulative_gas_used: fastNullableDecimal,
  receipt_gas_used: fastNullableDecimal,
  receipt_contract_address: fastNullableString,
  receipt_root: fastNullableString,
  receipt_status: fastNullableString,
  block_timestamp: fastString,
  block_number: fastDecimal,
  block_hash: fastNullableString,
  internal_transactions: fastNullish(fastArray(fastInternal), () => undefined),
  nft_transfers: fastNullish(fastArray(fastNft), () => []),
  erc20_transfer: fastErc20List,
  erc20_transfers: fastErc20List,
  native_transfers: fastNullish(fastArray(fastNative), () => []),
  possible_spam: fastBoolish,
  category: fastNullableString,
  summary: fastNullableString,
  method_label: fastNullableString,
  transaction_fee: fastNullableString,
});
const fastTransaction: Fast<WalletTransaction> = (v) => {
  const wire = fastTransactionWire(v);
  if (wire === GIVE_UP) return GIVE_UP;
  const { erc20_transfer, erc20_transfers, ...tx } = wire;
  return { ...tx, erc20_transfer: mergeErc20(erc20_transfer ?? [], erc20_transfers ?? []) } as WalletTransaction;
};

const fastHistoryPage = fastLooseObject<z.output<typeof historyPageLenient>>({ page: fastPageNumber, page_size: fastPageNumber, cursor: fastCursor, result: fastArray(fastTransaction) });

export const historyPageSchema = withFastPath(historyPageLenient, fastHistoryPage);
/** The two halves of historyPageSchema, for the test that holds them equal. */
export const historyPageParsers = { lenient: historyPageLenient, fast: fastHistoryPage };

export type InternalTransaction = z.output<typeof internalTransactionSchema>;
export type NftTransfer = z.output<typeof nftTransferSchema>;
export type Erc20Transfer = z.output<typeof erc20TransferSchema>;
export type NativeTransfer = z.output<typeof nativeTransferSchema>;
export type HistoryPage = z.output<typeof historyPageLenient>;

/*
 * Serialisation decisions (what Lantern's published API answers):
 * - page, page_size: decimal strings, as the interface types them.
 * - cursor: always a string, "" when there is no next page ("empty when there is none").
 * - possible_spam, verified_*, internal_transaction: "true"/"false" strings (the interface types them
 *   string); null when the source did not say.
 * - labels, entities, logos: null when unknown; an empty string would be mistaken for a value.
 * - transaction_index / log_index of transfers: numbers, as the interface types them.
 * - erc20: BOTH `erc20_transfer` (the interface) and `erc20_transfers` (what providers and their SDKs
 *   read) with the same list, so clients of either spelling work.
 * - direction: "send" / "receive".
 * - extra fields (category, summary, method_label, transaction_fee, logs, ...) are passed through.
 */

function serializeNftTransfer(t: NftTransfer) {
  return { ...t, possible_spam: boolToWire(t.possible_spam), verified_collection: boolToWire(t.verified_collection) };
}

function serializeErc20Transfer(t: Erc20Transfer) {
  return { ...t, possible_spam: boolToWire(t.possible_spam), verified_contract: boolToWire(t.verified_contract) };
}

function serializeNativeTransfer(t: NativeTransfer) {
  return { ...t, internal_transaction: boolToWire(t.internal_transaction) };
}

export function serializeTransaction(tx: WalletTransaction) {
  const erc20 = tx.erc20_transfer.map(serializeErc20Transfer);
  return compact({
    ...tx,
    possible_spam: boolToWire(tx.possible_spam),
    nft_transfers: tx.nft_transfers.map(serializeNftTransfer),
    erc20_transfer: erc20,
    erc20_transfers: erc20,
    native_transfers: tx.native_transfers.map(serializeNativeTransfer),
  });
}

export function serializeHistoryPage(page: HistoryPage) {
  return {
    ...page,
    page: String(page.page),
    page_size: String(page.page_size),
    cursor: page.cursor ?? '',
    result: page.result.map(serializeTransaction),
  };
}
export type HistoryPageWire = ReturnType<typeof serializeHistoryPage>;

// ---------------------------------------------------------------------------------------------------
// Query parameters of Lantern's published history endpoint. Every issue's path[0] is the parameter.

const MAX_BLOCK = Number.MAX_SAFE_INTEGER;
/** Contracts one history query may filter on (`token_addresses`). */
export const MAX_HISTORY_TOKEN_FILTER = 10;

/** Unix seconds (`1700000000`, `1700000000.5`) or a date string (`2024-01-31`, ISO 8601) -> Date. */
const queryDate = z.preprocess(
  blankToUndefined,
  z
    .string()
    .trim()
    .transform((s, ctx) => {
      const d = /^\d+(\.\d+)?$/.test(s) ? new Date(Number(s) * 1000) : new Date(s);
      if (Number.isNaN(d.getTime())) {
        ctx.addIssue({ code: 'custom', message: 'expected unix seconds or a date such as 2024-01-31 or 2024-01-31T12:00:00Z' });
        return z.NEVER;
      }
      return d;
    })
    .optional(),
);

const queryOrder = z.preprocess(
  blankToUndefined,
  z
    .string()
    .trim()
    .toUpperCase()
    .pipe(z.enum(['ASC', 'DESC'], { error: 'expected ASC or DESC' }))
    .default('DESC'),
);

export interface HistoryRange {
  fromBlock?: number;
  toBlock?: number;
  fromDate?: Date;
  toDate?: Date;
}

/**
 * The interface's rules: from_block beats from_date, to_block beats to_date. Returns the bounds that
 * apply and, when both ends are of the same kind and from > to, the parameter to blame.
 */
export function resolveHistoryRange(q: {
  from_block?: number;
  to_block?: number;
  from_date?: Date;
  to_date?: Date;
}): HistoryRange & { error?: { parameter: 'from_block' | 'from_date'; message: string } } {
  const range: HistoryRange = {};
  if (q.from_block !== undefined) range.fromBlock = q.from_block;
  else if (q.from_date !== undefined) range.fromDate = q.from_date;
  if (q.to_block !== undefined) range.toBlock = q.to_block;
  else if (q.to_date !== undefined) range.toDate = q.to_date;
  if (range.fromBlock !== undefined && range.toBlock !== undefined && range.fromBlock > range.toBlock) {
    return { ...range, error: { parameter: 'from_block', message: `from_block (${range.fromBlock}) is after to_block (${range.toBlock})` } };
  }
  if (range.fromDate && range.toDate && range.fromDate.getTime() > range.toDate.getTime()) {
    return {
      ...range,
      error: { parameter: 'from_date', message: `from_date (${range.fromDate.toISOString()}) is after to_date (${range.toDate.toISOString()})` },
    };
  }
  return range;
}

export const historyQuerySchema = z
  .object({
    chain: queryChain,
    from_block: queryInt(0, MAX_BLOCK),
    to_block: queryInt(0, MAX_BLOCK),
    from_date: queryDate,
    to_date: queryDate,
    include_internal_transactions: queryBoolean.transform((v) => v ?? false),
    nft_metadata: queryBoolean.transform((v) => v ?? false),
    cursor: queryCursor,
    order: queryOrder,
    limit: queryInt(1, 100),
    // Lantern's extension: only the transactions in which one of these contracts moved a token of the
    // wallet's or recorded an approval it gave (node mode; the hosted API has no such filter).
    token_addresses: queryAddresses(MAX_HISTORY_TOKEN_FILTER),
  })
  .superRefine((q, ctx) => {
    const { error } = resolveHistoryRange(q);
    if (error) ctx.addIssue({ code: 'custom', path: [error.parameter], message: error.message });
  });

export type HistoryQuery = z.output<typeof historyQuerySchema>;
