import 'server-only';
import { historyQuerySchema, type WalletTransaction } from '@/lib/interface/history';
import { zodToBadParameter } from '@/lib/interface/zod-errors';
import { getWalletHistory, historyStillIndexing } from '@/lib/operations/wallet-history';
import { summarizeActivity, type Activity } from '@/lib/view/activity';
import type { ErrorInfo } from '@/lib/view/error-copy';
import type { ChainView } from '@/lib/view/tx-view';
import { toErrorInfo } from './page';

/** The most history rows the Activity view reads (20 pages of 100): past that it says it shows the newest only. */
export const ACTIVITY_MAX_ROWS = 2000;
const PAGE = 100;

export interface ActivityData {
  activity: Activity;
  /** More history exists than the view read (it stopped at ACTIVITY_MAX_ROWS, newest first). */
  capped: boolean;
  /** The node is still reading this wallet's older history: the pictures will grow. */
  indexing: boolean;
  chain: ChainView;
}

/** The wallet's history on the chain, newest first, up to the cap, summed into months; or the error to show. */
export async function loadActivity(address: string, chain: ChainView): Promise<ActivityData | { error: ErrorInfo }> {
  try {
    const rows: WalletTransaction[] = [];
    let cursor: string | undefined;
    do {
      // The same validation as the published API, as every other tab reads its operation.
      const parsed = historyQuerySchema.safeParse({ chain: chain.name, limit: String(PAGE), ...(cursor ? { cursor } : {}) });
      if (!parsed.success) throw zodToBadParameter(parsed.error);
      const page = await getWalletHistory(address, parsed.data);
      rows.push(...page.result);
      cursor = page.cursor ?? undefined;
    } while (cursor && rows.length < ACTIVITY_MAX_ROWS);
    const indexing = await historyStillIndexing(address, chain.name).catch(() => false);
    return { activity: summarizeActivity(rows.slice(0, ACTIVITY_MAX_ROWS), address, chain.decimals), capped: !!cursor || rows.length > ACTIVITY_MAX_ROWS, indexing, chain };
  } catch (e) {
    return { error: await toErrorInfo(e) };
  }
}

export const activityPath = (address: string) => `/wallet/${address}/activity`;
