import type * as Nuqs from 'nuqs/server';

/** The parser factories of either entry point: `nuqs` (client, "use client") or `nuqs/server`. */
type Factories = Pick<typeof Nuqs, 'parseAsBoolean' | 'parseAsInteger' | 'parseAsNativeArrayOf' | 'parseAsString' | 'parseAsStringLiteral' | 'createSerializer'>;

/**
 * Every piece of a wallet view lives in the URL, so reload, back/forward and a pasted link show the
 * same view. These parsers are shared by the server pages (first render) and the client components
 * (nuqs hooks). Names follow the published API where there is one.
 *
 * Paging: `cursor` is repeated, one value per page already passed, oldest first. Page N carries
 * N-1 cursors: reload at page 3 fetches page 3 with the last one, "newer" drops the last one, "newest"
 * drops them all, "older" appends the next page's cursor. Cursors are opaque and short-lived at some
 * providers; when one is refused the page says so and offers the newest page.
 *
 * The definitions are built from whichever nuqs entry point the caller has: client components pass
 * `nuqs` and server pages `nuqs/server`, so the browser never downloads the server entry as well.
 */
export function defineViewParams({ parseAsBoolean, parseAsInteger, parseAsNativeArrayOf, parseAsString, parseAsStringLiteral, createSerializer }: Factories) {
const historyParsers = {
  chain: parseAsString,
  order: parseAsStringLiteral(['desc', 'asc'] as const).withDefault('desc'),
  from_date: parseAsString,
  to_date: parseAsString,
  from_block: parseAsInteger,
  to_block: parseAsInteger,
  internal: parseAsBoolean.withDefault(false),
  spam: parseAsBoolean.withDefault(false),
  // Token contracts the history is filtered on (the API's `token_addresses`; the Tokens tab links here).
  token: parseAsNativeArrayOf(parseAsString),
  cursor: parseAsNativeArrayOf(parseAsString),
  time: parseAsStringLiteral(['age', 'utc'] as const).withDefault('age'),
};

const nftParsers = {
  chain: parseAsString,
  spam: parseAsBoolean.withDefault(false),
  contract: parseAsNativeArrayOf(parseAsString),
  format: parseAsStringLiteral(['decimal', 'hex'] as const).withDefault('decimal'),
  cursor: parseAsNativeArrayOf(parseAsString),
};

/** The tokens and approvals tabs: the chain, and (tokens) whether possible spam is shown, as in the history. */
const tokensParsers = {
  chain: parseAsString,
  spam: parseAsBoolean.withDefault(false),
};

return {
  historyParsers,
  nftParsers,
  tokensParsers,
  serializeHistoryParams: createSerializer(historyParsers),
  serializeNftParams: createSerializer(nftParsers),
  serializeTokensParams: createSerializer(tokensParsers),
};
}

export const HISTORY_PAGE_SIZE = 25;
export const NFT_PAGE_SIZE = 24;
export const MAX_CONTRACT_FILTERS = 10;

export type HistoryView = {
  chain: string | null;
  order: 'desc' | 'asc';
  from_date: string | null;
  to_date: string | null;
  from_block: number | null;
  to_block: number | null;
  internal: boolean;
  spam: boolean;
  token: string[];
  cursor: string[];
};

/**
 * The toolbar's to-date is a whole UTC day, inclusive: "to 2026-11-20" includes the 20th's
 * transactions. The API reads a bare date as that day's first instant, so the page sends the day's last.
 */
export function toDateBound(toDate: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(toDate.trim()) ? `${toDate.trim()}T23:59:59.999Z` : toDate;
}

/** The published API's query for one page of a view (the last cursor is the current page's). */
export function historyApiQuery(v: HistoryView): Record<string, string | string[]> {
  const q: Record<string, string | string[]> = { order: v.order.toUpperCase(), limit: String(HISTORY_PAGE_SIZE) };
  if (v.chain) q.chain = v.chain;
  if (v.from_date) q.from_date = v.from_date;
  if (v.to_date) q.to_date = toDateBound(v.to_date);
  if (v.from_block !== null) q.from_block = String(v.from_block);
  if (v.to_block !== null) q.to_block = String(v.to_block);
  if (v.internal) q.include_internal_transactions = 'true';
  if (v.token.length > 0) q.token_addresses = v.token;
  const c = v.cursor.at(-1);
  if (c) q.cursor = c;
  return q;
}

/** Whether two views ask the API for the same page. */
export const sameApiView = (a: HistoryView, b: HistoryView) => JSON.stringify(historyApiQuery(a)) === JSON.stringify(historyApiQuery(b));

/** A history view as its URL holds it: the API view and how times are shown (a display choice). */
export type HistoryUrlView = HistoryView & { time: 'age' | 'utc' };

/** nuqs' own encoding of a query value (its renderQueryString), so both write the same URL. */
const encodeQueryValue = (s: string) =>
  s
    .replace(/%/g, '%25')
    .replace(/\+/g, '%2B')
    .replace(/ /g, '+')
    .replace(/#/g, '%23')
    .replace(/&/g, '%26')
    .replace(/"/g, '%22')
    .replace(/'/g, '%27')
    .replace(/`/g, '%60')
    .replace(/</g, '%3C')
    .replace(/>/g, '%3E')
    .replace(/[\x00-\x1F]/g, (c) => encodeURIComponent(c));

/**
 * `path` with the history view in its query, exactly as nuqs' serializer of the history parsers writes
 * it (keys in the parsers' order, defaults left out; a unit test holds the two equal). Dependency-free,
 * so the links of a first view need no URL library: nuqs loads when a person first changes the view.
 */
export function historyViewHref(path: string, v: HistoryUrlView): string {
  const q: string[] = [];
  const put = (key: string, value: string) => q.push(`${key}=${encodeQueryValue(value)}`);
  if (v.chain !== null) put('chain', v.chain);
  if (v.order !== 'desc') put('order', v.order);
  if (v.from_date !== null) put('from_date', v.from_date);
  if (v.to_date !== null) put('to_date', v.to_date);
  if (v.from_block !== null) put('from_block', Math.round(v.from_block).toFixed());
  if (v.to_block !== null) put('to_block', Math.round(v.to_block).toFixed());
  if (v.internal) put('internal', 'true');
  if (v.spam) put('spam', 'true');
  for (const t of v.token) put('token', t);
  for (const c of v.cursor) put('cursor', c);
  if (v.time !== 'age') put('time', v.time);
  return q.length ? `${path}?${q.join('&')}` : path;
}
