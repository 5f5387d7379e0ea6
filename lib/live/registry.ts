import 'server-only';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { db } from '@/lib/db';

/**
 * What instances sharing one database agree on, in the database (PostgreSQL, or the embedded PGlite of a
 * single instance), judged by the database's clock so instances' clocks never have to agree:
 * - leases: which instance follows each chain (key 0: the hosted poller), until when. Taken when free or
 *   expired, renewed by its holder, dropped on a clean stop; a holder that dies is replaced once its
 *   lease runs out (LIVE_LEASE_MS);
 * - watched wallets: which wallets each instance has a stream open for, renewed while open, so the
 *   follower refreshes exactly those at each head. Address '' is a stream of heads alone.
 */

/** This process, as leases and watch rows name it. */
export const INSTANCE = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

/** Takes or renews the lease on `key` for `ms`; true while this instance holds it. */
export async function holdLease(key: number, ms: number): Promise<boolean> {
  const { rows } = await (await db()).query<{ holder: string }>(
    `INSERT INTO live_lease (chain_id, holder, expires_at) VALUES ($1, $2, now() + $3::double precision * interval '1 millisecond')
     ON CONFLICT (chain_id) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
     WHERE live_lease.holder = EXCLUDED.holder OR live_lease.expires_at < now()
     RETURNING holder`,
    [key, INSTANCE, ms],
  );
  return rows.length > 0;
}

export async function releaseLease(key: number): Promise<void> {
  await (await db()).query('DELETE FROM live_lease WHERE chain_id = $1 AND holder = $2', [key, INSTANCE]);
}

/** Marks these (chain, address) pairs watched by this instance for `ms` more. */
export async function watch(pairs: { chainId: number; address: string }[], ms: number): Promise<void> {
  if (pairs.length === 0) return;
  const d = await db();
  for (let i = 0; i < pairs.length; i += 500) {
    const chunk = pairs.slice(i, i + 500);
    const values = chunk.map((_, j) => `($${j * 2 + 3}::integer, $${j * 2 + 4}, $1, now() + $2::double precision * interval '1 millisecond')`).join(',');
    await d.query(
      `INSERT INTO live_watch (chain_id, address, instance, expires_at) VALUES ${values}
       ON CONFLICT (chain_id, address, instance) DO UPDATE SET expires_at = EXCLUDED.expires_at`,
      [INSTANCE, ms, ...chunk.flatMap((p) => [p.chainId, p.address])],
    );
  }
}

export async function unwatch(chainId: number, address: string): Promise<void> {
  await (await db()).query('DELETE FROM live_watch WHERE chain_id = $1 AND address = $2 AND instance = $3', [chainId, address, INSTANCE]);
}

export async function unwatchAll(): Promise<void> {
  await (await db()).query('DELETE FROM live_watch WHERE instance = $1', [INSTANCE]);
}

/** Chains someone watches on any instance, with how many wallets (heads-only streams count as none). */
export async function watchedChains(): Promise<Map<number, number>> {
  const { rows } = await (await db()).query<{ chain_id: number; wallets: string }>(
    `SELECT chain_id, count(DISTINCT address) FILTER (WHERE address <> '') AS wallets FROM live_watch WHERE expires_at > now() GROUP BY chain_id`,
  );
  return new Map(rows.map((r) => [r.chain_id, Number(r.wallets)]));
}

/** Wallets of a chain someone watches, on any instance. */
export async function watchedWallets(chainId: number): Promise<string[]> {
  const { rows } = await (await db()).query<{ address: string }>(
    `SELECT DISTINCT address FROM live_watch WHERE chain_id = $1 AND expires_at > now() AND address <> '' ORDER BY address`,
    [chainId],
  );
  return rows.map((r) => r.address);
}
