import 'server-only';
import type { Queryable } from '@/lib/db';

/**
 * What has been read from the node, as block spans per scope (a wallet's address, or a chain-wide scan
 * such as `chain:selfdestruct`). A span [lo, hi] means every row of the scope in blocks lo..hi is in its
 * table and final (at or below head - EVM_REORG_DEPTH when it was read). Indexing in windows leaves gaps
 * (the newest window first, older ones after), so a scope holds a few spans, never overlapping.
 * The pure helpers below are all the arithmetic; the two queries at the end keep them in evm_span.
 */

export interface Span {
  lo: number;
  hi: number;
}

/** Sorted, with overlapping or touching spans merged; empty ones (hi < lo) dropped. */
export function normalise(spans: readonly Span[]): Span[] {
  const sorted = spans.filter((s) => s.hi >= s.lo).sort((a, b) => a.lo - b.lo);
  const out: Span[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s.lo <= last.hi + 1) last.hi = Math.max(last.hi, s.hi);
    else out.push({ lo: s.lo, hi: s.hi });
  }
  return out;
}

/** The span holding block n, if any (spans normalised). */
export function spanAt(spans: readonly Span[], n: number): Span | undefined {
  return spans.find((s) => s.lo <= n && n <= s.hi);
}

/** The nearest span wholly below block n, if any (spans normalised). */
export function spanBelow(spans: readonly Span[], n: number): Span | undefined {
  let best: Span | undefined;
  for (const s of spans) if (s.hi < n) best = s;
  return best;
}

/** The nearest span wholly above block n, if any (spans normalised). */
export function spanAbove(spans: readonly Span[], n: number): Span | undefined {
  return spans.find((s) => s.lo > n);
}

/** The parts of [lo, hi] that no span covers, ascending (spans normalised). */
export function gaps(spans: readonly Span[], lo: number, hi: number): Span[] {
  const out: Span[] = [];
  let at = lo;
  for (const s of spans) {
    if (s.hi < at) continue;
    if (s.lo > hi) break;
    if (s.lo > at) out.push({ lo: at, hi: Math.min(hi, s.lo - 1) });
    at = Math.max(at, s.hi + 1);
    if (at > hi) break;
  }
  if (at <= hi) out.push({ lo: at, hi });
  return out;
}

/** The scope's spans, normalised. */
export async function loadSpans(q: Queryable, chainId: number, scope: string): Promise<Span[]> {
  const { rows } = await q.query<{ lo: string; hi: string }>('SELECT lo, hi FROM evm_span WHERE chain_id = $1 AND scope = $2', [chainId, scope]);
  return normalise(rows.map((r) => ({ lo: Number(r.lo), hi: Number(r.hi) })));
}

/**
 * Inside the writer's transaction, which holds lockScope for this scope: adds a span and stores the
 * scope's spans merged again (a scope has a few rows, so they are rewritten whole).
 */
export async function addSpan(tx: Queryable, chainId: number, scope: string, span: Span): Promise<void> {
  if (span.hi < span.lo) return;
  const before = await loadSpans(tx, chainId, scope);
  const after = normalise([...before, span]);
  if (after.length === before.length && after.every((s, i) => s.lo === before[i]!.lo && s.hi === before[i]!.hi)) return;
  await tx.query('DELETE FROM evm_span WHERE chain_id = $1 AND scope = $2', [chainId, scope]);
  await tx.query(
    `INSERT INTO evm_span (chain_id, scope, lo, hi) VALUES ${after.map((_, i) => `($1, $2, $${i * 2 + 3}, $${i * 2 + 4})`).join(', ')}`,
    [chainId, scope, ...after.flatMap((s) => [s.lo, s.hi])],
  );
}

/** Serialises writers of one scope (across instances on PostgreSQL) until the transaction ends. */
export async function lockScope(tx: Queryable, chainId: number, scope: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`evm_span:${chainId}:${scope}`]);
}
