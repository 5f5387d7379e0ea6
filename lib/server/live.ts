import 'server-only';
import { liveStart } from '@/lib/operations/live';

/** Where a page's live stream starts, read now (before the page's own reads); null: from the stream's opening. */
export function liveSince(chainName: string): Promise<string | null> {
  return liveStart(chainName).catch(() => null);
}
