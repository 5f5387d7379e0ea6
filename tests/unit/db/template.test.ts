import { PGlite } from '@electric-sql/pglite';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrations } from '@/lib/db/migrations';
import { copyTree, DROP_SPARE_DATABASES, fromTemplate, templateKey } from '@/lib/db/template';

// lib/db/template.ts: a fresh embedded database is a copy of one made once.
let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'lantern-template-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A stand-in for PGlite's creation: a file naming the call, so copies can be told apart from makings. */
function counting() {
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    make: async (dir: string) => {
      calls++;
      mkdirSync(path.join(dir, 'base'), { recursive: true });
      writeFileSync(path.join(dir, 'PG_VERSION'), `made ${calls}`);
    },
  };
}

describe('fromTemplate', () => {
  it('makes the template on first need and copies it into every fresh directory after', async () => {
    const maker = counting();
    const cacheDir = path.join(root, 'cache');
    expect(await fromTemplate(path.join(root, 'a', 'pglite'), { cacheDir, key: 'k1', make: maker.make })).toBe('made');
    mkdirSync(path.join(root, 'b', 'pglite'), { recursive: true }); // an empty folder counts as fresh
    expect(await fromTemplate(path.join(root, 'b', 'pglite'), { cacheDir, key: 'k1', make: maker.make })).toBe('copied');
    expect(maker.calls).toBe(1);
    for (const d of ['a', 'b']) expect(readFileSync(path.join(root, d, 'pglite', 'PG_VERSION'), 'utf8')).toBe('made 1');
    // Nothing is left under a scratch name.
    expect(readdirSync(root).sort()).toEqual(['a', 'b', 'cache']);
    expect(readdirSync(cacheDir)).toEqual(['pglite-k1']);
  });

  it('leaves a directory that holds anything as it is', async () => {
    const maker = counting();
    const dir = path.join(root, 'pglite');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'PG_VERSION'), 'mine');
    expect(await fromTemplate(dir, { cacheDir: path.join(root, 'cache'), key: 'k1', make: maker.make })).toBe('existing');
    expect(maker.calls).toBe(0);
    expect(readFileSync(path.join(dir, 'PG_VERSION'), 'utf8')).toBe('mine');
  });

  it('makes a new template when the key changes and drops the old one', async () => {
    const maker = counting();
    const cacheDir = path.join(root, 'cache');
    await fromTemplate(path.join(root, 'a'), { cacheDir, key: 'aaaa', make: maker.make });
    expect(await fromTemplate(path.join(root, 'b'), { cacheDir, key: 'bbbb', make: maker.make })).toBe('made');
    expect(readFileSync(path.join(root, 'b', 'PG_VERSION'), 'utf8')).toBe('made 2');
    expect(readdirSync(cacheDir)).toEqual(['pglite-bbbb']);
  });

  it('leaves the directory fresh and no template behind when making fails', async () => {
    const cacheDir = path.join(root, 'cache');
    const dir = path.join(root, 'pglite');
    const failing = async (into: string) => {
      mkdirSync(into, { recursive: true });
      writeFileSync(path.join(into, 'half'), '');
      throw new Error('initdb failed');
    };
    await expect(fromTemplate(dir, { cacheDir, key: 'k1', make: failing })).rejects.toThrow('initdb failed');
    expect(existsSync(dir)).toBe(false);
    expect(readdirSync(cacheDir)).toEqual([]);
  });

  it('lets two processes race: both directories are filled, one template is kept', async () => {
    const maker = counting();
    const cacheDir = path.join(root, 'cache');
    const [x, y] = await Promise.all(['a', 'b'].map((d) => fromTemplate(path.join(root, d), { cacheDir, key: 'k1', make: maker.make })));
    expect([x, y]).toContain('made');
    for (const d of ['a', 'b']) expect(readFileSync(path.join(root, d, 'PG_VERSION'), 'utf8')).toMatch(/^made [12]$/);
    expect(readdirSync(cacheDir)).toEqual(['pglite-k1']);
  });
});

