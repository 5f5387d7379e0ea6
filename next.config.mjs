/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Native/WASM server packages must not be bundled: PGlite loads its WASM from its own folder.
  serverExternalPackages: ['@electric-sql/pglite', 'pino', 'pg', 'ioredis'],
};

export default nextConfig;
