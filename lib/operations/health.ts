import 'server-only';
import { config } from '@/lib/config';
import { db } from '@/lib/db';

/** Reachability of each source and of the database; `ok` is the database's (sources may be remote and optional). */
export async function health() {
  const c = config();
  const database = await db()
    .then(async (d) => {
      await d.query('SELECT 1');
      return { ok: true as const, kind: d.kind };
    })
    .catch((e: Error) => ({ ok: false as const, error: e.message }));
  return { ok: database.ok, mode: c.mode, database };
}
