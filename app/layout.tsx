import type { Metadata, Viewport } from 'next';
import { headers } from 'next/headers';
import { THEME_SCRIPT } from '@/components/layout/theme-script';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Lantern', template: '%s · Lantern' },
  description: 'Read any EVM wallet and any Move ledger block, from a hosted data API or your own node.',
};

export const viewport: Viewport = { width: 'device-width', initialScale: 1 };

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Reading the request makes every page dynamic, which per-request CSP nonces require.
  const nonce = (await headers()).get('x-nonce') ?? undefined;
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        {/* Sets the stored theme class before first paint; the CSP admits it by this request's nonce. */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body>{children}</body>
    </html>
  );
}
