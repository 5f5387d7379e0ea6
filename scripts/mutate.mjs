#!/usr/bin/env node
// `npm run mutate`: mutation testing of the history core, the holdings logic and the decoder with
// Stryker (not part of npm test; run it under `flock /tmp/heavy.lock`). Stryker's mutators cover
// arithmetic, logical, conditional and equality operators, `??`/`?.`, emptied blocks and functions
// (statements and return values), booleans, unary and update operators. Each mutant is first
// type-checked (@stryker-mutator/typescript-checker): one that does not compile is counted apart as a
// compile error, neither killed nor in the score. Only the unit tests run (the ones covering the mutant,
// per test); mutants no unit test reaches count as survivors ("no coverage").
// Prints the score per file, the compile errors, and every survivor.
//   npm run mutate                      every file below
//   npm run mutate -- spans transfers   the files whose path contains one of these words
//   npm run mutate -- --no-check ...    skip the type check (several times faster on 2 cores; a mutant
//                                       that would not compile is then run, and counted, like any other)
//   npm run mutate -- history.ts:30-110 only those lines of that file
//   MUTATE_TESTS=evm-node/logs*.test.ts npm run mutate -- logs
//                                       only these unit files (globs under tests/unit) run against the mutants
//   MUTATE_RUN=activity npm run mutate -- activity.ts
//                                       its own sandbox (.stryker-tmp/activity) and report (reports/mutation/activity.json)
import path from 'node:path';
import { Stryker } from '@stryker-mutator/core';

export const FILES = [
  // the history core
  'lib/sources/evm-node/history.ts',
  'lib/sources/evm-node/activity.ts',
  'lib/sources/evm-node/activity-plan.ts',
  'lib/sources/evm-node/spans.ts',
  'lib/sources/evm-node/transfers.ts',
  'lib/sources/evm-node/tx-facts.ts',
  'lib/sources/evm-node/logs.ts',
  // holdings
  'lib/sources/evm-node/holdings.ts',
  // decoding
  'lib/decode/abi.ts',
  'lib/decode/index.ts',
  'lib/decode/known.ts',
  'lib/decode/table.ts',
];

const noCheck = process.argv.includes('--no-check');
const words = process.argv.slice(2).filter((a) => a !== '--no-check');
// A word with a line range (`history.ts:30-110`) mutates only those lines of the file it names.
const ranged = words.filter((w) => /:\d+-\d+$/.test(w));
const plain = words.filter((w) => !ranged.includes(w));
const files = [
  ...FILES.filter((f) => plain.some((w) => f.includes(w)) || (words.length === 0)),
  ...ranged.flatMap((w) => {
    const [name, lines] = w.split(':');
    return FILES.filter((f) => f.includes(name)).map((f) => `${f}:${lines}`);
  }),
];
if (files.length === 0) {
  console.error(`no file matches ${words.join(', ')}; files: ${FILES.join(', ')}`);
  process.exit(2);
}

// MUTATE_RUN names a run's sandbox and report (default `mutation`), so two runs in one worktree do not share them.
const runName = process.env.MUTATE_RUN ?? 'mutation';
const stryker = new Stryker({
  mutate: files,
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutate.config.ts', related: true },
  checkers: noCheck ? [] : ['typescript'],
  tsconfigFile: 'tsconfig.mutate.json',
  // Per-test coverage: each mutant runs only the tests that reach it.
  coverageAnalysis: 'perTest',
  // SQL text, log and error messages: what a unit test could only restate.
  mutator: { excludedMutations: ['StringLiteral'] },
  // Two shared cores: one test runner, one checker.
  concurrency: 1,
  timeoutMS: 30_000,
  reporters: ['json', 'progress'],
  jsonReporter: { fileName: `reports/mutation/${runName}.json` },
  ignorePatterns: ['.next', '.data', '.stryker-tmp', 'reports', 'test-results', 'playwright-report', 'bench-results', 'e2e'],
  tempDirName: `.stryker-tmp/${runName}`,
  cleanTempDir: 'always',
  logLevel: 'warn',
});
const results = await stryker.runMutationTest();

const byFile = new Map(files.map((f) => [f.replace(/:\d+-\d+$/, ''), { killed: 0, survived: 0, noCoverage: 0, timeout: 0, compile: 0, runtime: 0, ignored: 0 }]));
const survivors = [];
for (const m of results) {
  m.fileName = path.relative(process.cwd(), m.fileName);
  const s = byFile.get(m.fileName) ?? byFile.set(m.fileName, { killed: 0, survived: 0, noCoverage: 0, timeout: 0, compile: 0, runtime: 0, ignored: 0 }).get(m.fileName);
  const at = `${m.fileName}:${m.location.start.line}:${m.location.start.column + 1}`;
  switch (m.status) {
    case 'Killed': s.killed++; break;
    case 'Timeout': s.timeout++; break;
    case 'Survived': s.survived++; survivors.push(`${at} ${m.mutatorName}: ${oneLine(m.replacement)}`); break;
    case 'NoCoverage': s.noCoverage++; survivors.push(`${at} ${m.mutatorName} (no test reaches it): ${oneLine(m.replacement)}`); break;
    case 'CompileError': s.compile++; break;
    case 'RuntimeError': s.runtime++; break;
    default: s.ignored++;
  }
}

console.log('\nSurvivors:');
for (const s of survivors) console.log(`  ${s}`);
console.log(`\n${'file'.padEnd(40)}  score   killed  survived  no-cov  compile-errors`);
let detected = 0;
let valid = 0;
let compile = 0;
for (const [file, s] of byFile) {
  const d = s.killed + s.timeout;
  const v = d + s.survived + s.noCoverage;
  detected += d;
  valid += v;
  compile += s.compile;
  console.log(`${file.padEnd(40)} ${pct(d, v).padStart(6)}  ${String(d).padStart(7)}  ${String(s.survived).padStart(8)}  ${String(s.noCoverage).padStart(6)}  ${String(s.compile).padStart(14)}`);
}
if (noCheck) console.log('(--no-check: mutants were not type-checked; any that would not compile are counted as killed or survived)');
console.log(`${'all'.padEnd(40)} ${pct(detected, valid).padStart(6)}  ${detected}/${valid} killed (timeouts count as killed); ${compile} compile errors apart`);

function pct(n, of) {
  return of ? `${((100 * n) / of).toFixed(1)}%` : '-';
}
function oneLine(s) {
  const t = (s ?? '').replace(/\s+/g, ' ');
  return t.length > 100 ? `${t.slice(0, 97)}...` : t;
}
