import { z } from 'zod';
import {
  blankToUndefined,
  boolToWire,
  boolish,
  compact,
  cursorSchema,
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
  tokenIdSchema,
} from './common';
import {
  GIVE_UP,
  fastAny,
  fastArray,
  fastBoolish,
  fastCursor,
  fastLooseObject,
  fastNullableDecimal,
  fastNullableLabel,
  fastNullableNumber,
  fastNullableString,
  fastNullish,
  fastNullishAsSent,
  fastPageNumber,
  fastString,
  fastTokenId,
  withFastPath,
  type Fast,
} from './fast-parse';

/**
 * Wallet NFTs: GET {base_url}/api/v2.2/{address}/nft.
 *
 * `nftPageSchema` accepts what providers send (result as one object or a list, total null, booleans
 * as strings, null names) and produces `NftPage` with `result` always a list. Unknown keys such as
 * minter_address, floor_price or last_sale are kept.
 */


export const normalizedMetadataAttributeSchema = z.looseObject({
  trait_type: nullableString,
  // The OpenAPI types `value` as object; real metadata holds strings and numbers. Kept as sent; an
  // attribute without one is kept too (zod's z.unknown() alone would refuse the whole listing for it).
  value: z.unknown().optional(),
  display_type: nullableString,
  max_value: nullableNumber,
  trait_count: nullableNumber,
  order: nullableNumber,
});

export const normalizedMetadataSchema = z.looseObject({
  name: nullableString,
  description: nullableString,
  image: nullableString,
  external_link: nullableString,
  animation_url: nullableString,
  attributes: z
    .array(normalizedMetadataAttributeSchema)
    .nullish()
    .transform((v) => v ?? []),
});

export const mediaItemSchema = z.looseObject({
  url: nullableString,
  width: nullableNumber,
  height: nullableNumber,
});

export const mediaSchema = z.looseObject({
  status: nullableString,
  mimetype: nullableString,
  category: nullableString,
  original_media_url: nullableString,
  updatedAt: nullableString,
  parent_hash: nullableString,
  media_collection: z
    .looseObject({
      low: mediaItemSchema.nullish(),
      medium: mediaItemSchema.nullish(),
      high: mediaItemSchema.nullish(),
    })
    .nullish(),
});

export const nftItemSchema = z.looseObject({
  token_address: z.string(),
  token_id: tokenIdSchema,
  contract_type: nullableString,
  owner_of: nullableString,
  block_number: nullableDecimal,
  block_number_minted: nullableDecimal,
  token_uri: nullableString,
  // Raw metadata is a JSON string in the interface; a provider that sends the object gets it re-encoded.
  metadata: z
    .union([z.string(), z.record(z.string(), z.unknown()).transform((o) => JSON.stringify(o))])
    .nullish()
    .transform((v) => v ?? null),
  // Only present when requested (normalizeMetadata / media_items): absent stays absent.
  normalized_metadata: normalizedMetadataSchema.nullish().transform((v) => v ?? undefined),
  media: mediaSchema.nullish().transform((v) => v ?? undefined),
  amount: nullableDecimal,
  name: nullableLabel,
  symbol: nullableLabel,
  token_hash: nullableString,
  rarity_rank: nullableNumber,
  rarity_label: nullableLabel,
  rarity_percentage: nullableNumber,
  last_token_uri_sync: nullableString,
  last_metadata_sync: nullableString,
  possible_spam: boolish,
  verified_collection: boolish,
});

const nftPageLenient = z.looseObject({
  status: z
    .string()
    .trim()
    .toUpperCase()
    .pipe(z.enum(['SYNCED', 'SYNCING']))
    .nullish()
    .transform((v) => v ?? null),
  total: pageNumber.nullish().transform((v) => v ?? null),
  page: pageNumber,
  page_size: pageNumber,
  cursor: cursorSchema,
  // The interface's example shows one object; providers send a list. Always a list inside Lantern.
  result: z
    .union([z.array(nftItemSchema), nftItemSchema])
    .nullish()
    .transform((v) => (v === null || v === undefined ? [] : Array.isArray(v) ? v : [v])),
});

