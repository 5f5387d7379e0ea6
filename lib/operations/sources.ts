import 'server-only';
import { sources, type EvmChainSource, type SourceDescription, type SourceKind } from '@/lib/sources';
import { servesLocalDevnet } from './chains';

export type { SourceDescription, SourceKind };

/** Which source answers what, per chain, under the current configuration, safe to show anyone. */
export function describeSources(): Promise<SourceDescription[]> {
  return sources().describe();
}

/**
 * What the pages say about where answers come from: the family of sources for sign-in and the ledgers,
 * and whether a local devnet is read (by this Lantern or by the one it fronts), so the devnet showcase
 * and account are offered.
 */
export async function sourcesInUse(): Promise<{ kind: SourceKind; devnet: boolean; nodes: boolean }> {
  const { chains } = await sources().chains();
  return { kind: sources().kind, devnet: await servesLocalDevnet(), nodes: chains.some((s) => s.source === 'node') };
}

/**
 * Whether a chain source still reads at `mark` (what keyed a cached answer), judged without waiting: the
 * same head, shared, checked, its node's breaker closed; for a source without marks (hosted), always.
 */
export function markStill(chain: EvmChainSource, mark: { head: string } | null): () => boolean {
  if (mark === null) return () => chain.markNow() === null;
  return () => chain.markNow()?.head === mark.head;
}
