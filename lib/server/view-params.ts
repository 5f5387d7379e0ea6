import 'server-only';
import { createSerializer, parseAsBoolean, parseAsInteger, parseAsNativeArrayOf, parseAsString, parseAsStringLiteral } from 'nuqs/server';
import { defineViewParams } from '@/lib/view/search-params';

/** The wallet views' URL parsers for server pages (nuqs' server entry). */
export const { historyParsers, nftParsers, tokensParsers, serializeHistoryParams, serializeNftParams, serializeTokensParams } = defineViewParams({
  createSerializer,
  parseAsBoolean,
  parseAsInteger,
  parseAsNativeArrayOf,
  parseAsString,
  parseAsStringLiteral,
});
