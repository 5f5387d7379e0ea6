import Link from 'next/link';
import { AccountMenu } from '@/components/auth/account-menu';
import { SearchBox } from './search-box';
import { ThemeToggle } from './theme-toggle';

/** `search={false}` where the page has its own prominent search box (the home page). */
export function SiteHeader({ search = true }: { search?: boolean }) {
  return (
    <header className="border-b border-line bg-surface">
      <div className="mx-auto flex max-w-page flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
        <Link href="/" className="flex items-center gap-2 text-lg font-semibold text-ink no-underline hover:no-underline">
          <LanternMark />
          Lantern
        </Link>
        {/* Phones: logo and theme on one line, the search box full width under them. */}
        {search && (
          <div className="order-last flex w-full min-w-0 sm:order-none sm:w-auto sm:flex-1">
            <SearchBox />
          </div>
        )}
        <div className="ml-auto flex items-center gap-2 sm:ml-0">
          <AccountMenu />
          <ThemeToggle />
        </div>
      </div>
    </header>
  );
}

function LanternMark() {
  return (
    <svg aria-hidden="true" width="20" height="20" viewBox="0 0 20 20" className="text-accent">
      <rect x="5" y="4" width="10" height="13" rx="2" fill="none" stroke="currentColor" strokeWidth="1.6" />
      <path d="M8 2h4M10 8v5" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
    </svg>
  );
}
