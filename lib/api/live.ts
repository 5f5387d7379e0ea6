import 'server-only';
import { z } from 'zod';
import { badParameter } from '@/lib/errors';
import { queryChain } from '@/lib/interface/common';
import { parseId, type Position } from '@/lib/view/live-protocol';

/**
 * The live streams' own query (Lantern's, outside the published interface): `chain` as the history API
 * reads it, and where to resume. `Last-Event-ID` (sent by EventSource when it reconnects) wins over
 * `since` (the id a page or a client passes itself).
 */
export const liveQuerySchema = z.object({
  chain: queryChain,
  since: z.string().max(64, 'since is too long').optional(),
});

export function resumeFrom(req: Request, since: string | undefined): Position | null {
  const header = req.headers.get('last-event-id');
  const [name, value] = header !== null && header.trim() !== '' ? ['Last-Event-ID', header] : ['since', since];
  if (value === undefined || value.trim() === '') return null;
  const p = parseId(value);
  if (!p) throw badParameter(name === 'since' ? 'since' : 'Last-Event-ID', `${name}: expected an event id of this stream (such as 3.1200.h)`);
  return p;
}
