import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The shared reference folder: `../shared` beside the repository (as CI clones it), else SHARED_DIR,
 * else /work/shared (a worktree deeper down on the development machine).
 */
export function sharedDir(): string {
  const repoRoot = path.resolve(__dirname, '..', '..', '..');
  const candidates = [process.env.SHARED_DIR, path.resolve(repoRoot, '..', 'shared'), '/work/shared'].filter(Boolean) as string[];
  const found = candidates.find((d) => existsSync(path.join(d, 'reference')));
  if (!found) throw new Error(`shared reference folder not found; tried ${candidates.join(', ')} (set SHARED_DIR)`);
  return found;
}

export function referenceFiles(pattern: RegExp): string[] {
  const dir = path.join(sharedDir(), 'reference');
  return readdirSync(dir)
    .filter((f) => pattern.test(f))
    .sort();
}

export function readReference(name: string): unknown {
  return JSON.parse(readFileSync(path.join(sharedDir(), 'reference', name), 'utf8'));
}
