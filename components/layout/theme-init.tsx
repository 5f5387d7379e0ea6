'use client';

import { THEME_SCRIPT } from './theme-script';

/**
 * The stored theme, set before first paint: an inline script in the server's HTML, which the browser runs
 * once as it parses <head>. Rendered on the server only: when React renders the root layout in the
 * browser (a not-found page does, in development), a <script> element would never run there and React
 * warns about it ("Encountered a script tag while rendering React component"). The element the server
 * sent stays; React leaves unmatched nodes of <head> alone when it hydrates.
 */
export function ThemeInit({ nonce }: { nonce?: string }) {
  if (typeof window !== 'undefined') return null;
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />;
}
