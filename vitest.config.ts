import path from 'node:path';
import { defineConfig } from 'vitest/config';

const root = path.dirname(new URL(import.meta.url).pathname);
// Test files, and the tests inside each file, run in a random order, so no test may lean on another
// having run first. A suite that is one story told in steps (a chain reorganised, then restarted; a
// chain that grows between checks) opts out with `describe(name, { shuffle: false }, ...)` and says why.
// Vitest prints each run's seed ("Running tests with seed N"); TEST_SEED=N replays that order.
const seed = process.env.TEST_SEED ? Number(process.env.TEST_SEED) : undefined;

export default defineConfig({
  resolve: {
    alias: {
      '@': root,
      // `server-only` throws outside React Server Components; under vitest we are the server.
      'server-only': path.join(root, 'tests/support/empty.ts'),
      // `client-only` marks browser modules; their pure parts are unit-tested under node.
      'client-only': path.join(root, 'tests/support/empty.ts'),
    },
  },
  test: {
    sequence: { shuffle: { files: true, tests: true }, ...(seed === undefined ? {} : { seed }) },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          // One module graph per worker instead of one per file: the unit step runs in seconds.
          // tests/unit/setup.ts undoes what a test changes (environment, parsed config).
          isolate: false,
          setupFiles: ['tests/unit/setup.ts'],
        },
      },
      {
        // The devnets' own checks (the test chains `npm run dev` brings up), counted apart from Lantern's.
        extends: true,
        test: {
          name: 'devnet',
          include: ['tests/devnet/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/integration/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Files share the devnets; running them one at a time keeps a 2-core machine responsive.
          fileParallelism: false,
        },
      },
    ],
  },
});
