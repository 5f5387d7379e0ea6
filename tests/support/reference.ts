import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Real and documented responses of the interface's operations, kept in the repository
 * (tests/fixtures/reference, with SOURCES.md naming where each came from), so tests parse data no one
 * here wrote and never depend on anything outside the checkout.
 */
export const REFERENCE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'reference');

export function readReference<T = unknown>(name: string): T {
  return JSON.parse(readFileSync(path.join(REFERENCE_DIR, name), 'utf8')) as T;
}

/** Reference files whose names match, sorted. */
export function referenceFiles(pattern: RegExp): string[] {
  return readdirSync(REFERENCE_DIR)
    .filter((f) => pattern.test(f))
    .sort();
}
