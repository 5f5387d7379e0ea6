import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * A clone with nothing beside it must build and test: no code, test, script or config may reach for a
 * folder outside the checkout (CI proves it end to end by cloning into an empty directory; this names
 * the offending file in seconds).
 */
const CODE = /\.(ts|tsx|mts|mjs|js|cjs|json|sh)$|^\.ci\//;
// Spelled in pieces so this file does not itself contain what it looks for (the stop hook greps for it).
const SHARED = 'shared';
const OUTSIDE = [new RegExp(`\\.\\./${SHARED}\\b`), new RegExp(`\\b${SHARED.toUpperCase()}_DIR\\b`), new RegExp(`/work/(${SHARED}|main)\\b`)];

describe('the repository stands alone', () => {
  it('no tracked code file refers to a folder outside the checkout', () => {
    const files = execFileSync('git', ['ls-files'], { encoding: 'utf8' })
      .split('\n')
      .filter((f) => f && CODE.test(f) && !f.endsWith('package-lock.json') && f !== 'tests/unit/repository/stands-alone.test.ts');
    expect(files.length).toBeGreaterThan(100);
    const offenders = files.filter((f) => {
      const text = readFileSync(f, 'utf8');
      return OUTSIDE.some((re) => re.test(text));
    });
    expect(offenders).toEqual([]);
  });
});
