import type { Metadata, Viewport } from 'next';
import { headers } from 'next/headers';
import { PageToken } from '@/components/layout/page-token';
import { RevealInit } from '@/components/layout/reveal-init';
import { SiteFooter } from '@/components/layout/site-footer';
import { SiteHeader } from '@/components/layout/site-header';
import { ThemeInit } from '@/components/layout/theme-init';
import { siteOrigin } from '@/lib/config';
import './globals.css';

const DESCRIPTION = 'Read any EVM wallet and any Move ledger block, from a hosted data API or your own node.';

export function generateMetadata(): Metadata {
  return {
    // Absolute preview URLs are built on the configured public origin, never on the request's Host.
    metadataBase: new URL(siteOrigin()),
    title: { default: 'Lantern', template: '%s · Lantern' },
    description: DESCRIPTION,
    applicationName: 'Lantern',
    manifest: '/manifest.webmanifest',
    icons: {
      icon: [{ url: '/favicon.ico', sizes: '48x48' }, { url: '/icon.svg', type: 'image/svg+xml' }],
      apple: '/apple-touch-icon.png',
    },
    openGraph: { siteName: 'Lantern', type: 'website', title: 'Lantern', description: DESCRIPTION },
    twitter: { card: 'summary', title: 'Lantern', description: DESCRIPTION },
  };
}

export const viewport: Viewport = {
  width: 'device-width',
  initialScale: 1,
  themeColor: [
    { media: '(prefers-color-scheme: light)', color: '#faf9f6' },
    { media: '(prefers-color-scheme: dark)', color: '#111316' },
  ],
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Reading the request makes every page dynamic, which per-request CSP nonces require.
  const nonce = (await headers()).get('x-nonce') ?? undefined;
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        {/* Sets the stored theme class before first paint; the CSP admits it by this request's nonce. */}
        <ThemeInit nonce={nonce} />
        {/* Streamed rows shown as soon as they arrive, not 300 ms after first paint (reveal-script.ts). */}
        <RevealInit nonce={nonce} />
      </head>
      <body className="flex min-h-screen flex-col">
        <PageToken />
        <SiteHeader />
        <div className="flex-1">{children}</div>
        <SiteFooter />
      </body>
    </html>
  );
}
