import NextLink from 'next/link';
import type { ComponentProps } from 'react';

export { useLinkStatus } from 'next/link';

/**
 * Every in-app link. Not prefetched: every Lantern page is rendered per request, so a prefetch gives the
 * browser nothing but the route's tree, and costs the server a render for each link that scrolls into
 * view. A wallet page's tabs and history rows made 8 to 20 such renders per visit, while the page's own
 * first rows were still being read (issue 22: 30-40 ms of server time each, the first row ~100 ms later).
 */
export function Link({ prefetch = false, ...props }: ComponentProps<typeof NextLink>) {
  return <NextLink prefetch={prefetch} {...props} />;
}
