'use client';

import { usePathname } from 'next/navigation';
import { SearchBox } from './search-box';

/** The header's search box, on every page but the home page, whose own search box is its main content. */
export function HeaderSearch() {
  if (usePathname() === '/') return null;
  return (
    <div className="order-last flex w-full min-w-0 sm:order-none sm:w-auto sm:flex-1">
      <SearchBox />
    </div>
  );
}
