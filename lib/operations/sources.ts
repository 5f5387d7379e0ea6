import 'server-only';
import { sources, type SourceDescription, type SourceKind } from '@/lib/sources';

export type { SourceDescription, SourceKind };

/** Which source answers each operation under the current configuration, safe to show anyone. */
export function describeSources(): SourceDescription[] {
  return sources().describe();
}

/**
 * What the pages say about where answers come from: the family of sources, and whether the devnet is
 * read (by this Lantern or by the one it fronts), so the devnet showcase and account are offered.
 */
export function sourcesInUse(): { kind: SourceKind; devnet: boolean } {
  const s = sources();
  return { kind: s.kind, devnet: s.devnet };
}
