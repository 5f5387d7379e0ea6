import 'server-only';
import type { inferParserType } from 'nuqs/server';
import { formatUnits } from '@/lib/format';
import { NATIVE_TOKEN_ADDRESS, tokenBalancesQuerySchema, type TokenBalance, type TokenBalancesPage } from '@/lib/interface/tokens';
import { zodToBadParameter } from '@/lib/interface/zod-errors';
import { getWalletTokens } from '@/lib/operations/wallet-holdings';
import type { ErrorInfo } from '@/lib/view/error-copy';
import { safeText } from '@/lib/view/nft-media';
import { toErrorInfo } from './page';
import type { tokensParsers } from './view-params';

export type TokensView = inferParserType<typeof tokensParsers>;

/** One row of the Tokens tab: the native coin or an ERC-20, its balance in words. */
export interface TokenRowView {
  address: string;
  native: boolean;
  name: string | null;
  symbol: string | null;
  /** The balance cut for reading, the whole value, and the smallest unit (for tests and the CSV). */
  balance: { text: string; full: string; exact: boolean };
  raw: string;
  decimals: number | null;
  spam: boolean;
  /** Why the balance is shown as it is (decimals the token does not say), when it needs saying. */
  note: string | null;
}

export interface TokensData {
  block: string | null;
  rows: TokenRowView[];
  /** Possible spam left out of `rows` (the toggle shows them). */
  hiddenSpam: number;
  unreadable: { address: string; name: string | null; symbol: string | null; reason: string }[];
  /** More than the tab reads at once: the list is cut. */
  truncated: boolean;
}

/** Pages of 100 read for one view: a wallet with more tokens than this is cut, and says so. */
const MAX_PAGES = 5;

/** Everything the wallet holds on the view's chain (native first), or the error to show in its place. */
export async function loadTokens(address: string, view: TokensView): Promise<TokensData | { error: ErrorInfo }> {
  try {
    return await readTokens(address, view);
  } catch (e) {
    return { error: await toErrorInfo(e) };
  }
}

/** As loadTokens, throwing its failure (the CSV route answers it as JSON before the first byte). */
export async function readTokens(address: string, view: Pick<TokensView, 'chain' | 'spam'>): Promise<TokensData> {
  const all: TokenBalance[] = [];
  let first: TokenBalancesPage | null = null;
  let cursor: string | undefined;
  let pages = 0;
  do {
    // Spam is read too and filtered here, so the page can say how many it hides.
    const parsed = tokenBalancesQuerySchema.safeParse({ chain: view.chain ?? undefined, limit: '100', ...(cursor ? { cursor } : {}) });
    if (!parsed.success) throw zodToBadParameter(parsed.error);
    const page = await getWalletTokens(address, parsed.data);
    first ??= page;
    all.push(...page.result);
    cursor = page.cursor ?? undefined;
  } while (cursor && ++pages < MAX_PAGES);

  const rows = all.map(toRow);
  // The native coin first whatever the source's order; then as the source sorted them.
  rows.sort((a, b) => Number(b.native) - Number(a.native));
  const shown = rows.filter((r) => view.spam || !r.spam);
  return {
    block: first?.block_number ?? null,
    rows: shown,
    hiddenSpam: rows.length - shown.length,
    unreadable: (first?.unreadable ?? []).map((u) => ({ address: u.token_address, name: u.name, symbol: u.symbol, reason: u.reason })),
    truncated: !!cursor,
  };
}

function toRow(t: TokenBalance): TokenRowView {
  const native = t.native_token === true || t.token_address.toLowerCase() === NATIVE_TOKEN_ADDRESS;
  const decimals = t.decimals;
  const note = typeof t.note === 'string' ? t.note : decimals === null ? 'The token does not say its decimals: the balance is in its smallest unit.' : null;
  return {
    address: t.token_address,
    native,
    name: safeText(t.name, 40),
    symbol: safeText(t.symbol, 32),
    balance: decimals === null ? { text: t.balance, full: t.balance, exact: true } : formatUnits(t.balance, decimals),
    raw: t.balance,
    decimals,
    spam: t.possible_spam === true,
    note,
  };
}

/** The wallet's Tokens tab, the base of its links. */
export const tokensPath = (address: string) => `/wallet/${address}/tokens`;
