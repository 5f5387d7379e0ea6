import Link from 'next/link';
import { SearchBox } from './search-box';
import { ThemeToggle } from './theme-toggle';

export function SiteHeader() {
  return (
    <header className="border-b border-line bg-surface">
      <div className="mx-auto flex max-w-page flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
        <Link href="/" className="flex items-center gap-2 text-lg font-semibold text-ink no-underline hover:no-underline">
          <LanternMark />
          Lantern
        </Link>
        <SearchBox />
        <ThemeToggle />
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
