import { z } from 'zod';
import {
  boolish,
  cursorSchema,
  nullableDecimal,
  nullableLabel,
  nullableNumber,
  nullableString,
  pageNumber,
  queryChain,
  queryCursor,
  queryInt,
} from './common';

/**
 * Who may spend a wallet's tokens: GET {base_url}/api/v2.2/wallets/{address}/approvals. `result` lists
 * the ERC-20 allowances still standing (value above zero), as the provider does. Lantern's node mode adds
 * `operator_approvals` on the first page: the ERC-721/1155 operators (`setApprovalForAll`) still approved,
 * which the provider's operation does not list. Wire schemas accept the provider's documented example
 * (page as a string, block_number as a number, prices as numeric strings) and keep unknown keys.
 */

const partySchema = z.looseObject({
  address: z.string(),
  address_label: nullableLabel,
  entity: nullableLabel,
  entity_logo: nullableLabel,
});

export const approvalSchema = z.looseObject({
  block_number: nullableDecimal,
  block_timestamp: nullableString,
  transaction_hash: nullableString,
  value: nullableDecimal,
  value_formatted: nullableString,
  token: z.looseObject({
    address: z.string(),
    address_label: nullableLabel,
    name: nullableString,
    symbol: nullableString,
    logo: nullableLabel,
    possible_spam: boolish,
    verified_contract: boolish,
    current_balance: nullableDecimal,
    current_balance_formatted: nullableString,
    usd_price: nullableNumber,
    usd_at_risk: nullableNumber,
  }),
  spender: partySchema,
});

export const operatorApprovalSchema = z.looseObject({
  block_number: nullableDecimal,
  block_timestamp: nullableString,
  transaction_hash: nullableString,
  token: z.looseObject({
    address: z.string(),
    name: nullableString,
    symbol: nullableString,
    contract_type: nullableString,
    possible_spam: boolish,
  }),
  operator: partySchema,
});

export const approvalsPageSchema = z.looseObject({
  page: pageNumber,
  page_size: pageNumber,
  cursor: cursorSchema,
  result: z
    .array(approvalSchema)
    .nullish()
    .transform((v) => v ?? []),
  operator_approvals: z.array(operatorApprovalSchema).optional(),
});

export type Approval = z.output<typeof approvalSchema>;
export type OperatorApproval = z.output<typeof operatorApprovalSchema>;
export type ApprovalsPage = z.output<typeof approvalsPageSchema>;

/**
 * Serialisation decisions: page and page_size decimal strings, cursor "" when there is no next page,
 * block_number a decimal string (as in the history), booleans as JSON booleans (the provider's example),
 * prices and values at risk null where there is no price.
 */
export function serializeApprovalsPage(page: ApprovalsPage) {
  return { ...page, page: String(page.page), page_size: String(page.page_size), cursor: page.cursor ?? '' };
}
export type ApprovalsPageWire = ReturnType<typeof serializeApprovalsPage>;

export const approvalsQuerySchema = z.object({
  chain: queryChain,
  cursor: queryCursor,
  limit: queryInt(1, 100),
});
export type ApprovalsQuery = z.output<typeof approvalsQuerySchema>;
