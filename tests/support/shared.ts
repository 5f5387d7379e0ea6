import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The project's shared/ folder (interface and reference responses). CI clones the repo with shared/
 * beside the checkout; SHARED_DIR overrides for other layouts.
 */
export function sharedDir(): string {
  const candidates = [process.env.SHARED_DIR, path.resolve(process.cwd(), '..', 'shared'), '/work/shared'].filter(Boolean) as string[];
  const found = candidates.find((d) => existsSync(path.join(d, 'interface.md')));
  if (!found) throw new Error(`shared/ not found (looked in ${candidates.join(', ')}); set SHARED_DIR`);
  return found;
}
