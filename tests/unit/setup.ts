import { afterEach, vi } from 'vitest';
import { resetConfigForTests } from '@/lib/config';

// Unit files share one module graph per worker (isolate: false, for speed), so nothing a test sets may
// outlive it: environment changes go through vi.stubEnv and are undone here, with the parsed config.
afterEach(() => {
  vi.unstubAllEnvs();
  resetConfigForTests();
});
