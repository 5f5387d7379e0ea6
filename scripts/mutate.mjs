#!/usr/bin/env node
// `npm run mutate`: a small mutation check of the EVM node source's pure logic (not part of npm test).
// Each mutant flips one operator or literal in one place (=== / !==, < / <=, && / ||, some / every,
// true / false, a number +1, a dropped `!`), the unit tests that import the module run against it
// (a mutant that hangs them for a minute counts as killed), and the mutant is killed when they fail.
// Prints every survivor and the score.
//   node scripts/mutate.mjs [module-substring]    e.g. `npm run mutate -- cursor`
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createVitest } from 'vitest/node';

const TARGETS = [
  { file: 'lib/sources/evm-node/categorise.ts', module: '@/lib/sources/evm-node/categorise' },
  { file: 'lib/sources/evm-node/cursor.ts', module: '@/lib/sources/evm-node/cursor' },
  // The spam rule's pure halves (rule 1's text, rule 2's mints); the rest of tokens.ts talks to the node and the database.
  { file: 'lib/sources/evm-node/tokens.ts', module: '@/lib/sources/evm-node/tokens', from: /^const URL_LIKE/, to: /^\/\*\* How many of a token's first mints/ },
  { file: 'lib/spam.ts', module: '@/lib/spam' },
];

const OPERATORS = [
  [/ === /g, ' !== '],
  [/ !== /g, ' === '],
  [/ > /g, ' >= '],
  [/ >= /g, ' > '],
  [/ < /g, ' <= '],
  [/ <= /g, ' < '],
  [/ && /g, ' || '],
  [/ \|\| /g, ' && '],
  [/\.some\(/g, '.every('],
  [/\.every\(/g, '.some('],
  [/\btrue\b/g, 'false'],
  [/\bfalse\b/g, 'true'],
  [/(?<![\w$.])(\d+)(n?)\b/g, (_, n, big) => `${BigInt(n) + 1n}${big}`],
  [/(?<![!=])!(?!=)/g, ''],
];

const filter = process.argv[2];
const targets = TARGETS.filter((t) => !filter || t.file.includes(filter));
let killed = 0;
let total = 0;
const survivors = [];
const perFile = [];
let restore;
// Put the original back however this ends.
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    restore?.();
    process.exit(130);
  });
}
process.on('exit', () => restore?.());

// One vitest per module: each mutant is written, the module invalidated, and the relevant test files
// run again in the same process (a fresh vitest per mutant costs seconds each).
const quiet = { onInit() {} };
let vitest;
async function runTests(file, tests) {
  vitest.invalidateFile(path.resolve(file));
  const specs = await vitest.getRelevantTestSpecifications(tests);
  const r = await vitest.runTestSpecifications(specs);
  return r.unhandledErrors.length === 0 && r.testModules.length === tests.length && r.testModules.every((m) => m.state() === 'passed');
}

for (const t of targets) {
  const original = readFileSync(t.file, 'utf8');
  const tests = testsImporting(t.module);
  const lines = original.split('\n');
  const mutants = [];
  let inRange = !t.from;
  lines.forEach((line, i) => {
    if (t.from?.test(line)) inRange = true;
    if (t.to?.test(line)) inRange = false;
    const code = line.trim();
    if (!inRange || !code || /^(\/\/|\/\*|\*|import |export \{|export type|export interface)/.test(code)) return;
    if (/^\w+\??: [^=()]*;$/.test(code)) return; // a type's member (`status: 0 | 1;`): no behaviour to mutate
    for (const [re, by] of OPERATORS) {
      for (const m of line.matchAll(re)) {
        const replacement = typeof by === 'function' ? by(...m) : by;
        const mutated = line.slice(0, m.index) + replacement + line.slice(m.index + m[0].length);
        if (mutated !== line) mutants.push({ line: i, text: mutated, was: line });
      }
    }
  });
  console.log(`\n${t.file}: ${mutants.length} mutants; tests: ${tests.length ? tests.join(', ') : 'none import it'}`);
  restore = () => writeFileSync(t.file, original);
  const before = { killed, total };
  vitest = await createVitest('test', { watch: false, project: ['unit'], reporters: [quiet], sequence: { shuffle: false } });
  await vitest.standalone();
  try {
    if (tests.length && !(await runTests(t.file, tests))) throw new Error(`${tests.join(', ')} fail on the unmutated ${t.file}: fix them first`);
    for (const m of mutants) {
      total++;
      let dead = false;
      if (tests.length) {
        const copy = [...lines];
        copy[m.line] = m.text;
        writeFileSync(t.file, copy.join('\n'));
        dead = !(await Promise.race([runTests(t.file, tests), new Promise((r) => setTimeout(() => r(false), 60_000))]));
      }
      if (dead) killed++;
      else survivors.push(`${t.file}:${m.line + 1}: ${m.was.trim()}  =>  ${m.text.trim()}`);
      process.stdout.write(dead ? '.' : 'S');
    }
  } finally {
    restore();
    restore = undefined;
    await vitest.close();
  }
  perFile.push(`${t.file}: ${killed - before.killed}/${total - before.total} killed`);
}

console.log('\n\nSurvivors:');
for (const s of survivors) console.log(`  ${s}`);
console.log('\nBy file:');
for (const f of perFile) console.log(`  ${f}`);
const score = total ? ((100 * killed) / total).toFixed(1) : '0';
console.log(`\nmutation score: ${killed}/${total} killed (${score}%)`);

function testsImporting(module) {
  const out = [];
  const walk = (dir) => {
    for (const f of readdirSync(dir)) {
      const p = path.join(dir, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.test.ts') && readFileSync(p, 'utf8').includes(`'${module}'`)) out.push(p);
    }
  };
  walk('tests/unit');
  return out;
}
process.exit(0); // vitest's pool can keep the event loop alive after close()
