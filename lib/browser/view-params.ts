import 'client-only';
import { createLoader, createSerializer, parseAsBoolean, parseAsInteger, parseAsNativeArrayOf, parseAsString, parseAsStringLiteral } from 'nuqs';
import { defineViewParams } from '@/lib/view/search-params';

/** The wallet views' URL parsers for client components (nuqs' client entry). */
export const { historyParsers, nftParsers, tokensParsers, serializeHistoryParams, serializeNftParams, serializeTokensParams } = defineViewParams({
  createSerializer,
  parseAsBoolean,
  parseAsInteger,
  parseAsNativeArrayOf,
  parseAsString,
  parseAsStringLiteral,
});

/** The history view of a URL's query (components/wallet/history-url.ts loads this on a person's first change). */
export const parseHistoryUrl = createLoader(historyParsers);
