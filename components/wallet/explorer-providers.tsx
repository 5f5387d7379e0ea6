'use client';

import { NuqsAdapter } from 'nuqs/adapters/next/app';

/**
 * URL state for the NFT page's toolbar (nuqs). The history page needs none on its first view: its URL
 * state (history-url.ts) loads nuqs' parsers on a person's first change, and its paging client brings
 * its own QueryClient (history-live.tsx), so a first view downloads neither library.
 */
export function ExplorerProviders({ children }: { children: React.ReactNode }) {
  return <NuqsAdapter>{children}</NuqsAdapter>;
}
