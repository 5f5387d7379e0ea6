import { Link } from '@/components/ui/link';
import { AccountMenu } from '@/components/auth/account-menu';
import { HeaderSearch } from './header-search';
import { ThemeToggle } from './theme-toggle';

/** The header of every page (rendered once, by the root layout): home, search, sign-in, theme. */
export function SiteHeader() {
  return (
    <header className="border-b border-line bg-surface">
      <div className="mx-auto flex max-w-page flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
        <Link href="/" aria-label="Lantern, home" className="flex items-center gap-2 text-lg font-semibold text-ink no-underline hover:no-underline">
          <LanternMark />
          Lantern
        </Link>
        {/* Phones: logo and theme on one line, the search box full width under them. */}
        <HeaderSearch />
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
