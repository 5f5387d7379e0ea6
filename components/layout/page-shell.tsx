import type { ReactNode } from 'react';

/**
 * The frame of every page's content, between the site header and footer (app/layout.tsx): one width,
 * one gutter, one vertical rhythm, so no page sits higher or narrower than another. `className` adds
 * spacing between the page's own sections.
 */
export function PageShell({ children, className = '' }: { children: ReactNode; className?: string }) {
  return <main className={`mx-auto w-full max-w-page px-4 py-8 ${className}`}>{children}</main>;
}
