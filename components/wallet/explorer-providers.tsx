'use client';

import { NuqsAdapter } from 'nuqs/adapters/next/app';

/**
 * URL state for the wallet pages' views (nuqs). The history's paging client brings its own QueryClient
 * when it loads (history-live.tsx), so a first view downloads no query library.
 */
export function ExplorerProviders({ children }: { children: React.ReactNode }) {
  return <NuqsAdapter>{children}</NuqsAdapter>;
}
