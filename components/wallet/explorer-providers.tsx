'use client';

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { NuqsAdapter } from 'nuqs/adapters/next/app';
import { useState } from 'react';

/**
 * The wallet explorer's client state (not the wallet connection: that is components/auth/wallet-connection-root.tsx):
 * react-query for the paged history and nuqs for the URL's filters.
 * One QueryClient per browser tab, created on first render and kept (useState, not a module global, so
 * server renders never share a cache between requests). History pages are immutable once mined, so
 * a page stays fresh for a minute and is not refetched on focus.
 */
export function ExplorerProviders({ children }: { children: React.ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: {
            staleTime: 60_000,
            refetchOnWindowFocus: false,
            // The server already retries the provider; a failed page shows its cause and a Retry button.
            retry: false,
          },
        },
      }),
  );
  return (
    <NuqsAdapter>
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </NuqsAdapter>
  );
}
