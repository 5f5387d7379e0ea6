import path from 'node:path';
import { defineConfig } from 'vitest/config';

// The unit project alone, for `npm run mutate` (Stryker's vitest runner takes one config, not a project
// of the main one). Same aliases and setup as vitest.config.ts's `unit`; files in a fixed order so a
// mutant's verdict does not depend on a shuffle.
const root = path.dirname(new URL(import.meta.url).pathname);
// MUTATE_TESTS (comma-separated globs under tests/unit): only these files, when a file's own tests are
// known and the rest would only slow each mutant (tests that run a fake node and a database take seconds).
const only = process.env.MUTATE_TESTS?.split(',').map((s) => s.trim()).filter(Boolean);

export default defineConfig({
  resolve: {
    alias: {
      '@': root,
      'server-only': path.join(root, 'tests/support/empty.ts'),
      'client-only': path.join(root, 'tests/support/empty.ts'),
    },
  },
  test: {
    include: only?.length ? only.map((g) => `tests/unit/${g}`) : ['tests/unit/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['tests/unit/setup.ts'],
  },
});
