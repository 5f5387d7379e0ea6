import 'server-only';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * A new embedded database starts as a copy of one made earlier, instead of PGlite creating it (initdb):
 * seconds on a fresh DATA_DIR (3 s and more on a busy machine) against a tenth of that for the copy. The
 * template is made once, on first need, from a closed PGlite with every migration applied, and kept in
 * the repository's build cache (`.next/cache/lantern/`) under a name that changes with PGlite's version
 * and with the migrations, so a stale one is never copied. Migrations still run on the copy as on any
 * database (lib/db), applying whatever is newer than the template.
 */

/**
 * PGlite connects to `postgres` only; initdb also makes `template0` and `template1`, which only
 * `CREATE DATABASE` reads. Without them the template is 478 files instead of 1,074, and each copy of it
 * (every fresh data directory) takes half as long. One statement at a time: DROP DATABASE cannot run
 * inside the transaction a multi-statement query is.
 */
export const DROP_SPARE_DATABASES: readonly string[] = [
  'ALTER DATABASE template0 IS_TEMPLATE false',
  'DROP DATABASE template0',
  'ALTER DATABASE template1 IS_TEMPLATE false',
  'DROP DATABASE template1',
  'CHECKPOINT',
];

/** Whether `dir` holds nothing PGlite made: missing, or an empty folder. */
async function isFresh(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).length === 0;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw e;
  }
}

/** A name unique to this process and call, for a folder made beside its final place and renamed into it. */
const scratch = (dir: string) => `${dir}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;

/** Renames `from` to `to` unless `to` was made meanwhile (another process got there first); false then. */
async function renameUnlessMade(from: string, to: string): Promise<boolean> {
  try {
    await rename(from, to);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST') return false;
    throw e;
  }
}

export interface TemplateOptions {
  /** Where templates are kept (one folder per key). */
  cacheDir: string;
  /** Changes whenever what `make` makes would (PGlite's version, the migrations). */
  key: string;
  /** Makes a database in the empty folder given and closes it. */
  make: (dir: string) => Promise<void>;
}

/**
 * Fills `dir` with a copy of the template when `dir` is fresh (see `isFresh`), making the template first if
 * there is none yet. Says what it did; a `dir` that holds anything is left as it is (`'existing'`). Two
 * processes may do this at once: each folder is made under a scratch name and renamed into place, and the
 * one that loses the race uses the winner's.
 */
export async function fromTemplate(dir: string, { cacheDir, key, make }: TemplateOptions): Promise<'existing' | 'copied' | 'made'> {
  if (!(await isFresh(dir))) return 'existing';
  const template = path.join(cacheDir, `pglite-${key}`);
  let made = false;
  if (await isFresh(template)) {
    await mkdir(cacheDir, { recursive: true });
    const building = scratch(template);
    try {
      await make(building);
      made = await renameUnlessMade(building, template);
    } finally {
      await rm(building, { recursive: true, force: true });
    }
    if (made) await dropOtherTemplates(cacheDir, template);
  }
  await mkdir(path.dirname(dir), { recursive: true });
  const copying = scratch(dir);
  try {
    await copyTree(template, copying);
    // An empty `dir` is replaced by the rename; one filled meanwhile is left to whoever filled it.
    if (!(await renameUnlessMade(copying, dir))) return 'existing';
  } finally {
    await rm(copying, { recursive: true, force: true });
  }
  return made ? 'made' : 'copied';
}

/** Files copied at once: each copy waits on the disk, not the CPU (libuv runs four at a time). */
const COPIES_AT_ONCE = 16;

/**
 * `from`'s tree copied into `to` (which must not exist), many files at a time: a template is about 500
 * files, and fs.cp copies one after another (about 0.9 s here, against 0.4 s for this and 0.3 s for `cp -r`).
 */
export async function copyTree(from: string, to: string): Promise<void> {
  const entries = await readdir(from, { recursive: true, withFileTypes: true });
  const dirs: string[] = [];
  const files: string[] = [];
  for (const e of entries) {
    const rel = path.relative(from, path.join(e.parentPath, e.name));
    if (e.isDirectory()) dirs.push(rel);
    else if (e.isFile()) files.push(rel);
    else throw new Error(`${path.join(from, rel)} is neither a file nor a folder`);
  }
  await mkdir(to);
  // A parent's name is shorter than its children's.
  for (const d of dirs.sort((a, b) => a.length - b.length)) await mkdir(path.join(to, d));
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const f = files[next++]!;
      await copyFile(path.join(from, f), path.join(to, f));
    }
  };
  await Promise.all(Array.from({ length: Math.min(COPIES_AT_ONCE, files.length) }, worker));
}

/** Templates of other keys (an older PGlite, older migrations) will not be copied again. */
async function dropOtherTemplates(cacheDir: string, keep: string) {
  for (const name of await readdir(cacheDir).catch(() => [] as string[])) {
    const p = path.join(cacheDir, name);
    if (p !== keep && /^pglite-[0-9a-f]+$/.test(name)) await rm(p, { recursive: true, force: true }).catch(() => undefined);
  }
}

/**
 * The template key for this install: PGlite's version (read from its package), the migrations, and the
 * rest of what the making does (`recipe`).
 */
export async function templateKey(migrations: readonly { id: number; name: string; sql: string }[], recipe = '', root = process.cwd()): Promise<string> {
  const hash = createHash('sha256');
  hash.update(await pgliteVersion(root));
  for (const m of migrations) hash.update(`\0${m.id}\0${m.name}\0${m.sql}`);
  hash.update(`\0${recipe}`);
  return hash.digest('hex').slice(0, 16);
}

async function pgliteVersion(root: string): Promise<string> {
  // The package's entry, resolved as the server resolves it from the repository; its package.json (which
  // the package does not export) is the folder above `dist/`.
  const entry = createRequire(path.join(root, 'package.json')).resolve('@electric-sql/pglite');
  const pkg = JSON.parse(await readFile(path.join(path.dirname(entry), '..', 'package.json'), 'utf8')) as { name?: string; version?: string };
  if (pkg.name !== '@electric-sql/pglite' || !pkg.version) throw new Error(`no PGlite version beside ${entry}`);
  return pkg.version;
}
