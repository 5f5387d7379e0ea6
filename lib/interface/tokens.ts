import { z } from 'zod';
import {
  boolish,
  cursorSchema,
  decimalString,
  nullableDecimal,
  nullableLabel,
  nullableNumber,
  nullableString,
  pageNumber,
  queryAddresses,
  queryBoolean,
  queryChain,
  queryCursor,
  queryInt,
} from './common';

/**
 * What a wallet holds: GET {base_url}/api/v2.2/wallets/{address}/tokens (token balances with prices, the
 * native coin first as 0xeeee...eeee) and the legacy GET {base_url}/api/v2.2/{address}/erc20 (a bare
 * array of ERC-20 balances). Wire schemas accept what the provider sends (its documentation's real
 * answer: numbers for page, page_size, block_number and prices, JSON booleans; its OpenAPI example:
 * strings for page and block_number) and keep every key they do not name (security_score, ...).
 */

/** The address the interface gives the chain's native coin in a token list. */
export const NATIVE_TOKEN_ADDRESS = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';

/** Decimals: a number (or its string); null when the token does not say (or says something no uint8 holds). */
const nullableDecimals = pageNumber.nullish().transform((v) => v ?? null);

/** The fields both operations share: one ERC-20 (or the native coin) and what the wallet holds of it. */
const tokenFields = {
  token_address: z.string(),
  name: nullableString,
  symbol: nullableString,
  logo: nullableLabel,
  thumbnail: nullableLabel,
  decimals: nullableDecimals,
  balance: decimalString,
  possible_spam: boolish,
  verified_contract: boolish,
};

export const tokenBalanceSchema = z.looseObject({
  ...tokenFields,
  balance_formatted: nullableString,
  native_token: boolish,
  total_supply: nullableDecimal,
  total_supply_formatted: nullableString,
  percentage_relative_to_total_supply: nullableNumber,
  // Prices: null where the source has none (Lantern's node mode never invents one).
  usd_price: nullableNumber,
  usd_price_24hr_percent_change: nullableNumber,
  usd_price_24hr_usd_change: nullableNumber,
  usd_value: nullableNumber,
  usd_value_24hr_usd_change: nullableNumber,
  portfolio_percentage: nullableNumber,
});

/** A token Lantern's node source could not read a balance of (its balanceOf reverts or answers nothing). */
export const unreadableTokenSchema = z.looseObject({
  token_address: z.string(),
  name: nullableString,
  symbol: nullableString,
  reason: z.string(),
});

export const tokenBalancesPageSchema = z.looseObject({
  page: pageNumber,
  page_size: pageNumber,
  cursor: cursorSchema,
  block_number: nullableDecimal,
  result: z
    .array(tokenBalanceSchema)
    .nullish()
    .transform((v) => v ?? []),
  // Lantern's own (node mode): the wallet's tokens whose balance could not be read, each with why.
  unreadable: z.array(unreadableTokenSchema).optional(),
});

export const erc20BalanceSchema = z.looseObject(tokenFields);
/** The legacy operation answers a bare array. */
export const erc20BalancesSchema = z.array(erc20BalanceSchema);

export type TokenBalance = z.output<typeof tokenBalanceSchema>;
export type UnreadableToken = z.output<typeof unreadableTokenSchema>;
export type TokenBalancesPage = z.output<typeof tokenBalancesPageSchema>;
export type Erc20Balance = z.output<typeof erc20BalanceSchema>;

/*
 * Serialisation decisions: page and page_size are decimal strings (as every Lantern page), block_number a
 * decimal string (the interface's type), cursor "" when there is no next page; possible_spam,
 * verified_contract and native_token are JSON booleans, as the provider sends them here and its SDK
 * reads them (a string "false" would read as true); decimals a number, or null when unknown; unknown
 * logos, prices and values null; extra keys passed through.
 */
export function serializeTokenBalancesPage(page: TokenBalancesPage) {
  return {
    ...page,
    page: String(page.page),
    page_size: String(page.page_size),
    cursor: page.cursor ?? '',
    block_number: page.block_number,
  };
}
export type TokenBalancesPageWire = ReturnType<typeof serializeTokenBalancesPage>;

// ---------------------------------------------------------------------------------------------------
// Query parameters. Every issue's path[0] is the parameter.

const MAX_BLOCK = Number.MAX_SAFE_INTEGER;
/** Token addresses one request may name. */
export const MAX_TOKEN_FILTER = 100;

export const tokenBalancesQuerySchema = z.object({
  chain: queryChain,
  to_block: queryInt(0, MAX_BLOCK),
  token_addresses: queryAddresses(MAX_TOKEN_FILTER),
  exclude_spam: queryBoolean.transform((v) => v ?? false),
  exclude_native: queryBoolean.transform((v) => v ?? false),
  cursor: queryCursor,
  limit: queryInt(1, 100),
});
export type TokenBalancesQuery = z.output<typeof tokenBalancesQuerySchema>;

export const erc20BalancesQuerySchema = z.object({
  chain: queryChain,
  to_block: queryInt(0, MAX_BLOCK),
  token_addresses: queryAddresses(MAX_TOKEN_FILTER),
  exclude_spam: queryBoolean.transform((v) => v ?? false),
});
export type Erc20BalancesQuery = z.output<typeof erc20BalancesQuerySchema>;
