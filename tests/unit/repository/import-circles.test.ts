import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * No import circle in the application code (app/, components/, lib/): two modules that need each other
 * are one module, or share a third below them. Type-only imports count: they tie the names together all
 * the same. The one circle allowed is the migrations index and its migrations (each migration takes the
 * `Migration` type from the index that lists it).
 */
const files = execFileSync('git', ['ls-files', 'app', 'components', 'lib'], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => /\.(ts|tsx|mjs)$/.test(f) && !f.endsWith('.d.ts') && !f.endsWith('.d.mts'));
const known = new Set(files);

function resolve(from: string, spec: string): string | null {
  const base = spec.startsWith('@/') ? spec.slice(2) : spec.startsWith('.') ? path.join(path.dirname(from), spec) : null;
  if (base === null) return null;
  for (const f of [base, `${base}.ts`, `${base}.tsx`, `${base}.mjs`, `${base}/index.ts`, `${base}/index.tsx`]) if (known.has(f)) return f;
  return null;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"`;]*?from\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;
const edges = new Map(
  files.map((f) => {
    const text = readFileSync(f, 'utf8');
    const out = new Set<string>();
    for (const m of text.matchAll(IMPORT)) {
      const target = resolve(f, m[1] ?? m[2]!);
      if (target && target !== f) out.add(target);
    }
    return [f, [...out]];
  }),
);

/** Tarjan's strongly connected components of more than one file. */
function circles(): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) found.push(scc.sort());
    }
  };
  for (const f of files) if (!idx.has(f)) visit(f);
  return found;
}

describe('import circles', () => {
  it('reads the imports it checks (aliases, relative paths, lazy imports)', () => {
    expect(edges.get('app/tx/[hash]/page.tsx')).toContain('lib/server/tx-page.ts');
    expect(edges.get('lib/sources/evm-node/tx-facts.ts')).toContain('lib/sources/evm-node/transfers.ts');
    expect(edges.get('components/wallet/history-list.tsx')).toContain('components/wallet/history-live.tsx');
  });

  it('finds none in app/, components/ and lib/ but the migrations index and its migrations', () => {
    const found = circles();
    expect(found.filter((c) => !c.every((f) => f.startsWith('lib/db/migrations/')))).toEqual([]);
  });
});
