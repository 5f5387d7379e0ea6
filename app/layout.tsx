import type { Metadata, Viewport } from 'next';
import { THEME_SCRIPT } from '@/components/layout/theme-script';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Lantern', template: '%s · Lantern' },
  description: 'Read any EVM wallet and any Move ledger block, from a hosted data API or your own node.',
};

export const viewport: Viewport = { width: 'device-width', initialScale: 1 };

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        {/* Sets the stored theme class before first paint. The production CSP work passes its nonce here. */}
        <script dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body>{children}</body>
    </html>
  );
}
