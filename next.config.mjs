import { WARM_UP_LOG_IGNORE } from './scripts/lib/warm-up.mjs';

/** Files in public/: static, carry no user data; nothing in them may run or be sniffed as another type. */
const PUBLIC_FILES = '/:file(favicon\\.ico|icon\\.svg|icon-192\\.png|icon-512\\.png|icon-maskable-512\\.png|apple-touch-icon\\.png|manifest\\.webmanifest|robots\\.txt)';

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // `npm run dev`'s warm-up requests (scripts/lib/warm-up.mjs) are summed up in one line, not logged one by one.
  logging: { incomingRequests: { ignore: [WARM_UP_LOG_IGNORE] } },
  // Native/WASM server packages must not be bundled: PGlite loads its WASM from its own folder.
  serverExternalPackages: ['@electric-sql/pglite', 'pino', 'pg', 'ioredis'],
  // Next's production server would load every route's code as it starts, on the thread that must answer
  // start-up's first request and listen (0.3 s of CPU before listening, more on a busy machine). The
  // warm-up (scripts/lib/warm-up.mjs) loads them behind the listening server instead.
  experimental: { preloadEntriesOnStart: false },
  async headers() {
    return [
      {
        source: PUBLIC_FILES,
        headers: [
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'Content-Security-Policy', value: "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'" },
          { key: 'Cache-Control', value: 'public, max-age=86400' },
        ],
      },
    ];
  },
};

export default nextConfig;
