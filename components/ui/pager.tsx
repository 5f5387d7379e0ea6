import { Link } from '@/components/ui/link';
import type { ReactNode } from 'react';
import { card } from './card';

/** Page navigation of every paged list (history, NFTs): links, never buttons, so a page opens in a new tab too. */
export function Pager({ children }: { children: ReactNode }) {
  return (
    <nav aria-label="Pages" className="mt-3 flex flex-wrap items-center gap-2 text-sm">
      {children}
    </nav>
  );
}

export function PageNumber({ n }: { n: number }) {
  return (
    <span className="px-2 tabular-nums text-ink-muted" aria-current="page">
      Page {n}
    </span>
  );
}

/** One step (newest, older, next...). Disabled, it stays in place, greyed, so the bar does not jump. */
export function PagerLink({
  enabled = true,
  href,
  onClick,
  rel,
  children,
}: {
  enabled?: boolean;
  href: string;
  onClick?: (e: React.MouseEvent<HTMLAnchorElement>) => void;
  rel?: string;
  children: ReactNode;
}) {
  const cls = `${card} px-3 py-1.5`;
  if (!enabled) {
    return (
      <span aria-disabled="true" className={`${cls} bg-transparent text-ink-muted opacity-60`}>
        {children}
      </span>
    );
  }
  return (
    <Link href={href} onClick={onClick} rel={rel} className={`${cls} text-ink no-underline hover:border-accent hover:no-underline`}>
      {children}
    </Link>
  );
}