describe('copyTree', () => {
  it('copies every file and folder, nested and empty, byte for byte', async () => {
    const from = path.join(root, 'from');
    const files: Record<string, Buffer> = {
      'PG_VERSION': Buffer.from('18\n'),
      'base/5/1259': Buffer.alloc(8192, 7),
      'pg_wal/000000010000000000000001': Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 31) % 256)),
      'global/pg_control': Buffer.alloc(0),
    };
    for (const n of Array.from({ length: 40 }, (_, i) => i)) files[`base/5/${16_384 + n}`] = Buffer.from(`relation ${n}`);
    for (const [f, bytes] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(from, f)), { recursive: true });
      writeFileSync(path.join(from, f), bytes);
    }
    mkdirSync(path.join(from, 'pg_tblspc'));
    mkdirSync(path.join(from, 'pg_stat', 'deep', 'er'), { recursive: true });
    const to = path.join(root, 'to');
    await copyTree(from, to);
    for (const [f, bytes] of Object.entries(files)) expect(readFileSync(path.join(to, f)).equals(bytes)).toBe(true);
    expect(readdirSync(path.join(to, 'pg_tblspc'))).toEqual([]);
    expect(readdirSync(path.join(to, 'pg_stat', 'deep'))).toEqual(['er']);
    expect(readdirSync(to, { recursive: true }).length).toBe(readdirSync(from, { recursive: true }).length);
  });

  it('refuses to copy over a folder that exists', async () => {
    mkdirSync(path.join(root, 'from'));
    mkdirSync(path.join(root, 'to'));
    await expect(copyTree(path.join(root, 'from'), path.join(root, 'to'))).rejects.toThrow(/EEXIST/);
  });
});

describe('templateKey', () => {
  it('changes with the migrations', async () => {
    const a = await templateKey(migrations);
    expect(a).toMatch(/^[0-9a-f]{16}$/);
    expect(await templateKey(migrations)).toBe(a);
    expect(await templateKey([...migrations, { id: 999_999, name: 'more', sql: 'SELECT 1' }])).not.toBe(a);
  });

  it('changes with the rest of the making', async () => {
    expect(await templateKey(migrations, 'DROP DATABASE template0')).not.toBe(await templateKey(migrations));
  });
});

describe('a copied PGlite database', () => {
  it('opens, keeps what the template holds, and takes new migrations and writes', async () => {
    const cacheDir = path.join(root, 'cache');
    const make = async (into: string) => {
      const pg = await PGlite.create(into);
      await pg.exec('CREATE TABLE made (n integer)');
      for (const sql of DROP_SPARE_DATABASES) await pg.exec(sql);
      await pg.close();
    };
    const dirs = [path.join(root, 'one'), path.join(root, 'two')];
    expect(await fromTemplate(dirs[0]!, { cacheDir, key: 'real', make })).toBe('made');
    expect(await fromTemplate(dirs[1]!, { cacheDir, key: 'real', make })).toBe('copied');
    // Only the database PGlite connects to is copied.
    expect(readdirSync(path.join(dirs[1]!, 'base'))).toHaveLength(1);
    for (const [i, dir] of dirs.entries()) {
      const pg = await PGlite.create(dir);
      expect((await pg.query('SELECT datname FROM pg_database')).rows).toEqual([{ datname: 'postgres' }]);
      await pg.exec('CREATE TABLE later (n integer)');
      await pg.query('INSERT INTO made VALUES ($1)', [i]);
      expect((await pg.query<{ n: number }>('SELECT n FROM made')).rows).toEqual([{ n: i }]);
      await pg.close();
    }
    // The template itself is untouched by what the copies did.
    const template = await PGlite.create(path.join(cacheDir, 'pglite-real'));
    expect((await template.query('SELECT n FROM made')).rows).toEqual([]);
    expect((await template.query("SELECT to_regclass('later') AS t")).rows).toEqual([{ t: null }]);
    await template.close();
  }, 120_000);
});
