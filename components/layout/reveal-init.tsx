'use client';

import { REVEAL_SCRIPT } from './reveal-script';

/**
 * Streamed content revealed as soon as it arrives (reveal-script.ts): an inline script in the server's
 * HTML, run as the browser parses <head>, before React's streaming runtime. Server only, as ThemeInit.
 */
export function RevealInit({ nonce }: { nonce?: string }) {
  if (typeof window !== 'undefined') return null;
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: REVEAL_SCRIPT }} />;
}
