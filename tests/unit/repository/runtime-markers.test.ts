import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * The folders of lib/ say where their code runs (docs/architecture.md, "Folders say where code runs"):
 * each module of a server folder is marked `import 'server-only'` (so no browser bundle can take it, the
 * pure ones too), each browser module `import 'client-only'`, each server-action module 'use server'.
 */
const files = execFileSync('git', ['ls-files', 'lib'], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => /\.(ts|tsx)$/.test(f) && !f.endsWith('.d.ts'));
const opening = (f: string) => readFileSync(f, 'utf8').split('\n').slice(0, 3).join('\n');
const marked = (f: string, marker: RegExp) => marker.test(opening(f));

const SERVER = /^lib\/(operations|sources|auth|cache|db|api|server|live)\/|^lib\/(startup|lifecycle)\.ts$/;
// SQL text for the migration runner in lib/db/index.ts (server-only), which alone imports them.
const SERVER_EXEMPT = /^lib\/db\/migrations\//;

describe('runtime markers', () => {
  it('marks every module of the server folders server-only', () => {
    const server = files.filter((f) => SERVER.test(f) && !SERVER_EXEMPT.test(f));
    expect(server.length).toBeGreaterThan(60);
    expect(server.filter((f) => !marked(f, /^import 'server-only';$/m))).toEqual([]);
  });

  it('marks every browser module client-only, and every server-action module "use server"', () => {
    const browser = files.filter((f) => f.startsWith('lib/browser/'));
    const actions = files.filter((f) => f.startsWith('lib/actions/'));
    expect(browser.length).toBeGreaterThan(0);
    expect(actions.length).toBeGreaterThan(0);
    expect(browser.filter((f) => !marked(f, /^import 'client-only';$/m))).toEqual([]);
    expect(actions.filter((f) => !marked(f, /^'use server';$/m))).toEqual([]);
  });

  it('keeps lib/view free of runtime markers and I/O (safe in server pages, client components and tests)', () => {
    const view = files.filter((f) => f.startsWith('lib/view/'));
    expect(view.length).toBeGreaterThan(5);
    const io = /import 'server-only'|import 'client-only'|'use (server|client)'|from '(node:[a-z]+|next\/headers|@\/lib\/(db|config|operations|auth|cache)[^']*)'/;
    expect(view.filter((f) => io.test(readFileSync(f, 'utf8')))).toEqual([]);
  });
});