// The same schemas as plain functions (lib/interface/fast-parse.ts), key for key; zod decides whatever they doubt.
const fastAttribute = fastLooseObject({
  trait_type: fastNullableString,
  value: fastAny,
  display_type: fastNullableString,
  max_value: fastNullableNumber,
  trait_count: fastNullableNumber,
  order: fastNullableNumber,
});
const fastNormalizedMetadata = fastLooseObject<NormalizedMetadata>({
  name: fastNullableString,
  description: fastNullableString,
  image: fastNullableString,
  external_link: fastNullableString,
  animation_url: fastNullableString,
  attributes: fastNullish(fastArray(fastAttribute), () => []),
});
const fastMediaItem = fastLooseObject<NftMediaItem>({ url: fastNullableString, width: fastNullableNumber, height: fastNullableNumber });
const fastOptionalMediaItem = fastNullishAsSent(fastMediaItem);
const fastMediaCollection = fastNullishAsSent(fastLooseObject({ low: fastOptionalMediaItem, medium: fastOptionalMediaItem, high: fastOptionalMediaItem }));
const fastMedia = fastLooseObject<NftMedia>({
  status: fastNullableString,
  mimetype: fastNullableString,
  category: fastNullableString,
  original_media_url: fastNullableString,
  updatedAt: fastNullableString,
  parent_hash: fastNullableString,
  media_collection: fastMediaCollection,
});
// Raw metadata as a string only: an object sent in its place is re-encoded by zod.
const fastMetadata: Fast<string | null> = (v) => (v === null || v === undefined ? null : typeof v === 'string' ? v : GIVE_UP);
const fastNftItem = fastLooseObject<NftItem>({
  token_address: fastString,
  token_id: fastTokenId,
  contract_type: fastNullableString,
  owner_of: fastNullableString,
  block_number: fastNullableDecimal,
  block_number_minted: fastNullableDecimal,
  token_uri: fastNullableString,
  metadata: fastMetadata,
  normalized_metadata: fastNullish(fastNormalizedMetadata, () => undefined),
  media: fastNullish(fastMedia, () => undefined),
  amount: fastNullableDecimal,
  name: fastNullableLabel,
  symbol: fastNullableLabel,
  token_hash: fastNullableString,
  rarity_rank: fastNullableNumber,
  rarity_label: fastNullableLabel,
  rarity_percentage: fastNullableNumber,
  last_token_uri_sync: fastNullableString,
  last_metadata_sync: fastNullableString,
  possible_spam: fastBoolish,
  verified_collection: fastBoolish,
});
const fastStatus: Fast<'SYNCED' | 'SYNCING' | null> = (v) => (v === null || v === undefined ? null : v === 'SYNCED' || v === 'SYNCING' ? v : GIVE_UP);
const fastNftList = fastArray(fastNftItem);
const fastNftPage = fastLooseObject<z.output<typeof nftPageLenient>>({
  status: fastStatus,
  total: (v) => (v === null || v === undefined ? null : fastPageNumber(v)),
  page: fastPageNumber,
  page_size: fastPageNumber,
  cursor: fastCursor,
  // A list only: one object in its place is zod's to wrap.
  result: (v) => (v === null || v === undefined ? [] : Array.isArray(v) ? fastNftList(v) : GIVE_UP),
});

export const nftPageSchema = withFastPath(nftPageLenient, fastNftPage);
/** The two halves of nftPageSchema, for the test that holds them equal. */
export const nftPageParsers = { lenient: nftPageLenient, fast: fastNftPage };

export type NormalizedMetadata = z.output<typeof normalizedMetadataSchema>;
export type NftMedia = z.output<typeof mediaSchema>;
export type NftMediaItem = z.output<typeof mediaItemSchema>;
export type NftItem = z.output<typeof nftItemSchema>;
export type NftPage = z.output<typeof nftPageLenient>;

/*
 * Serialisation decisions (same as history): page, page_size, total as decimal strings (total null
 * when the source does not count); cursor "" when there is no next page; possible_spam and
 * verified_collection as "true"/"false" (null when unknown); names and labels null when unknown;
 * `result` always a list; extra keys passed through.
 */
export function serializeNftItem(item: NftItem) {
  return compact({
    ...item,
    possible_spam: boolToWire(item.possible_spam),
    verified_collection: boolToWire(item.verified_collection),
  });
}

export function serializeNftPage(page: NftPage) {
  return {
    ...page,
    total: page.total === null ? null : String(page.total),
    page: String(page.page),
    page_size: String(page.page_size),
    cursor: page.cursor ?? '',
    result: page.result.map(serializeNftItem),
  };
}
export type NftPageWire = ReturnType<typeof serializeNftPage>;

// ---------------------------------------------------------------------------------------------------
// Query parameters of Lantern's published NFT endpoint. Every issue's path[0] is the parameter.

const MAX_TOKEN_ADDRESSES = 10;

export const nftQuerySchema = z.object({
  chain: queryChain,
  format: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.enum(['decimal', 'hex'], { error: 'expected decimal or hex' }))
      .default('decimal'),
  ),
  limit: queryInt(1, 100),
  exclude_spam: queryBoolean.transform((v) => v ?? false),
  token_addresses: queryAddresses(MAX_TOKEN_ADDRESSES),
  cursor: queryCursor,
  normalizeMetadata: queryBoolean.transform((v) => v ?? false),
  media_items: queryBoolean.transform((v) => v ?? false),
  // Last sale and floor prices (the reference OpenAPI's include_prices): the hosted API is asked for them;
  // an EVM node knows no prices, so node mode answers each price field null.
  include_prices: queryBoolean.transform((v) => v ?? false),
});

export type NftQuery = z.output<typeof nftQuerySchema>;
