import 'client-only';
import { createSerializer, parseAsBoolean, parseAsInteger, parseAsNativeArrayOf, parseAsString, parseAsStringLiteral } from 'nuqs';
import { defineViewParams } from '@/lib/view/search-params';

/** The wallet views' URL parsers for client components (nuqs' client entry). */
export const { historyParsers, nftParsers, serializeHistoryParams, serializeNftParams } = defineViewParams({
  createSerializer,
  parseAsBoolean,
  parseAsInteger,
  parseAsNativeArrayOf,
  parseAsString,
  parseAsStringLiteral,
});
